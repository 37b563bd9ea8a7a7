import { legend, linearScale, niceTicks, xAxis, yAxis, type Plot } from './axes.js';
import { colour, el, num, subtitle, svgDocument, text } from './svg-doc.js';

/**
 * A line chart (Fig. 5 of the paper: the validation score of each iteration's candidate, one line
 * per domain). A point without a value (an iteration whose candidate failed or duplicated another)
 * leaves a gap in its line; every value gets a marker so single points stay visible.
 */

export interface LineSeries {
  name: string;
  points: ReadonlyArray<{ x: number; y: number | undefined }>;
  dashed?: boolean;
}

export interface LineChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly LineSeries[];
  /** A line of small text under the title (e.g. which policy produced the data). */
  subtitle?: string;
  width?: number;
  height?: number;
}

export function lineChart(spec: LineChartSpec): string {
  const width = spec.width ?? 720;
  const height = spec.height ?? 420;
  const sub = subtitle(spec.subtitle, width);
  const top = 44 + sub.height;
  const plot: Plot = { left: 70, top, width: width - 70 - 190, height: height - top - 56 };
  const xs = spec.series.flatMap((s) => s.points.map((p) => p.x));
  const ys = spec.series.flatMap((s) => s.points.flatMap((p) => (p.y === undefined ? [] : [p.y])));
  const xMax = Math.max(1, ...xs);
  const xMin = Math.min(0, ...xs);
  const yTicks = niceTicks(ys.length ? Math.min(...ys) : 0, ys.length ? Math.max(...ys) : 1, 5);
  const y = linearScale(yTicks[0]!, yTicks[yTicks.length - 1]!, plot.top + plot.height, plot.top);
  const x = linearScale(xMin, xMax, plot.left, plot.left + plot.width);
  const xTicks = niceTicks(xMin, xMax, Math.min(10, xMax - xMin || 1)).filter(
    (t) => Number.isInteger(t) && t >= xMin && t <= xMax,
  );

  const body: string[] = [];
  body.push(...sub.lines);
  body.push(...yAxis(plot, yTicks, y, spec.yLabel));
  body.push(
    ...xAxis(
      plot,
      xTicks.map((t) => ({ at: x(t), label: String(t) })),
      spec.xLabel,
    ),
  );
  spec.series.forEach((s, i) => {
    const c = colour(i);
    let d = '';
    let pen = false;
    for (const p of s.points) {
      if (p.y === undefined) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${num(x(p.x))} ${num(y(p.y))} `;
      pen = true;
    }
    if (d)
      body.push(
        el('path', {
          d: d.trim(),
          fill: 'none',
          stroke: c,
          'stroke-width': 2,
          'stroke-dasharray': s.dashed ? '5 4' : undefined,
        }),
      );
    for (const p of s.points) if (p.y !== undefined) body.push(el('circle', { cx: x(p.x), cy: y(p.y), r: 3, fill: c }));
  });
  if (spec.series.length)
    body.push(
      ...legend(
        plot.left + plot.width + 20,
        plot.top + 12,
        spec.series.map((s, i) => ({ name: s.name, colour: colour(i), dashed: s.dashed })),
      ),
    );
  if (ys.length === 0)
    body.push(
      text(plot.left + plot.width / 2, plot.top + plot.height / 2, 'no data', {
        'text-anchor': 'middle',
        fill: '#888',
      }),
    );
  return svgDocument(width, height, spec.title, body);
}
