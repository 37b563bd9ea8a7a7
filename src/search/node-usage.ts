import type { WorkflowEvaluation } from '../evaluate/evaluate.js';

/**
 * Model use per node over a search (shown by `flowscout runs show` and stored with the run's
 * counters): requests and tokens of every node that ran (memoized runs cost nothing and count
 * nothing), plus the judge's requests under JUDGE_KEY. Traces carry the same figures per run
 * (`NodeObservation.usage`).
 */

/** What one node (or the judge) sent. */
export interface NodeUse {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

/** The key under which the judge's requests are counted. */
export const JUDGE_KEY = '(judge)';

const zero = (): NodeUse => ({ requests: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

/** Adds `m` into `u`. */
function add(u: NodeUse, m: NodeUse): void {
  u.requests += m.requests;
  u.inputTokens += m.inputTokens;
  u.outputTokens += m.outputTokens;
  u.cachedInputTokens += m.cachedInputTokens;
}

/** Per-node model use of some evaluations. */
export function nodeUsageOf(evaluations: readonly WorkflowEvaluation[]): Record<string, NodeUse> {
  const out: Record<string, NodeUse> = {};
  for (const ev of evaluations) {
    const inRuns = zero();
    for (const r of ev.perRecord) {
      for (const o of r.trace.observations) {
        if (!o.usage || o.cached) continue;
        const use = {
          requests: o.usage.llmCalls,
          inputTokens: o.usage.inputTokens,
          outputTokens: o.usage.outputTokens,
          cachedInputTokens: o.usage.cachedInputTokens ?? 0,
        };
        add((out[o.nodeId] ??= zero()), use);
        add(inRuns, use);
      }
    }
    // What the evaluation sent beyond its runs' nodes is the judge's.
    const judge = {
      requests: ev.usage.llmCalls - inRuns.requests,
      inputTokens: ev.usage.inputTokens - inRuns.inputTokens,
      outputTokens: ev.usage.outputTokens - inRuns.outputTokens,
      cachedInputTokens: 0,
    };
    if (judge.requests > 0) add((out[JUDGE_KEY] ??= zero()), judge);
  }
  return out;
}

/** Adds `more` into `into`. */
export function addNodeUsage(into: Record<string, NodeUse>, more: Record<string, NodeUse> | undefined): void {
  for (const [id, m] of Object.entries(more ?? {})) add((into[id] ??= zero()), m);
}

/** The per-node table of `runs show` (empty when no model ran), heaviest first. */
export function formatNodeUsage(nodes: Record<string, NodeUse> | undefined): string[] {
  const rows = Object.entries(nodes ?? {})
    .filter(([, u]) => u.requests > 0)
    .sort((a, b) => b[1].inputTokens - a[1].inputTokens || (a[0] < b[0] ? -1 : 1));
  if (rows.length === 0) return [];
  return [
    ' model use per node (requests and tokens over the whole run; memoized runs sent nothing):',
    '  node                  requests  input tokens  cached input  output tokens',
    ...rows.map(
      ([id, u]) =>
        `  ${id.padEnd(20)} ${String(u.requests).padStart(9)} ${String(u.inputTokens).padStart(13)} ${String(u.cachedInputTokens).padStart(13)} ${String(u.outputTokens).padStart(14)}`,
    ),
  ];
}
