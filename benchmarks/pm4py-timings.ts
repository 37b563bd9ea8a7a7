import { existsSync, readFileSync } from 'node:fs';

/** One log's PM4Py figures (wall seconds): loading it, and the IM / IMf 0.2 api call on the loaded log. */
export interface Pm4pyTimingRow {
  load: number;
  imApi: number;
  imfApi: number;
}

/**
 * Reads a table of PM4Py timings (Markdown: a row per log with the log's file name in backticks, and
 * the columns `load s`, `IM api s` and `IMf0.2 api s`; the first YYYY-MM-DD in the file is the date
 * of the measurements). Undefined when the file is missing or has no such table.
 */
export function readPm4pyTimings(file: string): { date: string; rows: Map<string, Pm4pyTimingRow> } | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const date = /\b(\d{4}-\d{2}-\d{2})\b/.exec(text)?.[1] ?? 'undated';
  const lines = text.split('\n').filter((l) => l.trim().startsWith('|'));
  const header = lines.find((l) => /load s/.test(l));
  if (!header) return undefined;
  const cells = (l: string) =>
    l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
  const cols = cells(header);
  const num = (c: string | undefined) => Number(/\d+(?:\.\d+)?/.exec((c ?? '').replace(/,/g, ''))?.[0] ?? Number.NaN);
  const rows = new Map<string, Pm4pyTimingRow>();
  for (const line of lines) {
    const c = cells(line);
    const name = /`([^`]+)`/.exec(c[0] ?? '')?.[1];
    if (!name) continue;
    rows.set(name, {
      load: num(c[cols.indexOf('load s')]),
      imApi: num(c[cols.indexOf('IM api s')]),
      imfApi: num(c[cols.indexOf('IMf0.2 api s')]),
    });
  }
  return { date, rows };
}
