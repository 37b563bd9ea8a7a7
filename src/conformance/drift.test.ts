import { describe, expect, it } from 'vitest';
import type { Edge, Workflow, WorkflowNode } from '../graph/schema.js';
import { DRIFT_THRESHOLDS, detectDrift } from './drift.js';
import type { ObservedRun } from './observed-runs.js';
import { conformanceProfile, readConformanceProfile, withConformanceProfile } from './profile.js';

const node = (id: string, tools?: string[]): WorkflowNode =>
  tools
    ? ({ id, kind: 'tool', task: id, tools } as WorkflowNode)
    : { id, kind: 'llm', role: id === 'plan' ? 'plan' : 'synthesize', prompt: '{{query}}', output: { type: 'text' } };
const edge = (from: string, to: string): Edge => ({ from, to, kind: 'data' });
const workflow: Workflow = {
  version: 1,
  name: 'lookup',
  nodes: [node('plan'), node('find', ['search_web', 'search_news']), node('read', ['fetch_page']), node('answer')],
  edges: [edge('plan', 'find'), edge('find', 'read'), edge('read', 'answer')],
};

let n = 0;
const run = (tools: string[], failed = 0, withheld = 0): ObservedRun => ({
  id: `r${n++}`,
  tools,
  failedCalls: failed,
  errorAnswers: 0,
  withheldCalls: withheld,
  repeatedCalls: 0,
});
const learning = [
  ...Array.from({ length: 6 }, () => run(['search_web', 'fetch_page'])),
  ...Array.from({ length: 3 }, () => run(['search_news', 'fetch_page'])),
  run(['search_web', 'fetch_page', 'fetch_page']),
];

