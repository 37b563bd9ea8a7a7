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
  withheldCalls: withheld,
});
const learning = [
  ...Array.from({ length: 6 }, () => run(['search_web', 'fetch_page'])),
  ...Array.from({ length: 3 }, () => run(['search_news', 'fetch_page'])),
  run(['search_web', 'fetch_page', 'fetch_page']),
];

describe('detectDrift', () => {
  const profile = conformanceProfile(workflow, learning);

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

  it('says drift for runs of another kind, naming each measure and its threshold, and to search again', () => {
    const other = Array.from({ length: 8 }, () => run(['get_quote', 'get_news', 'fetch_page']));
    const r = detectDrift(workflow, profile, other, { runsKind: 'records', runsLabel: 'new.jsonl' });
    expect(r.drift).toBe(true);
    expect(r.reasons).toHaveLength(2);
    expect(r.reasons[0]).toMatch(
      /^averageFitness 0\.400 is 0\.580 below the baseline's 0\.980 \(maxFitnessDrop 0\.15\)$/,
    );
    expect(r.reasons[1]).toMatch(/100\.0 % of runs made a tool sequence never seen; 10\.0 % were expected/);
    expect(r.next).toContain('flowscout search --records new.jsonl --tools <tool config>');
  });

  it('says drift when calls fail far more often, and to check the tools', () => {
    const failing = Array.from({ length: 6 }, () => run(['search_web', 'fetch_page'], 1));
    const r = detectDrift(workflow, profile, failing);
    expect(r.drift).toBe(true);
    expect(r.reasons).toEqual(['50.0 % of calls failed, 0.0 % in the baseline (maxFailedCallRise 0.15)']);
    expect(r.next).toMatch(/check the tools/);
  });

  it('compares runs the workflow made with its own runs when the profile has them', () => {
    const own = Array.from({ length: 6 }, () => run(['search_web', 'fetch_page', 'fetch_page'], 1));
    const both = conformanceProfile(workflow, learning, own);
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
    const w = withConformanceProfile(workflow, learning);
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
