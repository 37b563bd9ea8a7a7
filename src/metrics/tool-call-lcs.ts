import { canonicalArgs, canonicalCallKey, stableStringify, type ParamSchema } from '../contracts/canonical-args.js';
import type { CallKey } from '../records/schema.js';
import { alignInOrder } from '../util/in-order-alignment.js';

/**
 * Tool-call correctness TC (the paper's Eq. 2-3; docs/DESIGN.md, "Metrics"):
 *
 *   TC_i = |LCS(π_i, π̂_i)| / max(K_i, K̂_i),  TC_i = 1 when both logs are empty,
 *
 * where two calls are equal only when their tool names and canonical arguments are equal
 * (`canonicalCallKey`, the same key the replay cache uses; argument types are coerced by the tool's
 * schema when one is given). Pseudo-calls (ToolBench's `Finish`) are not calls and are removed from
 * both logs first. Besides the score it returns which calls matched, which are missing or extra,
 * which were made out of order, and same-tool calls with wrong arguments: the feedback the optimizer
 * turns into edits.
 */

/** Tool names that are not calls (docs/DESIGN.md, "Metrics": pseudo-calls such as ToolBench's `Finish` are not calls). */
export const PSEUDO_CALLS: ReadonlySet<string> = new Set(['Finish']);

export interface TcOptions {
  /** Input schema per tool name, used to coerce argument types before comparing. */
  schemas?: Readonly<Record<string, ParamSchema | undefined>>;
}

/** A reference call and a predicted call of the same tool that did not match because of their arguments. */
export interface WrongArgs {
  /** Index in the reference log (as given, before pseudo-calls are removed). */
  reference: number;
  /** Index in the predicted log (as given). */
  predicted: number;
  tool: string;
  /** Argument keys whose canonical values differ (sorted), including keys only one side has. */
  keys: string[];
}

export interface TcResult {
  /** TC_i in [0, 1]. */
  tc: number;
  /** |LCS|. */
  lcs: number;
  /** K (reference calls) and K̂ (predicted calls), pseudo-calls excluded. */
  k: number;
  kHat: number;
  /** Matched pairs [reference index, predicted index], in order. Indices refer to the logs as given. */
  matched: Array<[number, number]>;
  /** Reference calls not in the LCS. */
  missing: number[];
  /** Predicted calls not in the LCS. */
  extra: number[];
  /** Unmatched same-tool pairs (taken in order from `missing` and `extra`) with the differing argument keys. */
  wrongArgs: WrongArgs[];
  /** Unmatched pairs of *equal* calls: the call was made, but out of order (paired before `wrongArgs`). */
  reordered: Array<{ reference: number; predicted: number; tool: string }>;
  /**
   * Graded TC_i: as TC_i, but a predicted call of the reference call's tool counts for the share of
   * the two calls' argument keys on which they agree (1 for equal calls), aligned in order to
   * maximise the sum; `gradedTc` = that sum / max(K, K̂) (1 when both logs are empty). Progress
   * below exact matches shows here; TC stays the headline.
   */
  gradedTc: number;
  /** Predicted calls with no call of their tool to pair with in that alignment: calls beyond the reference. */
  beyond: number;
}

