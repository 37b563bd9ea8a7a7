import type { TaskRecord } from '../records/schema.js';

/**
 * Tools whose repeated calls in the records were retries: the same tool called again right after
 * a call of it that failed (`status: 'error'`). A repeated position of such a tool becomes a
 * `retry` loop in G0 instead of `calls: 'many'` (docs/DESIGN.md, "Mining": loop or
 * repetition becomes `calls: 'many'` or `retry`).
 */
export function retriedTools(records: readonly TaskRecord[]): Set<string> {
  const out = new Set<string>();
  for (const r of records) {
    for (let i = 1; i < r.calls.length; i++) {
      const prev = r.calls[i - 1]!;
      if (prev.tool === r.calls[i]!.tool && prev.status === 'error') out.add(prev.tool);
    }
  }
  return out;
}
