import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';

/**
 * What conformance and drift read of a run is everything it shows: its failed calls (also those
 * import left out of a record's reference log), error answers, repeated calls and its outcome, from
 * a raw agent log as from records; a run with no call is aligned as an empty run; a run that cannot
 * be read is counted and named; a record of any size is read.
 */
const dir = mkdtempSync(join(tmpdir(), 'flowscout-evidence-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

let callId = 0;
/** A tau-bench-style run: `traj` holds OpenAI chat messages, `reward` its outcome. */
function run(taskId: number, reward: number, calls: Array<[tool: string, args: object, output: string]>) {
  const traj: object[] = [
    { role: 'system', content: 'You are a retail support agent.' },
    { role: 'user', content: `Task ${taskId}: please check order #W${1000 + taskId}.` },
  ];
  for (const [tool, args, output] of calls) {
    const id = `call_${callId++}`;
    traj.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: tool, arguments: JSON.stringify(args) } }],
    });
    traj.push({ role: 'tool', tool_call_id: id, content: output });
  }
  traj.push({ role: 'assistant', content: `Order #W${1000 + taskId} is on its way.` });
  return { task_id: taskId, reward, trial: 0, traj };
}

const FIND = ['find_user', { name: 'Ann' }, '{"user_id": "ann_1"}'] as [string, object, string];
const ORDER = ['get_order', { order_id: '#W1' }, '{"status": "shipped"}'] as [string, object, string];
const FAILED_ORDER = ['get_order', { order_id: '#W9' }, 'Error: order not found'] as [string, object, string];
const TREE = "->( *( tau, 'find_user' ), *( tau, 'get_order' ) )";

const RUNS = [
  run(1, 1, [FIND, ORDER]),
  run(2, 1, [FIND, ORDER]),
  run(3, 0, [FIND, FAILED_ORDER, FAILED_ORDER, ORDER]),
  run(4, 0, [FAILED_ORDER, ['cancel_order', { order_id: '#W9' }, 'Error: cannot cancel']]),
  // A run that made no call: an empty trace, which this model allows.
  run(5, 0, []),
  // Not readable: no user message.
  { task_id: 6, reward: 1, traj: [{ role: 'assistant', content: 'Hello?' }] },
];

interface RunJson {
  id: string;
  fitness: number;
  health: number;
  calls: number;
  failedCalls: number;
  errorAnswers: number;
  repeatedCalls: number;
  beyond: number;
  outcome?: { success: boolean; field: string; value: unknown };
}
interface ConformanceJson {
  traces: number;
  runs: RunJson[];
  unreadable: { count: number; problems: string[] };
  outcomes: {
    runs: number;
    successful: number;
    failed: number;
    separation: { health: { auc: number; separates: boolean; says: string }; fitness: { auc: number } } | null;
  };
}

