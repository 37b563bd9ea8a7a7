import { describe, expect, it } from 'vitest';
import { parseSeeds, seedsCommandLine } from '../../cli/commands/bench.js';
import { renderReport } from '../report/render-report.js';
import { bindingsLine, renderSeedsReport } from '../report/render-seeds.js';
import type { ApproachResult, BenchResults } from './results.js';
import { pairedOrderings, summarizeSeeds } from './seeds.js';
import { workflowRef } from './results.js';

/** How a two-seed summary was run (the tests that only read its figures share it). */
const TWO_SEEDS = {
  command: 'npx flowscout bench --seeds 0,1',
  startedAt: '2026-12-01T00:00:00.000Z',
  durationMs: 1,
  seedFolders: ['seed-0', 'seed-1'],
};

const approach = (id: string, tc: number | null, es: number): ApproachResult => ({
  id,
  label: `${id} (offline)`,
  tc,
  es,
  cv: 0,
  runs: 1,
  records: [],
  cost: { runtimeMs: 0, llmCalls: 0, llmSteps: 0, toolCalls: 0 },
  failedRuns: 0,
  calls: { reference: 0, made: 0, matched: 0, failed: 0 },
});

/** A seed's results with TC per domain and approach (ES = TC / 2; LLM-only has no TC). */
function run(seed: number, tc: Record<string, Record<string, number>>): BenchResults {
  return {
    version: 1,
    command: `npx flowscout bench --seed ${seed}`,
    code: { version: '0.1.0', commit: 'abc' },
    startedAt: '2026-12-01T00:00:00.000Z',
    durationMs: 1000,
    settings: {
      domains: Object.keys(tc),
      seed,
      iterations: 1,
      patience: 1,
      runs: 1,
      maxTest: 5,
      split: [5, 2, 3],
      splitBy: 'record',
      ablationDomain: 'Travel',
      models: [],
      concurrency: 1,
    },
    labels: {
      policy: 'offline policy (no LLM)',
      policyKind: 'offline',
      model: 'offline',
      judge: 'offline lexical judge',
      judgeKind: 'offline',
      optimizer: 'rule-based optimizer (offline)',
      offline: true,
    },
    unavailableDomains: [],
    domains: Object.entries(tc).map(([domain, by]) => ({
      domain,
      records: 10,
      split: { opt: 5, val: 2, test: 3, measured: 3 },
      tools: 3,
      processTree: "'a'",
      searches: [],
      approaches: [...Object.entries(by).map(([id, x]) => approach(id, x, x / 2)), approach('llm-only', null, 0.2)],
      bestWorkflow: null,
    })),
    significance: [],
    ablation: null,
    backbone: { rows: [], note: '' },
    toolSwap: { pairs: [], run: false, note: '' },
    notes: [],
  };
}

