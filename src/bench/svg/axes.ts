import { el, esc, num, text } from './svg-doc.js';

/**
 * Axes for the benchmark figures: "nice" tick values (steps of 1, 2 or 5 × 10^k), a linear scale
 * from data to pixels, and the drawn frame with ticks, grid lines and axis labels.
 */

/** Tick values covering [lo, hi] with about `count` steps of 1, 2, 2.5 or 5 × 10^k. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const start = Math.floor(lo / step + 1e-9) * step;
  const ticks: number[] = [];
  for (let v = start; v <= hi + step * 1e-6 || ticks.length < 2; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1]! < hi - step * 1e-6)
    ticks.push(Number((ticks[ticks.length - 1]! + step).toPrecision(12)));
  return ticks;
}

/** A linear map from [d0, d1] to [r0, r1]. */
export function linearScale(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/** Formats a tick label without float noise (0.30000000000000004 → 0.3). */
export function tickLabel(v: number): string {
  return String(Number(v.toPrecision(10)));
}

export interface Plot {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Y axis with grid lines, tick labels and a rotated label. */
export function yAxis(plot: Plot, ticks: readonly number[], y: (v: number) => number, label: string): string[] {
  const out: string[] = [];
  for (const t of ticks) {
    const py = y(t);
    out.push(el('line', { x1: plot.left, y1: py, x2: plot.left + plot.width, y2: py, stroke: '#e5e5e5' }));
    out.push(el('line', { x1: plot.left - 5, y1: py, x2: plot.left, y2: py, stroke: '#333' }));
    out.push(text(plot.left - 8, py + 4, tickLabel(t), { 'text-anchor': 'end' }));
  }
  out.push(el('line', { x1: plot.left, y1: plot.top, x2: plot.left, y2: plot.top + plot.height, stroke: '#333' }));
  const cx = plot.left - 48;
  const cy = plot.top + plot.height / 2;
  out.push(
    `<text x="${num(cx)}" y="${num(cy)}" text-anchor="middle" transform="rotate(-90 ${num(cx)} ${num(cy)})">${esc(label)}</text>`,
  );
  return out;
}

/** X axis line, ticks at `ticks` (value, label) and the axis label below. */
export function xAxis(plot: Plot, ticks: ReadonlyArray<{ at: number; label: string }>, label: string): string[] {
  const base = plot.top + plot.height;
  const out = [el('line', { x1: plot.left, y1: base, x2: plot.left + plot.width, y2: base, stroke: '#333' })];
  for (const t of ticks) {
    out.push(el('line', { x1: t.at, y1: base, x2: t.at, y2: base + 5, stroke: '#333' }));
    out.push(text(t.at, base + 18, t.label, { 'text-anchor': 'middle' }));
  }
  out.push(text(plot.left + plot.width / 2, base + 38, label, { 'text-anchor': 'middle' }));
  return out;
}

/** A legend box: one coloured swatch and name per entry, stacked, at (x, y). */
export function legend(
  x: number,
  y: number,
  entries: ReadonlyArray<{ name: string; colour: string; dashed?: boolean }>,
): string[] {
  const width = 24 + 7 * Math.max(...entries.map((e) => e.name.length), 4);
  const out = [
    el('rect', { x: x - 6, y: y - 12, width, height: entries.length * 18 + 8, fill: '#ffffff', stroke: '#bbb', rx: 3 }),
  ];
  entries.forEach((e, i) => {
    const ly = y + i * 18;
    out.push(
      el('line', {
        x1: x,
        y1: ly - 4,
        x2: x + 16,
        y2: ly - 4,
        stroke: e.colour,
        'stroke-width': 3,
        'stroke-dasharray': e.dashed ? '4 3' : undefined,
      }),
    );
    out.push(text(x + 22, ly, e.name));
  });
  return out;
}
