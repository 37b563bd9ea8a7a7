import { canonicalArgs, canonicalCallKey, stableStringify, type ParamSchema } from '../contracts/canonical-args.js';
import type { CallKey } from '../records/schema.js';

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
  return {
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
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const dp = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i * width + j] =
        a[i] === b[j] ? dp[(i + 1) * width + j + 1]! + 1 : Math.max(dp[(i + 1) * width + j]!, dp[i * width + j + 1]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (dp[(i + 1) * width + j]! >= dp[i * width + j + 1]!) i++;
    else j++;
  }
  return pairs;
}

function differingKeys(a: CallKey['args'], b: CallKey['args'], schema: ParamSchema | undefined): string[] {
  const ca = canonicalArgs(a, schema);
  const cb = canonicalArgs(b, schema);
  const keys = new Set([...Object.keys(ca), ...Object.keys(cb)]);
  return [...keys].filter((k) => stableStringify(ca[k]) !== stableStringify(cb[k]) || !(k in ca) || !(k in cb)).sort();
}