describe('bench over several seeds', () => {
  const runs = [
    run(0, {
      Travel: { flowscout: 0.5, react: 0.4, nominer: 0.6 },
      Weather: { flowscout: 0.3, react: 0.2, nominer: 0.2 },
    }),
    run(1, {
      Travel: { flowscout: 0.4, react: 0.45, nominer: 0.5 },
      Weather: { flowscout: 0.35, react: 0.25, nominer: 0.3 },
    }),
  ];
  const s = summarizeSeeds(runs, {
    command: 'npx flowscout bench --seeds 0,1',
    startedAt: '2026-12-01T00:00:00.000Z',
    durationMs: 2000,
    seedFolders: ['seed-0', 'seed-1'],
  });

  it('gives each approach its mean and sample SD over the seeds, per domain and on the average over domains', () => {
    const travel = s.stats.find((x) => x.id === 'flowscout' && x.domain === 'Travel')!;
    expect(travel.tc).toEqual([0.5, 0.4]);
    expect(travel.tcMean).toBeCloseTo(0.45, 10);
    expect(travel.tcSd).toBeCloseTo(Math.sqrt(0.005), 10);
    const avg = s.stats.find((x) => x.id === 'flowscout' && x.domain === 'average')!;
    expect(avg.tc[0]).toBeCloseTo(0.4, 10);
    expect(avg.tc[1]).toBeCloseTo(0.375, 10);
    const llm = s.stats.find((x) => x.id === 'llm-only' && x.domain === 'Travel')!;
    expect(llm.tcMean).toBeNull();
    expect(llm.esMean).toBeCloseTo(0.2, 10);
  });

  it("checks the paper's orderings on the means and counts the seeds FlowScout is ahead on", () => {
    const vsReactTravel = s.orderings.find((o) => o.other === 'react' && o.domain === 'Travel')!;
    expect(vsReactTravel.diff).toBeCloseTo(0.025, 10);
    expect(vsReactTravel).toMatchObject({ holds: true, seedsAhead: 1 });
    const vsNominerTravel = s.orderings.find((o) => o.other === 'nominer' && o.domain === 'Travel')!;
    expect(vsNominerTravel).toMatchObject({ holds: false, seedsAhead: 0 });
    expect(s.orderings.some((o) => o.other === 'llm-only')).toBe(false);
  });

  it('a difference the report prints as ±0.000 is no difference: the ordering does not "hold" on it', () => {
    const close = summarizeSeeds(
      [run(0, { Travel: { flowscout: 0.5002, react: 0.5 } }), run(1, { Travel: { flowscout: 0.4002, react: 0.4 } })],
      { command: 'npx flowscout bench --seeds 0,1', startedAt: '', durationMs: 1, seedFolders: [] },
    );
    const vsReact = close.orderings.find((o) => o.other === 'react' && o.domain === 'Travel')!;
    expect(vsReact.seedsAhead).toBe(2);
    expect(vsReact.holds).toBe(false);
    const row = renderSeedsReport(close)
      .split('\n')
      .find((l) => l.includes('FlowScout > ReAct') && l.includes('| Travel |'))!;
    expect(row).toContain('| +0.000 |');
    expect(row).not.toMatch(/\| holds \|/);
    expect(row).toContain('**no difference**');
    // A summary written before the rule carries holds: true; the table goes by the difference itself.
    const old = { ...close, orderings: close.orderings.map((o) => ({ ...o, holds: true })) };
    expect(renderSeedsReport(old)).not.toMatch(/FlowScout > ReAct\) \| Travel \|.*\| holds \|/);
  });

  it('writes a report with the command, the mean ± SD tables, the orderings and a link to each seed', () => {
    const md = renderSeedsReport(s);
    expect(md).toContain('```sh\nnpx flowscout bench --seeds 0,1\n```');
    expect(md).toContain('| flowscout (offline) | 0.450 ± 0.071 | 0.325 ± 0.035 | 0.388 ± 0.018 |');
    expect(md).toMatch(
      /\| RQ3: mining gives a better start \(FlowScout > NoMiner\) \| Travel \| 0\.450 \| 0\.550 \| −0\.100 \| 0 of 2 \| \*\*does not hold\*\* \|/,
    );
    expect(md).toContain('[seed-1](seed-1/report.md)');
    expect(md).toContain('OFFLINE figure');
  });

  it('pairs FlowScout with each approach query by query over every seed: ahead only when the interval lies above 0', () => {
    // Per seed and domain, four test queries; FlowScout beats ReAct on each, and equals G0 but on one.
    const withRecords = (seed: number) => {
      const r = run(seed, {
        Travel: { flowscout: 0, react: 0, nomcts: 0 },
        Weather: { flowscout: 0, react: 0, nomcts: 0 },
      });
      for (const d of r.domains)
        for (const a of d.approaches) {
          if (a.id === 'llm-only') continue;
          a.records = [0, 1, 2, 3].map((q) => {
            const base = 0.25 + 0.1 * q;
            const tc = a.id === 'react' ? base - 0.2 : a.id === 'nomcts' && q === 0 && seed === 0 ? base - 0.5 : base;
            return { id: `${d.domain}-${seed}-${q}`, tc, es: 0, esRuns: [0], cv: 0, k: 1, made: 1 };
          });
        }
      return r;
    };
    const paired = pairedOrderings([withRecords(0), withRecords(1)]);
    const vsReact = paired.find((p) => p.other === 'react' && p.domain === 'all')!;
    expect(vsReact).toMatchObject({ n: 16, differing: 16, verdict: 'ahead' });
    expect(vsReact.meanDiff).toBeCloseTo(0.2, 10);
    expect(vsReact.ci!.low).toBeGreaterThan(0);
    const vsG0Travel = paired.find((p) => p.other === 'nomcts' && p.domain === 'Travel')!;
    expect(vsG0Travel).toMatchObject({ n: 8, differing: 1, verdict: 'not shown' });
    expect(vsG0Travel.meanDiff).toBeCloseTo(0.5 / 8, 10);
    // Approaches without per-query figures are not paired.
    expect(paired.some((p) => p.other === 'nominer')).toBe(false);
    const md = renderSeedsReport(
      summarizeSeeds([withRecords(0), withRecords(1)], {
        command: 'npx flowscout bench --seeds 0,1',
        startedAt: '2026-12-01T00:00:00.000Z',
        durationMs: 2000,
        seedFolders: ['seed-0', 'seed-1'],
      }),
    );
    expect(md).toMatch(
      /\| RQ3: the search improves on G0 \(FlowScout > NoMCTS\) \| Travel \| 8 \| 1 \| \+0\.063 \| .* \| \*\*no difference shown\*\* \|/,
    );
    expect(md).toMatch(
      /\| RQ1: the workflow calls tools more correctly than a free agent \(FlowScout > ReAct\) \| all \| 16 \| 16 \| \+0\.200 \| .* \| FlowScout ahead \|/,
    );
  });

  it('reads --seeds as distinct whole numbers and spells them in the regenerating command', () => {
    expect(parseSeeds('0, 1,2')).toEqual([0, 1, 2]);
    expect(() => parseSeeds('0,0')).toThrow(/repeats a seed/);
    expect(() => parseSeeds('a')).toThrow(/--seeds/);
    expect(() => parseSeeds(' , ')).toThrow(/names no seed/);
    const o = {
      domains: ['Travel'],
      models: [],
      seed: 0,
      iterations: 3,
      patience: 2,
      runs: 1,
      maxTest: 5,
      ablationDomain: 'Travel,Weather',
      concurrency: 2,
    };
    expect(seedsCommandLine([0, 1, 2], o, {}, 'out')).toBe(
      'npx flowscout bench --domains Travel --seeds 0,1,2 --iterations 3 --patience 2 --runs 1 --max-test 5 --ablation-domain Travel,Weather --concurrency 2 --out out',
    );
  });
});

