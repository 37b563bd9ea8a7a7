import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { startEvaluationWorker, type EvaluationWorker } from '../../src/distributed/worker.js';
import { captureIO } from '../support/cli-io.js';
import type { Workflow } from '../../src/graph/schema.js';
import { promptText, startTestLlmServer, type TestLlmServer } from '../support/llm-server.js';
import { initialOrders, orderRecords, orderState, resetOrders, writesMade } from '../support/order-tools.js';
import { testRedisUrl } from '../support/redis.js';
import { writeOrderFixture, type OrderFixture } from '../live-tools/order-fixture.js';

/**
 * Write calls to live tools on `flowscout worker`s: a worker answers them from the recorded
 * responses a run in one process answers them from (the coordinator's records, shipped once per run
 * as a blob the jobs name), refuses the rest, and sends none; the run's summary counts what the
 * workers did. A worker's `--allow-live-writes` is a ceiling, never a default: it sends write calls
 * only for a run whose coordinator was given the flag too, and the coordinator's header says so.
 * The workers run in this process (their own Redis connections, as on another machine) so that the
 * live order store they would write to is the one this test reads.
 */

let url: string;
let fx: OrderFixture;
let worker: EvaluationWorker;
const queue = `t-writes-${randomBytes(3).toString('hex')}`;
// A worker started with --allow-live-writes, on a queue of its own.
let allowing: EvaluationWorker;
const allowingQueue = `t-writes-allow-${randomBytes(3).toString('hex')}`;
const allowingWarnings: string[] = [];

let server: TestLlmServer;
let model: string;
const orders = orderRecords();

beforeAll(async () => {
  url = testRedisUrl();
  fx = writeOrderFixture();
  // A model that plans, at each tool step, the record's calls of the tools it is offered, but moves an
  // order to the address it already has (the lookup's), so no record answers that write call.
  server = await startTestLlmServer({
    script: (req) => {
      const text = promptText(req.body);
      const rec = orders.find((r) => text.includes(r.query))!;
      if (!req.body.response_format) return { text: rec.reference };
      const offered = rec.calls.filter((c) => text.includes(`### ${c.tool}`));
      const current = initialOrders().find((o) => o.id === rec.calls[0]!.args.order_id)!;
      return {
        json: {
          calls: offered.map(({ tool, args }) =>
            tool === 'change_order_address' ? { tool, args: { ...args, address: current.address } } : { tool, args },
          ),
        },
      };
    },
  });
  model = server.spec('planner');
  worker = await startEvaluationWorker({
    url,
    queue,
    tools: fx.tools,
    models: [model],
    concurrency: 2,
    name: 'writes-0',
    env: {},
  });
  allowing = await startEvaluationWorker({
    url,
    queue: allowingQueue,
    tools: fx.tools,
    models: [model],
    concurrency: 2,
    name: 'writes-allow',
    env: {},
    allowLiveWrites: true,
    warn: (line) => allowingWarnings.push(line),
  });
});

afterAll(async () => {
  await allowing?.close();
  await worker?.close();
  await server?.close();
});

beforeEach(() => resetOrders());

async function cliJson(args: string[]): Promise<Record<string, any>> {
  const io = captureIO();
  const status = await runCli(args, io);
  expect(io.errors()).toBe('');
  expect(status).toBe(0);
  return JSON.parse(io.text()) as Record<string, any>;
}

async function cliText(args: string[]): Promise<string> {
  const io = captureIO();
  const status = await runCli(args, io);
  expect(status, io.errors()).toBe(0);
  return io.text();
}

const searchArgs = (out: string, db: string) => [
  'search',
  '--records',
  fx.records,
  '--tools',
  fx.tools,
  '--iterations',
  '2',
  '--seed',
  '1',
  '--out',
  out,
  '--db',
  db,
  '--json',
];
const remote = ['--redis', '', '--queue', queue];
const onQueue = () => ((remote[1] = url), remote);