describe('detectDrift', () => {
  const profile = conformanceProfile(workflow, { learning });

  it('says no drift for runs like the learning runs, and nothing to do', () => {
    const r = detectDrift(workflow, profile, [
      ...Array.from({ length: 5 }, () => run(['search_web', 'fetch_page'])),
      run(['search_news', 'fetch_page']),
    ]);
    expect(r.drift).toBe(false);
    expect(r.reasons).toEqual([]);
    expect(r.comparedWith).toBe('learning');
    expect(r.measures.averageFitness).toBe(1);
    expect(r.measures.unseenVariants).toBe(0);
    expect(r.next).toMatch(/^Nothing to do/);
  });

  it('says the process changed for runs of another kind, naming each measure and its threshold, and to search again on them', () => {
    const other = Array.from({ length: 8 }, () => run(['get_quote', 'get_news', 'fetch_page']));
    const r = detectDrift(workflow, profile, other, { runsKind: 'records', runsLabel: 'new.jsonl' });
    expect(r).toMatchObject({ drift: true, processChanged: true, runsFailMore: false });
    expect(r.reasons).toHaveLength(2);
    expect(r.reasons[0]).toMatch(
      /^averageFitness 0\.400 is 0\.580 below the baseline's 0\.980 \(maxFitnessDrop 0\.15\)$/,
    );
    expect(r.reasons[1]).toMatch(/100\.0 % of runs made a tool sequence never seen; 10\.0 % were expected/);
    // None of them failed: they can be searched on as they are.
    expect(r.next).toContain(
      'Learn again from them (none of them failed): flowscout search --records new.jsonl --tools <tool config>',
    );
  });

  it('never proposes learning from runs that failed: those with an outcome are selected on it, the others by having no failed call', () => {
    const outcome = (success: boolean) => ({ success, field: 'reward', value: success ? 1 : 0 });
    const other = Array.from({ length: 8 }, (_, i) => ({
      ...run(['get_quote', 'get_news', 'fetch_page']),
      outcome: outcome(i < 5),
    }));
    const logs = detectDrift(workflow, profile, other, { runsKind: 'agent-logs', runsLabel: 'runs.json' });
    expect(logs.processChanged).toBe(true);
    expect(logs.next).toContain(
      'only from the 5 of 8 runs that succeeded, selected by their outcome (--where reward=1): flowscout import auto runs.json --where reward=1 --out new',
    );
    const records = detectDrift(workflow, profile, other, { runsKind: 'records', runsLabel: 'new.jsonl' });
    expect(records.next).not.toContain('--records new.jsonl');
    expect(records.next).toContain(
      "flowscout import auto <your agent's logs of these runs> --where reward=1 --out new",
    );
    const failing = Array.from({ length: 6 }, (_, i) => run(['get_quote', 'fetch_page'], i % 2));
    const f = detectDrift(workflow, profile, failing, { runsKind: 'records', runsLabel: 'new.jsonl' });
    expect(f.next).toContain('only from the 3 of 6 runs that succeeded, selected by having no failed call');
    expect(f.next).not.toContain('--records new.jsonl');
  });

  it('says runs fail more when calls fail far more often, and to check the tools, not to learn again', () => {
    const failing = Array.from({ length: 6 }, () => run(['search_web', 'fetch_page'], 1));
    const r = detectDrift(workflow, profile, failing);
    expect(r).toMatchObject({ drift: true, processChanged: false, runsFailMore: true });
    expect(r.reasons).toEqual([
      "the health of the runs' calls 0.500 is 0.500 below the baseline's 1.000 (maxHealthDrop 0.15)",
      '50.0 % of calls failed, 0.0 % in the baseline (maxFailedCallRise 0.15)',
    ]);
    expect(r.next).toMatch(/check the tools/);
    expect(r.next).toMatch(/Learning again would not help/);
    expect(r.next).not.toMatch(/flowscout search/);
  });

  it('says runs fail more when more of them fail by their own outcome', () => {
    const outcome = (success: boolean) => ({ success, field: 'status', value: success ? 'success' : 'failed' });
    const base = conformanceProfile(workflow, {
      learning: learning.map((r) => ({ ...r, outcome: outcome(true) })),
    });
    expect(base.learning.failedRuns).toBe(0);
    const runs = Array.from({ length: 6 }, (_, i) => ({
      ...run(['search_web', 'fetch_page']),
      outcome: outcome(i < 3),
    }));
    const r = detectDrift(workflow, base, runs);
    expect(r).toMatchObject({ processChanged: false, runsFailMore: true });
    expect(r.reasons).toEqual([
      "50.0 % of runs failed by their own outcome, 0.0 % of the baseline's (maxFailedRunsRise 0.15)",
    ]);
    expect(r.measures.failedRuns).toBe(0.5);
  });

  it('compares new records with runs it was not learned from when the profile has them', () => {
    const heldOutRuns = [
      ...Array.from({ length: 3 }, () => run(['search_web', 'fetch_page'])),
      run(['search_web', 'search_news', 'fetch_page']),
      run(['fetch_page']),
    ];
    const withHeldOut = conformanceProfile(workflow, {
      learning,
      heldOut: [{ workflow, learned: learning, heldOut: heldOutRuns }],
    });
    // Measured on runs the workflow never saw: two of five make a sequence the learning runs did not.
    expect(withHeldOut.heldOut).toMatchObject({ runs: 5, unseenVariantRate: 0.4 });
    expect(withHeldOut.heldOut!.averageFitness).toBeLessThan(withHeldOut.learning.averageFitness);
    const like = [...heldOutRuns, run(['search_web', 'fetch_page'])];
    const r = detectDrift(workflow, withHeldOut, like);
    expect(r.comparedWith).toBe('heldOut');
    expect(r.drift, r.reasons.join('; ')).toBe(false);
    // Against the learning runs the same runs read as a changed process.
    expect(
      detectDrift(workflow, conformanceProfile(workflow, { learning }), like, {
        thresholds: { maxUnseenVariantsRise: 0.2 },
      }).drift,
    ).toBe(true);
    expect(detectDrift(workflow, withHeldOut, like, { thresholds: { maxUnseenVariantsRise: 0.2 } }).drift).toBe(false);
  });

  it('compares runs the workflow made with its own runs when the profile has them', () => {
    const own = Array.from({ length: 6 }, () => run(['search_web', 'fetch_page', 'fetch_page'], 1));
    const both = conformanceProfile(workflow, { learning, workflowRuns: own });
    const served = Array.from({ length: 6 }, () => run(['search_web', 'fetch_page', 'fetch_page'], 1));
    expect(detectDrift(workflow, both, served, { madeByWorkflow: true })).toMatchObject({
      drift: false,
      comparedWith: 'workflowRuns',
    });
    // Against the learning runs, the same runs fail too often and make a sequence they rarely made.
    expect(detectDrift(workflow, both, served).drift).toBe(true);
  });

  it('falls back to fixed thresholds without a profile, and will not judge too few runs', () => {
    const r = detectDrift(
      workflow,
      undefined,
      Array.from({ length: 5 }, () => run(['other_tool'])),
    );
    expect(r.drift).toBe(true);
    expect(r.comparedWith).toBeNull();
    expect(r.reasons).toEqual([
      `averageFitness 0.000 is below ${DRIFT_THRESHOLDS.minFitness} (minFitness; the workflow has no profile)`,
    ]);
    const few = detectDrift(workflow, profile, [run(['other_tool'])]);
    expect(few.drift).toBe(false);
    expect(few.reasons[0]).toMatch(/only 1 run: at least 5 \(minRuns\)/);
    expect(detectDrift(workflow, profile, [run(['other_tool'])], { thresholds: { minRuns: 1 } }).drift).toBe(true);
  });
});

describe('the conformance profile', () => {
  it('holds figures and hashes only: no tool name, request or argument', () => {
    const w = withConformanceProfile(workflow, { learning });
    const text = JSON.stringify(w.meta!.conformance);
    for (const name of ['search_web', 'search_news', 'fetch_page']) expect(text).not.toContain(name);
    expect(readConformanceProfile(w)).toEqual({
      version: 1,
      learning: {
        runs: 10,
        averageFitness: 0.98,
        percFitTraces: 90,
        outsideRoutes: null,
        unseenVariantRate: 0.1,
        failedCallRate: 0,
        withheldCallRate: 0,
        averageHealth: 0.95,
        averageCallHealth: 1,
        failedRuns: null,
        variants: expect.arrayContaining([expect.stringMatching(/^[0-9a-f]{16}$/)]),
      },
    });
  });

  it('names the JSON path of a malformed profile and how to recover', () => {
    const w: Workflow = { ...workflow, meta: { conformance: { version: 1, learning: { runs: -1 } } } };
    expect(() => readConformanceProfile(w, 'flow.json')).toThrow(/flow\.json: \$\.meta\.conformance\.learning\.runs: /);
    try {
      readConformanceProfile(w, 'flow.json');
    } catch (e) {
      expect((e as { hint?: string }).hint).toMatch(/delete it and drift falls back to fixed thresholds/);
    }
  });
});
