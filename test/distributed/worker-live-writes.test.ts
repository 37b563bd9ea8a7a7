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
 * workers did. The worker runs in this process (its own Redis connections, as on another machine)
 * so that the live order store it would write to is the one this test reads.
 */

let url: string;
let fx: OrderFixture;
let worker: EvaluationWorker;
const queue = `t-writes-${randomBytes(3).toString('hex')}`;

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
});

afterAll(async () => {
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
    // Look the order up, then act on it; the act step retries a failed attempt once.
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
    const evalArgs = ['eval', workflowFile, '--records', fx.records, '--tools', fx.tools, '--model', model];
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
