import { esCoverage } from '../metrics/score.js';
import type { IterationRow } from './search-context.js';
import type { SearchResult } from './run-search.js';
import { describeEditPath } from './tree.js';

/**
 * What `flowscout search` prints: the per-iteration table (one row per iteration as it completes)
 * and the closing summary, always naming the policy, judge and optimizer that produced the numbers
 * and marking offline results as offline.
 */

/** Who produced the figures. */
export interface SearchLabels {
  policy: string;
  judge: string;
  optimizer: string;
  /** True when every part ran without a model (the figures are offline figures). */
  offline: boolean;
}

const f3 = (x: number | undefined) => (x === undefined ? '    -' : x.toFixed(3));

/** The line naming the policy, judge and optimizer (and OFFLINE when no model ran). */
export function labelsLine(l: SearchLabels): string {
  return `policy: ${l.policy} · judge: ${l.judge} · optimizer: ${l.optimizer}${l.offline ? ' — OFFLINE results (no LLM anywhere)' : ''}`;
}

/** Header of the per-iteration table. */
export const TABLE_HEADER =
  ' iter  parent → child  status     λ      R_opt  S_val  TC_val ES_val  best (S_val)   LLM calls  cost $   edit';

/** One row of the per-iteration table. */
export function formatRow(r: IterationRow): string {
  const status = r.status.padEnd(9);
  const move = `${r.parent.padStart(5)} → ${r.child.padEnd(5)}`;
  const best = `${r.best} (${r.bestVal.toFixed(3)})`.padEnd(13);
  return ` ${String(r.iteration).padStart(4)}  ${move}  ${status} ${r.lambda.toFixed(3)}  ${f3(r.optReward)}  ${f3(r.valScore)}  ${f3(r.valTc)}  ${f3(r.valEs)}  ${best}  ${String(r.llmCalls).padStart(9)}  ${r.costUsd.toFixed(4)}  ${r.summary}`;
}

/** The progress line shown on a terminal while an iteration runs. */
export function progressLine(
  iteration: number,
  total: number,
  r: Pick<IterationRow, 'best' | 'bestVal' | 'llmCalls' | 'costUsd'> | undefined,
): string {
  const best = r ? `best ${r.best} val ${r.bestVal.toFixed(3)}` : 'best: G0';
  return `iteration ${iteration}/${total} · ${best} · LLM calls ${r?.llmCalls ?? 0} · $${(r?.costUsd ?? 0).toFixed(4)}`;
}

/**
 * When iterations ran but every expansion failed (no candidate besides G0 without an error), what to
 * say instead of a normal summary; undefined otherwise.
 */
export function noEditFound(result: SearchResult): string | undefined {
  const children = [...result.tree.nodes.values()].filter((c) => c.id !== result.root.id);
  if (result.iterations.length === 0 || children.some((c) => !c.error)) return undefined;
  const first = children.find((c) => c.error)?.error;
  return `no edit was found: ${children.length === 0 ? 'no expansion produced a candidate' : `all ${children.length} expansion${children.length === 1 ? '' : 's'} failed${first ? ` (first: ${first.slice(0, 160)})` : ''}`}. Look at the optimizer's errors in the table above; with few records or few tools there may be nothing to edit, and a model (--optimizer-model) proposes edits the rules cannot.`;
}

/** The closing summary: stop reason, labels, G0 vs best on D_val and D_test, memo savings, work. */
export function formatSummary(
  result: SearchResult,
  labels: SearchLabels,
  extra: { runId?: string; outDir?: string; files?: string[] } = {},
): string {
  const { root, best } = result;
  const lines = [
    `Search ${extra.runId ?? ''} ended: ${result.stopReason}.`.replace('  ', ' '),
    `  ${labelsLine(labels)}`,
  ];
  const noEdit = noEditFound(result);
  if (noEdit)
    lines.push(
      `  ${noEdit}`,
      `  validation score S = (TC + ES) / 2:  G0 ${f3(root.valScore)} (TC ${f3(root.valTc)}, ES ${f3(root.valEs)}); the best workflow written is G0 unchanged`,
    );
  else {
    lines.push(
      `  candidates: ${result.tree.size} (G0 + ${result.tree.size - 1}); best: ${best.id}, from ${describeEditPath(result.tree, best.id)}`,
      `  validation score S = (TC + ES) / 2:  G0 ${f3(root.valScore)} (TC ${f3(root.valTc)}, ES ${f3(root.valEs)})  →  best ${f3(best.valScore)} (TC ${f3(best.valTc)}, ES ${f3(best.valEs)})`,
    );
  }
  if (result.test) {
    const t = result.test;
    lines.push(
      `  test set (${t.records} records):  G0 TC ${t.g0.tc.toFixed(3)} ES ${t.g0.es.toFixed(3)}  →  best TC ${t.best.tc.toFixed(3)} ES ${t.best.es.toFixed(3)}`,
    );
    if (t.esRecords !== undefined) lines.push(`  ${esCoverage(t.esRecords, t.records)}`);
  } else if (result.testSkipped) lines.push(`  test set: not run (${result.testSkipped})`);
  if (result.savings) {
    const s = result.savings;
    lines.push(
      `  memo: ${s.nodeRunsSaved} node runs, ${s.toolCallsSaved} tool calls and ${s.llmCallsSaved} LLM calls saved; ${s.judgeScoresReused} judge scores reused (${s.judgeCallsSaved} judge requests, ${s.judgeTokensSaved} tokens not sent)`,
    );
  } else lines.push('  memo: off');
  const u = result.usage;
  lines.push(
    `  work: ${u.toolCalls ?? 0} tool calls, ${u.llmCalls ?? 0} LLM calls, ${u.tokens ?? 0} tokens, $${Number(u.costUsd ?? 0).toFixed(4)}`,
  );
  if (extra.files?.length) lines.push(`  wrote ${extra.files.join(', ')}`);
  return lines.join('\n');
}
