import { canonicalCallKey } from '../../contracts/canonical-args.js';
import type { TaskRecord } from '../../records/schema.js';
import { createToolIndex } from '../../retrieval/tool-index.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { ToolPair } from './results.js';

/**
 * Can the paper's tool-set swap (Table IV: replace tools by functionally similar ones and run the
 * same workflow) be measured on this data? Tools here answer by replay, so a substitute tool can only
 * answer a call somebody recorded for it. This checks the data instead of assuming: for every tool
 * the test references call, its most similar other tool of the domain (BM25 over names,
 * descriptions and parameters, the similarity being the substitute's score relative to the tool's
 * own score for its own text), and how many of the test calls would be *replayable* after the swap:
 * the substitute has a recorded successful call with the same values for the parameters it takes.
 */

export interface SwapCheckOptions {
  /** Pairs below this similarity are not functionally similar (default 0.35). */
  minSimilarity?: number;
}

function describe(t: ToolDescriptor): string {
  const props = Object.keys(((t.inputSchema as { properties?: object }).properties ?? {}) as object);
  return `${t.name} ${t.description} ${props.join(' ')}`;
}

export function toolSwapPairs(
  domain: string,
  all: readonly TaskRecord[],
  test: readonly TaskRecord[],
  tools: readonly ToolDescriptor[],
  opts: SwapCheckOptions = {},
): ToolPair[] {
  const min = opts.minSimilarity ?? 0.35;
  const byName = new Map(tools.map((t) => [t.name, t]));
  const index = createToolIndex(tools);
  const names = tools.map((t) => t.name);
  const recorded = new Set<string>();
  for (const r of all)
    for (const c of r.calls)
      if (c.status !== 'error' && byName.has(c.tool))
        recorded.add(canonicalCallKey(c.tool, c.args, byName.get(c.tool)!.inputSchema));
  const testCalls = new Map<string, Array<Record<string, unknown>>>();
  for (const r of test)
    for (const c of r.calls) if (byName.has(c.tool)) testCalls.set(c.tool, [...(testCalls.get(c.tool) ?? []), c.args]);

  const pairs: ToolPair[] = [];
  for (const [original, calls] of testCalls) {
    const tool = byName.get(original)!;
    const ranked = index.rank(describe(tool), names);
    const self = ranked.find((r) => r.name === original)?.score ?? 0;
    const best = ranked.find((r) => r.name !== original);
    if (!best || self <= 0) continue;
    const similarity = best.score / self;
    if (similarity < min) continue;
    const sub = byName.get(best.name)!;
    const params = new Set(Object.keys(((sub.inputSchema as { properties?: object }).properties ?? {}) as object));
    const replayable = calls.filter((args) => {
      const mapped = Object.fromEntries(Object.entries(args).filter(([k]) => params.has(k)));
      return Object.keys(mapped).length > 0 && recorded.has(canonicalCallKey(sub.name, mapped, sub.inputSchema));
    }).length;
    pairs.push({ domain, original, substitute: sub.name, similarity, testCalls: calls.length, replayable });
  }
  return pairs.sort(
    (a, b) => b.testCalls - a.testCalls || b.similarity - a.similarity || a.original.localeCompare(b.original),
  );
}

/** The statement the report prints about Table IV, from the numbers. */
export function toolSwapNote(pairs: readonly ToolPair[]): { run: boolean; note: string } {
  const calls = pairs.reduce((s, p) => s + p.testCalls, 0);
  const replayable = pairs.reduce((s, p) => s + p.replayable, 0);
  const share = calls > 0 ? replayable / calls : 0;
  if (pairs.length === 0)
    return {
      run: false,
      note: 'No tool the test references call has a similar tool in its domain (description similarity ≥ 0.35), so there is nothing to swap.',
    };
  const head = `${pairs.length} tools the test references call have a similar tool in their domain (description similarity ≥ 0.35); of their ${calls} test calls, ${replayable} (${(100 * share).toFixed(1)}%) could be answered after the swap, because the tools run by replay of recorded responses and a substitute answers only calls somebody recorded for it.`;
  return {
    run: false,
    note: `${head} A swapped run would measure replay misses, not the workflow's robustness to a new tool set, so Table IV is not reported on this data. Measuring it needs live tools (MCP servers or function tools in a tool config) or a model simulating the substitute's responses, whose results would be simulated, not real.`,
  };
}
