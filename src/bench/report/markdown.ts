/**
 * Markdown building blocks for the benchmark report: tables whose cells are escaped (a `|` in a
 * name cannot break a row) and number formats that say "n/a" instead of printing NaN.
 */

/** A GitHub-flavoured Markdown table; `align` per column ('l' or 'r', default 'l'). */
export function table(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  align: ReadonlyArray<'l' | 'r'> = [],
): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const line = (r: readonly string[]) => `| ${r.map(cell).join(' | ')} |`;
  const rule = `| ${headers.map((_, i) => (align[i] === 'r' ? '---:' : '---')).join(' | ')} |`;
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

/** A number with `digits` decimals; "n/a" for null, NaN or infinite. */
export function fixed(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits);
}

/** A signed number (+0.123 / −0.045). */
export function signed(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}`;
}

/** A p-value: 4 decimals, or "< 0.0001". */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return 'n/a';
  return p < 0.0001 ? '< 0.0001' : p.toFixed(4);
}

/** Milliseconds as seconds or minutes. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}