/** TC of one record: the predicted log π̂ against the reference log π. */
export function toolCallCorrectness(
  reference: readonly CallKey[],
  predicted: readonly CallKey[],
  opts: TcOptions = {},
): TcResult {
  const ref = realCalls(reference);
  const pred = realCalls(predicted);
  const keyOf = (c: CallKey) => canonicalCallKey(c.tool, c.args, opts.schemas?.[c.tool.trim()]);
  const refKeys = ref.map(({ call }) => keyOf(call));
  const predKeys = pred.map(({ call }) => keyOf(call));
  const pairs = lcsPairs(refKeys, predKeys);

  const matched = pairs.map(([i, j]) => [ref[i]!.index, pred[j]!.index] as [number, number]);
  const refUsed = new Set(pairs.map(([i]) => i));
  const predUsed = new Set(pairs.map(([, j]) => j));
  const missing = ref.filter((_, i) => !refUsed.has(i));
  const extra = pred.filter((_, j) => !predUsed.has(j));

  const paired = new Set<number>();
  const reordered: TcResult['reordered'] = [];
  const refLeft = missing.filter((r) => {
    const p = extra.find((e) => !paired.has(e.index) && predKeys[e.pos] === refKeys[r.pos]);
    if (!p) return true;
    paired.add(p.index);
    reordered.push({ reference: r.index, predicted: p.index, tool: r.call.tool.trim() });
    return false;
  });
  const wrongArgs: WrongArgs[] = [];
  for (const r of refLeft) {
    const p = extra.find((e) => !paired.has(e.index) && e.call.tool.trim() === r.call.tool.trim());
    if (!p) continue;
    paired.add(p.index);
    const schema = opts.schemas?.[r.call.tool.trim()];
    wrongArgs.push({
      reference: r.index,
      predicted: p.index,
      tool: r.call.tool.trim(),
      keys: differingKeys(r.call.args, p.call.args, schema),
    });
  }

  const k = ref.length;
  const kHat = pred.length;
  const tc = k === 0 && kHat === 0 ? 1 : pairs.length / Math.max(k, kHat);
  const graded = gradedAlignment(
    ref.map(({ call }) => call),
    pred.map(({ call }) => call),
    opts,
  );
  return {
    gradedTc: k === 0 && kHat === 0 ? 1 : graded.sum / Math.max(k, kHat),
    beyond: kHat - graded.pairs,
    tc,
    lcs: pairs.length,
    k,
    kHat,
    matched,
    missing: missing.map((m) => m.index),
    extra: extra.map((e) => e.index),
    wrongArgs,
    reordered,
  };
}

/** TC over queries: the mean of TC_i (0 for no queries). */
export function meanTc(results: ReadonlyArray<{ tc: number } | number>): number {
  if (results.length === 0) return 0;
  return results.reduce<number>((sum, r) => sum + (typeof r === 'number' ? r : r.tc), 0) / results.length;
}

/** The calls without pseudo-calls, each with its index as given and its position after filtering. */
function realCalls(calls: readonly CallKey[]): Array<{ call: CallKey; index: number; pos: number }> {
  return calls
    .map((call, index) => ({ call, index }))
    .filter(({ call }) => !PSEUDO_CALLS.has(call.tool.trim()))
    .map((c, pos) => ({ ...c, pos }));
}

/**
 * One longest common subsequence as index pairs. Suffix table, then a walk from the front that takes
 * a match whenever it lies on an optimal path, so ties resolve to the earliest calls.
 */
function lcsPairs(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  return alignInOrder(a.length, b.length, (i, j) => (a[i] === b[j] ? 1 : undefined)).pairs;
}

/** The share of two calls' argument keys on which they agree (calls of one tool; 1 with no keys). */
function argumentShare(a: CallKey, b: CallKey, schema: ParamSchema | undefined): number {
  const ca = canonicalArgs(a.args, schema);
  const cb = canonicalArgs(b.args, schema);
  const keys = new Set([...Object.keys(ca), ...Object.keys(cb)]);
  if (keys.size === 0) return 1;
  let same = 0;
  for (const key of keys) if (key in ca && key in cb && stableStringify(ca[key]) === stableStringify(cb[key])) same++;
  return same / keys.size;
}

/** The in-order pairing of same-tool calls with the largest summed argument share, and how many pairs it has. */
function gradedAlignment(
  ref: readonly CallKey[],
  pred: readonly CallKey[],
  opts: TcOptions,
): { sum: number; pairs: number } {
  // A pairing of the tool counts even at share 0: the call was the right tool.
  const { value, pairs } = alignInOrder(
    ref.length,
    pred.length,
    (i, j) => {
      const tool = ref[i]!.tool.trim();
      return tool === pred[j]!.tool.trim() ? argumentShare(ref[i]!, pred[j]!, opts.schemas?.[tool]) : undefined;
    },
    { ties: 'late', morePairs: true },
  );
  return { sum: value, pairs: pairs.length };
}

function differingKeys(a: CallKey['args'], b: CallKey['args'], schema: ParamSchema | undefined): string[] {
  const ca = canonicalArgs(a, schema);
  const cb = canonicalArgs(b, schema);
  const keys = new Set([...Object.keys(ca), ...Object.keys(cb)]);
  return [...keys].filter((k) => stableStringify(ca[k]) !== stableStringify(cb[k]) || !(k in ca) || !(k in cb)).sort();
}