/** `eval` of a workflow that looks the order up, then acts on it (the act step retries a failed attempt once). */
function ordersEval(): string[] {
  const workflow: Workflow = {
    version: 1,
    name: 'orders',
    nodes: [
      { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
      { id: 'lookup', kind: 'tool', task: 'Look up the order', tools: ['get_order'] },
      {
        id: 'act',
        kind: 'tool',
        task: 'Do what the customer asks with the order',
        tools: ['cancel_order', 'change_order_address'],
        retry: { attempts: 2, on: 'error' },
      },
      {
        id: 'answer',
        kind: 'llm',
        role: 'synthesize',
        prompt: 'Answer {{query}} from {{inputs}}',
        output: { type: 'text' },
      },
    ],
    edges: [
      { from: 'plan', to: 'lookup', kind: 'data' },
      { from: 'lookup', to: 'act', kind: 'data' },
      { from: 'act', to: 'answer', kind: 'data' },
    ],
  };
  const workflowFile = join(fx.dir, 'orders.workflow.json');
  writeFileSync(workflowFile, JSON.stringify(workflow));
  return ['eval', workflowFile, '--records', fx.records, '--tools', fx.tools, '--model', model];
}

/** The run's header line about live writes and its summary line, trimmed. */
function writeLines(text: string): { header?: string; summary?: string } {
  const lines = text.split('\n').map((l) => l.trim());
  return {
    header: lines.find((l) => l.startsWith('Live writes: ')),
    summary: lines.find((l) => l.startsWith('Write calls: ')),
  };
}

describe('live write tools on a worker (real Redis)', () => {
  it('a search gives the same candidates, test scores and write-call counts as in one process, and writes nothing', async () => {
    const done = worker.done();
    const a = await cliJson(searchArgs(join(fx.dir, 's-local'), join(fx.dir, 's.db')));
    const b = await cliJson([...searchArgs(join(fx.dir, 's-remote'), join(fx.dir, 's.db')), ...onQueue()]);
    expect(worker.done()).toBeGreaterThan(done);
    const doc = (dir: string) => {
      const { run: _run, ...rest } = JSON.parse(readFileSync(join(fx.dir, dir, 'search.json'), 'utf8'));
      return rest;
    };
    expect(doc('s-remote').candidates).toEqual(doc('s-local').candidates);
    expect(doc('s-remote').test).toEqual(doc('s-local').test);
    // The offline policy's write calls match no record's here: all refused, on the worker as in one process.
    expect(a.writeCalls.refused).toBeGreaterThan(0);
    expect(a.writeCalls.sentLive).toBe(0);
    expect(b.writeCalls).toEqual(a.writeCalls);
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
  });

  it('an eval gives the same TC, calls and write-call counts as in one process, prints them, and writes nothing', async () => {
    const evalArgs = ordersEval();
    const a = await cliJson([...evalArgs, '--json']);
    const done = worker.done();
    const b = await cliJson([...evalArgs, '--json', ...onQueue()]);
    expect(worker.done()).toBeGreaterThan(done);
    expect(b.distributed).toMatchObject({ jobsDone: orders.length, jobsFailed: 0 });
    // Cancellations are answered from the records; the re-addressings (to the old address) are refused and retried.
    expect(a.writeCalls).toMatchObject({ answeredFromReplay: orders.length / 2, refused: orders.length, sentLive: 0 });
    expect(b.tc).toBe(a.tc);
    expect(b.records).toEqual(a.records);
    expect(b.writeCalls).toEqual(a.writeCalls);
    expect(b.toolStats).toMatchObject({ calls: a.toolStats.calls, errors: a.toolStats.errors });
    // The summary line of a distributed eval counts the workers' write calls.
    const line = (text: string) =>
      text
        .split('\n')
        .find((l) => l.trim().startsWith('Write calls: '))
        ?.trim();
    const localLine = line(await cliText(evalArgs));
    expect(localLine).toBe(
      `Write calls: ${orders.length / 2} answered from replay, ${orders.length} refused (not run), 0 sent to live tools`,
    );
    expect(line(await cliText([...evalArgs, ...onQueue()]))).toBe(localLine);
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
  });
});

describe('a worker started with --allow-live-writes (real Redis)', () => {
  const onAllowing = () => ['--redis', url, '--queue', allowingQueue];
  const TOOLS = '3 live write tools (change_order_address, hold_orders, cancel_order)';

  it('makes 0 live writes for an eval whose coordinator was not given --allow-live-writes, and the header says so', async () => {
    expect(allowingWarnings.join('\n')).toContain('warning: --allow-live-writes');
    const evalArgs = ordersEval();
    const done = allowing.done();
    const io = captureIO();
    const status = await runCli([...evalArgs, ...onAllowing()], io);
    expect(status, io.errors()).toBe(0);
    expect(allowing.done()).toBeGreaterThan(done);
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
    expect(writeLines(io.text())).toEqual({
      header: `Live writes: off: write calls to ${TOOLS} are answered from replay or refused on every worker, those started with --allow-live-writes included (--allow-live-writes here lets those send them)`,
      summary: `Write calls: ${orders.length / 2} answered from replay, ${orders.length} refused (not run), 0 sent to live tools`,
    });
  });

  it('makes the same 0 live writes for a search without the flag', async () => {
    const done = allowing.done();
    const b = await cliJson([
      ...searchArgs(join(fx.dir, 's-allowing'), join(fx.dir, 's-allowing.db')),
      '--redis',
      url,
      '--queue',
      allowingQueue,
    ]);
    expect(allowing.done()).toBeGreaterThan(done);
    expect(b.writeCalls.sentLive).toBe(0);
    expect(b.writeCalls.refused).toBeGreaterThan(0);
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
  });

  it('sends them when the coordinator was given --allow-live-writes too, and a worker without the flag still does not', async () => {
    const evalArgs = [...ordersEval(), '--allow-live-writes'];
    const io = captureIO();
    expect(await runCli([...evalArgs, ...onAllowing()], io), io.errors()).toBe(0);
    // Every write call the model planned reached the store: a cancellation and a re-addressing per pair of records, retried once.
    const sent = writesMade().length;
    expect(sent).toBeGreaterThan(0);
    expect(writeLines(io.text())).toEqual({
      header: `Live writes: ALLOWED (--allow-live-writes): write calls to ${TOOLS} are sent to the live tools by the workers started with --allow-live-writes; the other workers answer them from replay or refuse them`,
      summary: `Write calls: ${sent} sent to live tools (--allow-live-writes)`,
    });

    resetOrders();
    const other = captureIO();
    expect(await runCli([...evalArgs, ...onQueue()], other), other.errors()).toBe(0);
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
    expect(writeLines(other.text()).summary).toBe(
      `Write calls: 0 sent to live tools (--allow-live-writes), ${orders.length / 2} answered from replay and ${orders.length} refused by workers without --allow-live-writes`,
    );
  });
});