describe("a seed's report", () => {
  it('labels the split as the domains were split: by group above a domain split by group, never "by record"', () => {
    const r = run(0, { Travel: { flowscout: 0.5, react: 0.4 } });
    r.settings.splitBy = 'auto';
    r.domains[0]!.source = '10 records from my/records.jsonl';
    r.domains[0]!.split = { ...r.domains[0]!.split, by: 'group', note: 'by group (10 groups of 10 records)' };
    const md = renderReport(r);
    expect(md).toContain('split 5:2:3 by group (seeded)');
    expect(md).toContain('split by group (10 groups of 10 records)');
    expect(md).not.toContain('by record');
    r.domains[0]!.split = { ...r.domains[0]!.split, by: 'record', note: 'by record' };
    expect(renderReport(r)).toContain('split 5:2:3 by record (seeded)');
  });

  it('names every edit from G0 to the best candidate of a search, not only the last one', () => {
    const r = run(0, { Travel: { flowscout: 0.5, react: 0.4 } });
    r.domains[0]!.searches = [
      {
        variant: 'flowscout',
        searchMs: 1000,
        candidates: 3,
        stopReason: 'reached 2 iterations',
        best: 'c2',
        bestSummary: 'calls one on step_2',
        bestPath: [
          { id: 'c1', summary: 'hints: 14 edits on 5 nodes' },
          { id: 'c2', summary: 'calls one on step_2' },
        ],
        iterations: [],
        g0Val: 0.2,
        bestVal: 0.3,
      },
    ];
    expect(renderReport(r)).toContain('| c2: G0 → c1 (hints: 14 edits on 5 nodes) → c2 (calls one on step_2) |');
  });
});

