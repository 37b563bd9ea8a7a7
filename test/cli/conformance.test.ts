import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';
import { openStore } from '../../src/store/open-store.js';

const ROOT = join(import.meta.dirname, '../..');
const RUNNING_EXAMPLE = join(ROOT, 'test/fixtures/mining/pm4py-logs/input_data/running-example.xes');
const NOISY = join(ROOT, 'test/fixtures/conformance/logs/noisy-running-example.xes');
const RECORDS = join(ROOT, 'test/fixtures/mining/records.jsonl');
const OPENAI = join(ROOT, 'test/fixtures/agent-logs/openai.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'flowscout-conformance-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

interface ConformanceJson {
  traces: number;
  cheapestRun: number;
  percFitTraces: number;
  averageFitness: number;
  variants: {
    activities: string[];
    count: number;
    cost: number;
    fitness: number;
    deviations: { kind: string; activity: string; position: number }[];
  }[];
}

async function json(args: string[]): Promise<ConformanceJson> {
  const r = await cli(['conformance', ...args, '--json']);
  expect(r.status, r.err).toBe(0);
  return JSON.parse(r.out) as ConformanceJson;
}

describe('flowscout conformance', () => {
  it('aligns an XES log with a tree file: variants with cost, fitness and what they skipped or inserted', async () => {
    const mined = await cli(['mine', RUNNING_EXAMPLE]);
    const tree = file('running-example.tree', mined.out);
    const r = await cli(['conformance', NOISY, '--tree', tree, '--limit', '3']);
    expect(r.status, r.err).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe(
      `${NOISY}: 200 runs, 88 variants, aligned with ${tree} (its cheapest complete run: 5 activities)`,
    );
    expect(lines[1]).toBe('percFitTraces 55.50 %   averageFitness 0.9269');
    expect(r.out).toContain('… 85 more variants (--limit 0 prints all)');

    const doc = await json([NOISY, '--tree', tree]);
    expect(doc.traces).toBe(200);
    expect(doc.variants.reduce((n, v) => n + v.count, 0)).toBe(200);
    const skipped = doc.variants.find(
      (v) => v.activities.join(',') === 'register request,check ticket,decide,reject request',
    )!;
    expect(skipped).toMatchObject({
      count: 3,
      cost: 1,
      deviations: [{ kind: 'skipped', activity: 'examine thoroughly', position: 3 }],
    });
    expect(skipped.fitness).toBeCloseTo(1 - 1 / 9, 12);
    const human = (await cli(['conformance', NOISY, '--tree', tree, '--limit', '0'])).out;
    expect(human).toContain("skipped 'examine thoroughly' before event 3");
  });

  it("aligns records with a workflow's own tree, and agent logs, predictions and run traces with a tree", async () => {
    const wf = join(dir, 'g0.json');
    expect(
      (
        await cli([
          'mine',
          RECORDS,
          '--format',
          'workflow',
          '--tools',
          join(ROOT, 'test/fixtures/mining/tools.json'),
          '--out',
          wf,
        ])
      ).status,
    ).toBe(0);
    const against = await json([RECORDS, '--against', wf]);
    expect(against.traces).toBe(4);
    expect(against.variants.every((v) => v.fitness >= 0 && v.fitness <= 1)).toBe(true);

    const tree = file('weather.tree', "->( 'geocode', X( 'get_weather', 'forecast' ) )");
    const logs = await json([OPENAI, '--tree', tree]);
    expect(logs.traces).toBe(3);
    expect(logs.variants.map((v) => v.activities[0])).toContain('geocode');

    const predictions = file(
      'predictions.jsonl',
      [
        {
          id: 'a',
          calls: [
            { tool: 'geocode', args: {} },
            { tool: 'forecast', args: {} },
          ],
          answer: 'x',
        },
        { id: 'b', calls: [{ tool: 'forecast', args: {} }], answer: 'y' },
      ]
        .map((p) => JSON.stringify(p))
        .join('\n'),
    );
    const p = await json([predictions, '--tree', tree]);
    expect(p.variants.map((v) => [v.cost, v.deviations])).toEqual([
      [0, []],
      [1, [{ kind: 'skipped', activity: 'geocode', position: 1 }]],
    ]);
    expect(p.percFitTraces).toBe(50);

    const trace = {
      query: 'q',
      workflow: 'w',
      policy: 'p',
      observations: [],
      calls: [
        { tool: 'geocode', args: {}, status: 'ok' },
        { tool: 'get_weather', args: {}, status: 'error' },
        { tool: 'get_weather', args: {}, status: 'ok' },
      ],
      answer: 'a',
      status: 'ok',
    };
    const traceFile = file('trace.json', JSON.stringify(trace, null, 2));
    const t = await json([traceFile, '--tree', tree]);
    expect(t.variants).toEqual([
      expect.objectContaining({ cost: 1, deviations: [{ kind: 'inserted', activity: 'get_weather', position: 2 }] }),
    ]);
  });

  it("aligns a store's served runs", async () => {
    const db = join(dir, 'served.db');
    const store = openStore(db);
    for (const tools of [['geocode', 'forecast'], ['geocode', 'forecast'], ['forecast']]) {
      store.recordServedRun({
        workflow: 'w',
        workflowHash: 'h1',
        transport: 'http',
        policyLabel: 'offline',
        query: 'q',
        status: 'ok',
        answer: 'a',
        durationMs: 1,
        trace: { observations: [], calls: tools.map((tool) => ({ tool, args: {}, status: 'ok' })) },
      });
    }
    store.close();
    const tree = file('weather2.tree', "->( 'geocode', X( 'get_weather', 'forecast' ) )");
    const doc = await json([db, '--tree', tree]);
    expect(doc.variants.map((v) => [v.count, v.cost])).toEqual([
      [2, 0],
      [1, 1],
    ]);
    expect(doc.averageFitness).toBeCloseTo((2 + (1 - 1 / 3)) / 3, 12);
  });

  it('refuses a missing or double model, and names the file and character of a bad tree', async () => {
    const none = await cli(['conformance', RECORDS]);
    expect(none.status).toBe(2);
    expect(none.err).toMatch(/pass either --tree <file> or --against <workflow\.json>/);
    const bad = file('bad.tree', "->( 'a', X( 'b' )");
    const r = await cli(['conformance', RECORDS, '--tree', bad]);
    expect(r.status).toBe(2);
    expect(r.err).toContain(`${bad}: not a process tree in PM4Py notation at character`);
    const notWorkflow = file('not-workflow.json', JSON.stringify({ version: 1, name: 'x', nodes: 'no', edges: [] }));
    const w = await cli(['conformance', RECORDS, '--against', notWorkflow]);
    expect(w.status).toBe(2);
    expect(w.err).toContain(`${notWorkflow} is not a workflow: $.nodes:`);
    expect(readFileSync(RECORDS, 'utf8')).toContain('"id":"r1"');
  });

  it('refuses a malformed or 20,000-level tree with exit 2 and its character, never scores it or crashes', async () => {
    const cases: Array<[string, string]> = [
      ["->( 'a' 'b' )", 'character 9: expected "," between two children of an operator'],
      ["Q( 'a' )", 'character 1: unknown operator "Q"'],
      [
        `${'->( '.repeat(20_000)}'a'${' )'.repeat(20_000)}`,
        'character 2049: the tree is nested more than 512 levels deep (the most FlowScout reads)',
      ],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      const tree = file(`malformed-${i}.tree`, text);
      for (const json of [[], ['--json']]) {
        const r = await cli(['conformance', RECORDS, '--tree', tree, ...json]);
        expect(r.status, r.err).toBe(2);
        expect(r.out).toBe('');
        expect(r.err).toContain(`error [PARSE_ERROR]: ${tree}: not a process tree in PM4Py notation at ${message}`);
      }
    }
  });
});
