import { boxSummary } from '../stats/describe.js';
import { legend, linearScale, niceTicks, yAxis, type Plot } from './axes.js';
import { colour, el, subtitle, svgDocument, text } from './svg-doc.js';

/**
 * A grouped box plot (Fig. 3 of the paper: the CV of ES per query, one box per approach, grouped by
 * domain). Each box spans the quartiles with a line at the median, whiskers reach the furthest value
 * within 1.5·IQR, outliers are dots and the mean is a diamond. A box of identical values collapses to
 * a line, which is what a deterministic approach looks like; the caller says so in `subtitle`.
 */

export interface BoxGroup {
  label: string;
  boxes: ReadonlyArray<{ name: string; values: readonly number[] }>;
}

export interface BoxPlotSpec {
  title: string;
  yLabel: string;
  groups: readonly BoxGroup[];
  subtitle?: string;
  width?: number;
  height?: number;
}

export function boxPlot(spec: BoxPlotSpec): string {
  const names = [...new Set(spec.groups.flatMap((g) => g.boxes.map((b) => b.name)))];
  const width = spec.width ?? Math.max(640, 120 + spec.groups.length * (names.length * 34 + 40) + 200);
  const height = spec.height ?? 420;
  const sub = subtitle(spec.subtitle, width);
  const top = 44 + sub.height;
  const plot: Plot = { left: 70, top, width: width - 70 - 200, height: height - top - 56 };
  const all = spec.groups.flatMap((g) => g.boxes.flatMap((b) => b.values));
  const yTicks = niceTicks(Math.min(0, ...all), Math.max(0.1, ...all), 5);
  const y = linearScale(yTicks[0]!, yTicks[yTicks.length - 1]!, plot.top + plot.height, plot.top);

  const body: string[] = [];
  body.push(...sub.lines);
  body.push(...yAxis(plot, yTicks, y, spec.yLabel));
  const base = plot.top + plot.height;
  body.push(el('line', { x1: plot.left, y1: base, x2: plot.left + plot.width, y2: base, stroke: '#333' }));
  const groupWidth = plot.width / Math.max(1, spec.groups.length);
  spec.groups.forEach((g, gi) => {
    const gx = plot.left + gi * groupWidth;
    const slot = groupWidth / (names.length + 1);
    body.push(text(gx + groupWidth / 2, base + 18, g.label, { 'text-anchor': 'middle' }));
    for (const b of g.boxes) {
      const s = boxSummary(b.values);
      if (!s) continue;
      const c = colour(names.indexOf(b.name));
      const cx = gx + slot * (names.indexOf(b.name) + 1);
      const w = Math.min(26, slot * 0.7);
      body.push(el('line', { x1: cx, y1: y(s.whiskerLow), x2: cx, y2: y(s.whiskerHigh), stroke: c }));
      for (const v of [s.whiskerLow, s.whiskerHigh])
        body.push(el('line', { x1: cx - w / 4, y1: y(v), x2: cx + w / 4, y2: y(v), stroke: c }));
      body.push(
        el('rect', {
          x: cx - w / 2,
          y: y(s.q3),
          width: w,
          height: Math.max(1, y(s.q1) - y(s.q3)),
          fill: c,
          'fill-opacity': 0.25,
          stroke: c,
        }),
      );
      body.push(
        el('line', { x1: cx - w / 2, y1: y(s.median), x2: cx + w / 2, y2: y(s.median), stroke: c, 'stroke-width': 2 }),
      );
      const my = y(s.mean);
      body.push(
        el('path', {
          d: `M${cx} ${my - 4} L${cx + 4} ${my} L${cx} ${my + 4} L${cx - 4} ${my} Z`,
          fill: '#ffffff',
          stroke: c,
        }),
      );
      for (const o of s.outliers) body.push(el('circle', { cx, cy: y(o), r: 2.5, fill: c }));
    }
  });
  body.push(text(plot.left + plot.width / 2, base + 38, 'domain (◇ = mean)', { 'text-anchor': 'middle' }));
  if (names.length)
    body.push(
      ...legend(
        plot.left + plot.width + 20,
        plot.top + 12,
        names.map((n, i) => ({ name: n, colour: colour(i) })),
      ),
    );
  return svgDocument(width, height, spec.title, body);
}
