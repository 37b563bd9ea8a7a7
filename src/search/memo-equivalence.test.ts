import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { createLexicalJudge } from '../metrics/lexical-judge.js';
import { createOfflinePolicy } from '../policies/offline/offline-policy.js';
import { bundledTrajectPaths } from '../records/bundled.js';
import { importTraject } from '../records/import/traject.js';
import { splitRecords } from '../records/split.js';
import { createToolRegistry } from '../tools/registry.js';
import { createReplayTools } from '../tools/replay-tools.js';
import { evaluateWorkflow } from '../evaluate/evaluate.js';
import { createSearchMemo } from './memo.js';
import { createRuleBasedOptimizer } from './optimizers/rule-based.js';
import { runSearch } from './run-search.js';
import { DEFAULT_SETTINGS } from './search-context.js';
import { minedG0 } from './variants.js';

/**
 * Memo on and off give the same search on real data (docs/DESIGN.md, "Search": memoization must not change a search), including candidates
 * that change the tool layout — which the offline policy reads (its `memoScope`): appended
 * positions, a last position that starts or stops repeating. Without the scope in the memo key,
 * those candidates would reuse decisions made for another layout.
 */
function travel(n: number, seed: number) {
  const paths = bundledTrajectPaths('Travel');
  const imported = importTraject(paths.trajQuery, paths.tools);
  const split = splitRecords(imported.records.slice(0, n), { ratio: [5, 2, 3], seed, by: 'record' });
  const tools = createToolRegistry(createReplayTools(imported.records, imported.tools));
  return { imported, split, tools, policy: createOfflinePolicy({ tools: imported.tools }) };
}

/** plan → each of the positions (in parallel) → synthesize. */
function parallel(ids: string[]): Workflow {
  return {
    version: 1,
    name: 'parallel positions',
    nodes: [
      { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan {{query}}', output: { type: 'text' } },
      ...ids.map((id) => ({ id, kind: 'tool' as const, task: 'Look up what this part of the request asks for.' })),
      {
        id: 'synthesize',
        kind: 'llm',
        role: 'synthesize',
        prompt: 'Answer {{query}} from {{inputs}}',
        output: { type: 'text' },
      },
    ],
    edges: ids.flatMap((id) => [
      { from: 'plan', to: id, kind: 'data' as const },
      { from: id, to: 'synthesize', kind: 'data' as const },
    ]),
  };
}

describe('memoized search on real TRAJECT-Bench data', () => {
  it('re-runs a position whose place among the tool positions changed although nothing upstream of it did', async () => {
    const { split, tools, policy } = travel(40, 2);
    const opts = { policy, tools, judge: createLexicalJudge(), feedback: false as const };
    const memo = createSearchMemo();
    await evaluateWorkflow(parallel(['b', 'c']), split.opt, { ...opts, memo });
    // 'a' sorts first: b and c become the second and third positions, with the same upstream (plan).
    const grown = parallel(['a', 'b', 'c']);
    const cached = await evaluateWorkflow(grown, split.opt, { ...opts, memo });
    const fresh = await evaluateWorkflow(grown, split.opt, opts);
    expect(cached.perRecord.map((r) => r.trace.calls)).toEqual(fresh.perRecord.map((r) => r.trace.calls));
    // The plan node reads nothing of the layout and came from the memo.
    expect(cached.totals.cachedNodes).toBeGreaterThanOrEqual(split.opt.length);
    await tools.close();
  });

  it('reaches exactly the candidates and scores of the unmemoized search, and saves node runs', async () => {
    const { imported, split, tools, policy } = travel(30, 2);
    const search = (memo: boolean) =>
      runSearch({
        settings: { ...DEFAULT_SETTINGS, seed: 2, iterations: 10, patience: 10 },
        splits: { opt: split.opt, val: split.val, test: [] },
        g0: minedG0(split.opt, imported.tools),
        startLabel: 'mined from D_opt',
        policy,
        tools,
        judge: createLexicalJudge(),
        optimizer: createRuleBasedOptimizer(),
        memo,
      });
    const on = await search(true);
    const off = await search(false);
    const rows = (r: Awaited<ReturnType<typeof search>>) =>
      r.iterations.map(({ child, parent, status, summary, optReward, valScore }) => ({
        child,
        parent,
        status,
        summary,
        optReward,
        valScore,
      }));
    expect(rows(on)).toEqual(rows(off));
    expect(on.best.id).toBe(off.best.id);
    // The run changed tool positions (the layout the policy reads: a position added or removed, its
    // call count, its tools, or a node's bound arguments), so the memo keys were exercised.
    expect(on.iterations.map((r) => r.summary).join('\n')).toMatch(
      /add_node|remove_node|set_calls|set_tool_hint|calls (one|many) on|^bind /m,
    );
    expect(on.savings!.nodeRunsSaved).toBeGreaterThan(0);
    await tools.close();
  });
});