describe('conformance reads every run and all it shows', () => {
  const logs = file('runs.json', JSON.stringify(RUNS, null, 2));
  const tree = file('orders.tree', TREE);

  it('keeps runs with failed calls, aligns a run with no call, and counts and names a run it cannot read', async () => {
    const r = await cli(['conformance', logs, '--tree', tree, '--json']);
    expect(r.status, r.err).toBe(0);
    const doc = JSON.parse(r.out) as ConformanceJson;
    expect(doc.traces).toBe(5);
    expect(doc.unreadable.count).toBe(1);
    expect(doc.unreadable.problems[0]).toMatch(/runs\.json .*\$\[5\].*no user message/);
    expect(r.err).toMatch(/1 run of .*runs\.json could not be read and is not aligned:/);
    const byTask = new Map(doc.runs.map((x) => [x.id, x]));
    const third = doc.runs[2]!;
    expect(third).toMatchObject({ calls: 4, failedCalls: 2, errorAnswers: 2, repeatedCalls: 1, beyond: 0 });
    expect(third.outcome).toEqual({ success: false, field: 'reward', value: 0 });
    // Both error answers of run 4, and a call to a tool the model has no place for.
    expect(doc.runs[3]).toMatchObject({ calls: 2, failedCalls: 2, beyond: 1, fitness: 0.5 });
    // The empty run fits a model whose every step is optional: fitness 1, not 0 by default.
    expect(doc.runs[4]).toMatchObject({ calls: 0, fitness: 1, health: 1 });
    expect(byTask.size).toBe(5);
    // Health counts what went wrong; fitness only the order of the tools.
    expect(doc.runs[0]!.health).toBe(1);
    expect(third.fitness).toBe(1);
    expect(third.health).toBeCloseTo(1 / (1 + 2 + 1), 12);
    expect(doc.outcomes).toMatchObject({ runs: 5, successful: 2, failed: 3 });
    expect(doc.outcomes.separation!.fitness.auc).toBeCloseTo(0.5 * (2 / 3) + 1 / 3, 12);
    expect(doc.outcomes.separation!.health.auc).toBeCloseTo((2 * 2 + 2 * 0.5) / 6, 12);
  });

  it('says in words how well health and fitness separate failed from successful runs, and when they do not', async () => {
    const r = await cli(['conformance', logs, '--tree', tree]);
    expect(r.status, r.err).toBe(0);
    expect(r.out).toContain(
      'averageHealth 0.7000   runs with failed calls 2, withheld calls 0, repeated calls 1, calls beyond the model 1',
    );
    expect(r.out).toMatch(/^health does not separate failed from successful runs: AUC 0\.833 \(95 % interval /m);
    expect(r.out).toMatch(/^fitness does not separate failed from successful runs: AUC 0\.667 /m);
    expect(r.out).toContain(
      [
        'least healthy runs (health, fitness, and what counted against them):',
        '  0.250  1.000  runs-2: 2 failed (2 error answers), 1 repeated of 4 calls; outcome reward=0',
        '  0.250  0.500  runs-3: 1 beyond the model, 2 failed (2 error answers) of 2 calls; outcome reward=0',
      ].join('\n'),
    );
  });

  it("reads the failed calls import left out of a successful run's reference log from its turns", async () => {
    const out = join(dir, 'imported');
    const imported = await cli(['import', 'auto', logs, '--where', 'reward=1', '--skip-invalid', '--out', out]);
    expect(imported.status, imported.err).toBe(0);
    const withFailure = file('mixed.json', JSON.stringify([run(7, 1, [FIND, FAILED_ORDER, ORDER])]));
    const out2 = join(dir, 'imported2');
    expect((await cli(['import', 'auto', withFailure, '--where', 'reward=1', '--out', out2])).status).toBe(0);
    const doc = JSON.parse(
      (await cli(['conformance', join(out2, 'records.jsonl'), '--tree', tree, '--json'])).out,
    ) as ConformanceJson;
    // The record's reference log has two calls; the run made three, one of which failed.
    expect(doc.runs[0]).toMatchObject({ calls: 3, failedCalls: 1, errorAnswers: 1 });
    expect(doc.runs[0]!.outcome).toEqual({ success: true, field: 'reward', value: 1 });
  });

  it('reads a record of 20 000 calls, whose one line is over a megabyte', async () => {
    const calls = Array.from({ length: 20_000 }, (_, i) => ({
      tool: i % 2 ? 'get_order' : 'find_user',
      args: { order_id: `#W${100000 + i}` },
      output: `{"status": "shipped", "i": ${i}}`,
      status: 'ok',
    }));
    const big = { id: 'long-run', query: 'check every order', reference: 'done', calls };
    const line = JSON.stringify(big);
    expect(line.length).toBeGreaterThan(1_200_000);
    const records = file(
      'long.jsonl',
      `${line}\n${JSON.stringify({ ...big, id: 'short', calls: calls.slice(0, 2) })}\n`,
    );
    const r = await cli([
      'conformance',
      records,
      '--tree',
      file('loop.tree', "*( tau, X( 'find_user', 'get_order' ) )"),
      '--json',
    ]);
    expect(r.status, r.err).toBe(0);
    const doc = JSON.parse(r.out) as ConformanceJson;
    expect(doc.runs.map((x) => [x.id, x.calls, x.fitness])).toEqual([
      ['long-run', 20_000, 1],
      ['short', 2, 1],
    ]);
    const d = await cli(['drift', file('wf.json', JSON.stringify(LOOP_WORKFLOW)), '--runs', records, '--json']);
    expect(d.status, d.err).toBe(0);
    expect((JSON.parse(d.out) as { measures: { runs: number } }).measures.runs).toBe(2);
  });

  it('counts the failed calls of a raw agent log in drift, where import would have dropped those runs', async () => {
    const d = await cli(['drift', file('wf2.json', JSON.stringify(LOOP_WORKFLOW)), '--runs', logs, '--json']);
    expect(d.status, d.err).toBe(0);
    const doc = JSON.parse(d.out) as {
      measures: { runs: number; failedCallRate: number; failedRuns: number };
      unreadable: { count: number };
    };
    expect(doc.measures.runs).toBe(5);
    expect(doc.measures.failedCallRate).toBeCloseTo(4 / 10, 12);
    expect(doc.measures.failedRuns).toBeCloseTo(3 / 5, 12);
    expect(doc.unreadable.count).toBe(1);
  });
});

/** A workflow of one repeating tool node over both tools (no profile: fixed thresholds). */
const LOOP_WORKFLOW = {
  version: 1,
  name: 'orders',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: '{{query}}', output: { type: 'text' } },
    { id: 'look', kind: 'tool', task: 'look up', tools: ['find_user', 'get_order'], calls: 'many' },
    { id: 'answer', kind: 'llm', role: 'synthesize', prompt: '{{query}}', output: { type: 'text' } },
  ],
  edges: [
    { from: 'plan', to: 'look', kind: 'data' },
    { from: 'look', to: 'answer', kind: 'data' },
  ],
};
