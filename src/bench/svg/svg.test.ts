import { describe, expect, it } from 'vitest';
import { niceTicks, tickLabel } from './axes.js';
import { boxPlot } from './box-plot.js';
import { lineChart } from './line-chart.js';
import { esc } from './svg-doc.js';

/** Tags open and close in order (a well-formedness check without an XML parser). */
function balanced(svg: string): boolean {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    const [, close, name, self] = m;
    if (self) continue;
    if (close) {
      if (stack.pop() !== name) return false;
    } else stack.push(name!);
  }
  return stack.length === 0;
}

describe('axes', () => {
  it('nice ticks cover the range in steps of 1, 2, 2.5 or 5 × 10^k', () => {
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0.23, 0.31, 4)).toEqual([0.22, 0.24, 0.26, 0.28, 0.3, 0.32]);
    expect(niceTicks(0, 30, 10)).toEqual([0, 5, 10, 15, 20, 25, 30]);
    expect(niceTicks(0, 0, 5)).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(tickLabel(0.1 + 0.2)).toBe('0.3');
  });
});

describe('line chart', () => {
  const svg = lineChart({
    title: 'Validation score per iteration',
    subtitle: 'offline policy (no LLM)',
    xLabel: 'iteration',
    yLabel: 'D_val score',
    series: [
      {
        name: 'Travel',
        points: [
          { x: 0, y: 0.24 },
          { x: 1, y: 0.25 },
          { x: 2, y: undefined },
          { x: 3, y: 0.27 },
        ],
      },
      { name: 'A<B & "C"', points: [{ x: 0, y: 0.3 }] },
    ],
  });
  it('is a well-formed SVG with title, axis labels and a legend entry per series', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(balanced(svg)).toBe(true);
    for (const s of ['Validation score per iteration', 'offline policy (no LLM)', 'iteration', 'D_val score', 'Travel'])
      expect(svg).toContain(s);
  });
  it('escapes names and leaves a gap where an iteration has no score', () => {
    expect(svg).toContain('A&lt;B &amp; &quot;C&quot;');
    expect(svg).not.toContain('A<B');
    const travelPath = /<path d="([^"]+)" fill="none" stroke="#0072B2"/.exec(svg)![1]!;
    expect(travelPath.match(/M/g)).toHaveLength(2);
    expect(svg.match(/<circle/g)).toHaveLength(4);
  });
});

describe('box plot', () => {
  it('draws one box per approach and domain, with outliers and a mean marker', () => {
    const svg = boxPlot({
      title: 'CV of ES',
      yLabel: 'CV',
      groups: [
        {
          label: 'Travel',
          boxes: [
            { name: 'FlowScout', values: [0, 0, 0.01, 0.02, 0.5] },
            { name: 'ReAct', values: [0.1, 0.2] },
          ],
        },
        { label: 'Weather', boxes: [{ name: 'FlowScout', values: [0, 0, 0] }] },
      ],
    });
    expect(balanced(svg)).toBe(true);
    expect(svg.match(/<rect x=/g)!.length).toBe(1 + 3 + 1); // background, three boxes, legend frame
    expect(svg.match(/<circle/g)).toHaveLength(1); // 0.5 is beyond 1.5·IQR of the first box
    expect(svg).toContain('Weather');
    expect(svg).toContain('ReAct');
  });
  it('escapes text', () => {
    expect(esc(`<a href='x'>&</a>`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;');
  });
});
