import { countReuse, JUDGE_KEY_PREFIX, type JudgeMemo } from '../metrics/judge-memo.js';
import type { JudgeScore } from '../metrics/types.js';
import { copyObservation, type NodeMemo } from '../runtime/memo.js';
import type { NodeObservation } from '../runtime/trace.js';

/**
 * The search's node memo (docs/DESIGN.md, "Search", beyond the paper: node executions memoized by record,
 * the node's definition and everything upstream of it, and the policy — the key is the runtime's
 * `nodeMemoKey`). An in-memory map that also remembers which entries are new since the last `drain`,
 * so the search persists them in the same store transaction as the iteration that produced them, and
 * counts what it saved: node runs, tool calls and LLM calls not repeated.
 *
 * Soundness: for the offline policy and replayed tools a node's observation is a pure function of the
 * key, so a memoized search reaches exactly the results of an unmemoized one (tested). For an LLM
 * policy a node's output is one sample; reusing it is what a cache of "what this node produced for
 * this record under this upstream" means, and it makes sibling candidates differ only where their
 * definitions differ (common random numbers), which is what the search compares. `--no-memo` turns
 * it off.
 *
 * Policies whose decisions read more than a node's upstream (the offline policy reads where the node
 * sits among all tool positions) declare it with `ExecutionPolicy.memoScope`, and the runtime folds
 * that into the key, so the memo needs no knowledge of any policy. The memo-on/memo-off comparison
 * on a real domain (test/cli/search.test.ts) checks that both runs agree exactly.
 *
 * The memo also keeps the judge's scores (`metrics/judge-memo.ts`: keyed by the judge, its rubric,
 * the request, the reference and the answer), stored beside the node entries under `judge:` keys, so
 * a candidate that answers a record as an earlier one did, a resumed run, and the final D_test runs
 * reuse the score; the savings count the scores reused and the judge requests not sent.
 */

/** What the memo saved so far. */
export interface MemoSavings {
  /** Node executions answered from the memo. */
  nodeRunsSaved: number;
  /** Tool calls those executions had made. */
  toolCallsSaved: number;
  /** Model requests those executions had made. */
  llmCallsSaved: number;
  /** Judge scores reused (the offline judge's too). */
  judgeScoresReused: number;
  /** Judge requests not sent, and their tokens. */
  judgeCallsSaved: number;
  judgeTokensSaved: number;
}

/** Savings with every counter at 0. */
export const NO_SAVINGS: MemoSavings = {
  nodeRunsSaved: 0,
  toolCallsSaved: 0,
  llmCallsSaved: 0,
  judgeScoresReused: 0,
  judgeCallsSaved: 0,
  judgeTokensSaved: 0,
};

/** The memo with its counters and its not-yet-stored entries. */
export interface SearchMemo extends NodeMemo, JudgeMemo {
  savings(): MemoSavings;
  /** Entries added since the last drain (to persist them): node observations, and judge scores under `judge:` keys. */
  drain(): Array<{ key: string; observation: NodeObservation | JudgeScore }>;
  size(): number;
}

/** The memo's savings plus those of a record runner's own memo (distributed evaluation), or undefined without a memo. */
export function totalSavings(
  memo: SearchMemo | undefined,
  runner?: { savings?(): Partial<MemoSavings> },
): MemoSavings | undefined {
  if (!memo) return undefined;
  const s = memo.savings();
  const r = runner?.savings?.();
  if (!r) return s;
  const out = { ...s };
  for (const k of Object.keys(NO_SAVINGS) as Array<keyof MemoSavings>) out[k] += r[k] ?? 0;
  return out;
}

/** Creates the memo, preloaded with persisted entries (a resumed run). */
export function createSearchMemo(
  initial: Iterable<{ key: string; observation: unknown }> = [],
  start: Partial<MemoSavings> = {},
): SearchMemo {
  const map = new Map<string, NodeObservation>();
  const scores = new Map<string, JudgeScore>();
  for (const e of initial) {
    if (e.key.startsWith(JUDGE_KEY_PREFIX)) scores.set(e.key, e.observation as JudgeScore);
    else map.set(e.key, e.observation as NodeObservation);
  }
  let fresh: Array<{ key: string; observation: NodeObservation | JudgeScore }> = [];
  const saved: MemoSavings = { ...NO_SAVINGS, ...start };
  return {
    get(key) {
      const hit = map.get(key);
      if (hit) {
        saved.nodeRunsSaved++;
        saved.toolCallsSaved += hit.calls?.length ?? 0;
        saved.llmCallsSaved += hit.usage?.llmCalls ?? 0;
      }
      return hit;
    },
    set(key, observation) {
      if (map.has(key)) return;
      const copy = copyObservation(observation);
      map.set(key, copy);
      fresh.push({ key, observation: copy });
    },
    getScore(key) {
      const hit = scores.get(key);
      if (hit) countReuse(saved, hit.usage ?? { llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
      return hit;
    },
    setScore(key, score) {
      if (scores.has(key)) return;
      scores.set(key, score);
      fresh.push({ key, observation: score });
    },
    savings: () => ({ ...saved }),
    drain() {
      const out = fresh;
      fresh = [];
      return out;
    },
    size: () => map.size + scores.size,
  };
}
