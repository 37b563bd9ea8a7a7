import { describe, expect, it } from 'vitest';
import { createLexicalJudge } from '../../src/metrics/lexical-judge.js';
import { createOfflinePolicy } from '../../src/policies/offline/offline-policy.js';
import { bundledTrajectPaths } from '../../src/records/bundled.js';
import { importTraject } from '../../src/records/import/traject.js';
import { splitRecords } from '../../src/records/split.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { createReplayTools } from '../../src/tools/replay-tools.js';
import { createRuleBasedOptimizer } from '../../src/search/optimizers/rule-based.js';
import { runSearch } from '../../src/search/run-search.js';
import { DEFAULT_SETTINGS } from '../../src/search/search-context.js';
import { minedG0 } from '../../src/search/variants.js';

/**
 * Regression guard for the search's main promise: an offline search (offline policy, lexical
 * judge, rule-based optimizer) on a bundled TRAJECT-Bench domain finds a workflow whose D_val score
 * beats G0's, and whose test-set TC and ES beat G0's. A short search (8 iterations) on Travel with
 * the benchmark's split (seed 0, 5:2:3 by record) and tools (replay of every recorded response), so
 * a change to the offline policy, the optimizer or the search that loses the property fails here.
 *
 * Since the plan-to-position hand-off (policies/hand-off.ts) lifted G0 itself (Travel test TC 0.327
 * → 0.533), the short search's best keeps G0's test TC (0.533) and gains its ES through the
 * synthesizer prompt: TC is guarded as "not lower", ES and the D_val score as "higher".
 */
describe('offline search beats G0 on real data', () => {
  it('Travel, 8 iterations: better D_val score, test TC not lower and test ES higher than G0', async () => {
    const paths = bundledTrajectPaths('Travel');
    const imported = importTraject(paths.trajQuery, paths.tools);
    const split = splitRecords(imported.records, { ratio: [5, 2, 3], seed: 0, by: 'record' });
    const tools = createToolRegistry(createReplayTools(imported.records, imported.tools));
    const result = await runSearch({
      settings: { ...DEFAULT_SETTINGS, seed: 0, iterations: 8, patience: 8 },
      splits: split,
      g0: minedG0(split.opt, imported.tools),
      startLabel: 'mined from D_opt',
      policy: createOfflinePolicy({ tools: imported.tools }),
      tools,
      judge: createLexicalJudge(),
      optimizer: createRuleBasedOptimizer(),
    });
    expect(result.best.id).not.toBe(result.root.id);
    expect(result.best.valScore!).toBeGreaterThan(result.root.valScore! + 0.02);
    const test = result.test!;
    expect(test.records).toBe(split.test.length);
    expect(test.best.tc).toBeGreaterThanOrEqual(test.g0.tc);
    expect(test.best.es).toBeGreaterThan(test.g0.es);
  });
});