describe('where calls go wrong, by argument source', () => {
  it('pools the reference arguments by source over the seeds and prints the shares called and right', () => {
    const sources = (right: number) => ({
      request: { args: 10, called: 8, right },
      upstream: { args: 4, called: 2, right: 1 },
      neither: { args: 0, called: 0, right: 0 },
    });
    const seeded = [0, 1].map((seed) => {
      const r = run(seed, { Travel: { flowscout: 0.5, react: 0.2 } });
      r.domains[0]!.approaches[0]!.argumentSources = sources(seed === 0 ? 4 : 6);
      r.domains[0]!.approaches[1]!.argumentSources = sources(1);
      return r;
    });
    const s = summarizeSeeds(seeded, {
      command: 'npx flowscout bench --seeds 0,1',
      startedAt: '2026-12-01T00:00:00.000Z',
      durationMs: 1,
      seedFolders: ['seed-0', 'seed-1'],
    });
    expect(s.stats.find((x) => x.id === 'flowscout' && x.domain === 'Travel')!.argumentSources).toEqual({
      request: { args: 20, called: 16, right: 10 },
      upstream: { args: 8, called: 4, right: 2 },
      neither: { args: 0, called: 0, right: 0 },
    });
    const md = renderSeedsReport(s);
    expect(md).toContain('## Where calls go wrong: reference arguments by source');
    expect(md).toMatch(
      /\| flowscout \(offline\) \| Travel \| 20 \| 80 % \| 50 % \| 8 \| 50 % \| 25 % \| 0 \| — \| — \|/,
    );
    // One seed's report has the same table.
    expect(renderReport(seeded[0]!)).toMatch(/\| flowscout \(offline\) \| Travel \| 10 \| 80 % \| 40 % \|/);
  });

  it("counts the bindings of FlowScout's best workflows, and those that read an earlier call's output", () => {
    const ref = (total: number, upstream: number) => ({
      hash: 'h',
      name: 'best',
      nodes: 3,
      edges: 2,
      toolPositions: 2,
      manyPositions: 0,
      bindings: { total, upstream },
    });
    const seeded = [0, 1].map((seed) => {
      const r = run(seed, { Travel: { flowscout: 0.5 }, Weather: { flowscout: 0.4 } });
      r.domains[0]!.bestWorkflow = ref(seed === 0 ? 3 : 2, seed === 0 ? 2 : 1);
      r.domains[1]!.bestWorkflow = ref(0, 0);
      return r;
    });
    const s = summarizeSeeds(seeded, {
      command: 'npx flowscout bench --seeds 0,1',
      startedAt: '2026-12-01T00:00:00.000Z',
      durationMs: 1,
      seedFolders: ['seed-0', 'seed-1'],
    });
    expect(s.bestBindings).toEqual([
      { domain: 'Travel', total: 5, upstream: 3, seeds: 2 },
      { domain: 'Weather', total: 0, upstream: 0, seeds: 2 },
    ]);
    expect(renderSeedsReport(s)).toContain(
      "FlowScout's best workflows (one per domain and seed) hold 5 bindings (3 reading an earlier call's output): Travel 5 (3), Weather 0 (0).",
    );
    expect(renderReport(seeded[1]!)).toContain('hold 2 bindings (1 reading');
    expect(bindingsLine([{ domain: 'Mapping', total: 1, upstream: 1, seeds: 3 }])[0]).toBe(
      "FlowScout's best workflows (one per domain and seed) hold 1 binding (1 reading an earlier call's output): Mapping 1 (1).",
    );
  });

  it("says how much of each seed's test calls are of tools D_opt calls, and says nothing for results that did not count it", () => {
    const seeded = [0, 1].map((seed) => {
      const r = run(seed, { Mapping: { flowscout: 0.2 } });
      r.domains[0]!.split.coverage = seed === 0 ? { calls: 100, seen: 60 } : { calls: 60, seen: 55 };
      return r;
    });
    const s = summarizeSeeds(seeded, TWO_SEEDS);
    expect(s.testCoverage).toEqual([
      {
        domain: 'Mapping',
        seeds: [
          { calls: 100, seen: 60 },
          { calls: 60, seen: 55 },
        ],
      },
    ]);
    expect(renderSeedsReport(s)).toContain(
      'Reference calls of the test queries whose tool some D_opt record calls (what is learned per tool can serve only these; per seed): Mapping 60 % / 92 %.',
    );
    expect(renderReport(seeded[0]!)).toContain(
      '(what is learned per tool can serve only these; this seed): Mapping 60 %.',
    );
    const older = [0, 1].map((seed) => run(seed, { Mapping: { flowscout: 0.2 } }));
    expect(renderSeedsReport(summarizeSeeds(older, TWO_SEEDS))).not.toContain('whose tool some D_opt record calls');
  });

  it('names the parameters FlowScout lost the most arguments of, summed over seeds, and nothing for results that did not count them', () => {
    const row = (tool: string, param: string, source: 'request' | 'upstream', args: number, right: number) => ({
      tool,
      param,
      source,
      args,
      called: args,
      right,
    });
    const seeded = [0, 1].map((seed) => {
      const r = run(seed, { Travel: { flowscout: 0.4, react: 0.1 } });
      // Seed 0 loses more of the city, seed 1 more of the hotel id: summed, the id lost most (7 against 5).
      r.domains[0]!.approaches.find((a) => a.id === 'flowscout')!.parameterSources =
        seed === 0
          ? [
              row('search', 'city', 'request', 6, 2),
              row('details', 'hotel_id', 'upstream', 4, 2),
              row('search', 'units', 'request', 3, 3),
            ]
          : [row('details', 'hotel_id', 'upstream', 6, 1), row('search', 'city', 'request', 2, 1)];
      // Another approach's counts are not FlowScout's.
      r.domains[0]!.approaches.find((a) => a.id === 'react')!.parameterSources = [row('other', 'q', 'request', 50, 0)];
      return r;
    });
    const s = summarizeSeeds(seeded, TWO_SEEDS);
    expect(s.lostParameters).toEqual([
      {
        domain: 'Travel',
        rows: [
          row('details', 'hotel_id', 'upstream', 10, 3),
          row('search', 'city', 'request', 8, 3),
          row('search', 'units', 'request', 3, 3),
        ],
      },
    ]);
    expect(renderSeedsReport(s)).toContain(
      'FlowScout lost the most (passed wrong or their call not made; summed over seeds): Travel: details.hotel_id (from an earlier result: 3 of 10 right, 10 called); search.city (from the request: 3 of 8 right, 8 called).',
    );
    expect(renderReport(seeded[0]!)).toContain(
      '(passed wrong or their call not made; this seed): Travel: search.city (from the request: 2 of 6 right, 6 called); details.hotel_id',
    );
    const older = [0, 1].map((seed) => run(seed, { Travel: { flowscout: 0.4 } }));
    expect(renderSeedsReport(summarizeSeeds(older, TWO_SEEDS))).not.toContain('lost the most');
  });

  it("reads a workflow's bindings from its steps: those with an output source read an earlier call", () => {
    const ref = workflowRef({
      version: 1,
      name: 'w',
      nodes: [
        {
          id: 'find',
          kind: 'tool',
          task: 'find the place',
          bind: [{ tool: 'find_place', param: 'units', source: { from: 'const', value: 'metric' } }],
        },
        {
          id: 'look',
          kind: 'tool',
          task: 'look it up',
          bind: [
            {
              tool: 'details',
              param: 'id',
              source: { from: 'output', node: 'find', path: '$.items[*].id', pick: 'first' },
            },
            { tool: 'details', param: 'lang', source: { from: 'output', tool: 'find_place', path: '$.lang' } },
          ],
        },
      ],
      edges: [{ from: 'find', to: 'look' }],
    } as Parameters<typeof workflowRef>[0]);
    expect(ref.bindings).toEqual({ total: 3, upstream: 2 });
  });
});
