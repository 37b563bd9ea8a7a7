import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueueRunner } from '../../src/distributed/queue-runner.js';
import { startEvaluationWorker, type EvaluationWorker } from '../../src/distributed/worker.js';
import { evaluateWorkflow } from '../../src/evaluate/evaluate.js';
import { assertValidWorkflow } from '../../src/graph/validate.js';
import { createBudget } from '../../src/llm/budget.js';
import { createLexicalJudge } from '../../src/metrics/lexical-judge.js';
import { readRecordsFile } from '../../src/records/read-records.js';
import type { TaskRecord } from '../../src/records/schema.js';
import { loadToolConfig } from '../../src/tools/load-tool-config.js';
import type { ToolRegistry } from '../../src/contracts/tools.js';
import { createOfflinePolicy } from '../../src/policies/offline/offline-policy.js';
import { readJsonFile } from '../../src/util/json-file.js';
import { startTestLlmServer, type TestLlmServer } from '../support/llm-server.js';
import { testRedisUrl } from '../support/redis.js';

/**
 * The run's budget holds across workers: two workers (in this process, each with its own Redis
 * connections, as on two machines) run the records, and the coordinator's budget counts every
 * model request they made; a limit below that refuses the evaluation with BUDGET_EXHAUSTED.
 */

const FIX = join(import.meta.dirname, '../fixtures/records/eval');
let url: string;
let server: TestLlmServer;
let records: TaskRecord[];
let tools: ToolRegistry;
const workers: EvaluationWorker[] = [];
const queue = `t-budget-${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  url = testRedisUrl();
  records = (await readRecordsFile(join(FIX, 'records.jsonl'))).records;
  const recordIn = (body: unknown): TaskRecord => records.find((r) => JSON.stringify(body).includes(r.query))!;
  // Half a second per request: a job takes longer than a worker needs to pick up the next one, so both work.
  server = await startTestLlmServer({
    latencyMs: 500,
    script: async (req) => {
      const rec = recordIn(req.body);
      if (req.body.response_format) return { json: { calls: rec.calls.map(({ tool, args }) => ({ tool, args })) } };
      return { text: rec.reference };
    },
  });
  tools = await loadToolConfig(join(FIX, 'tools.config.json'));
  for (let i = 0; i < 2; i++)
    workers.push(
      await startEvaluationWorker({
        url,
        queue,
        concurrency: 1,
        tools: join(FIX, 'tools.config.json'),
        models: [server.spec('planner')],
        name: `budget-${i}`,
        env: {},
      }),
    );
});

afterAll(async () => {
  for (const w of workers) await w.close();
  await tools?.close();
  await server?.close();
});

const workflow = () => assertValidWorkflow(readJsonFile(join(FIX, 'workflow.json')), tools.list(), 'workflow.json');
// The coordinator's own policy is never asked (the records run on the workers); the model string the jobs name is.
const local = () => ({
  policy: createOfflinePolicy({ tools: tools.list() }),
  tools,
  judge: createLexicalJudge(),
  concurrency: 4,
  feedback: false as const,
});

describe('budgets across workers (real Redis)', () => {
  it("charges every model request the workers made to the coordinator's budget", async () => {
    const budget = createBudget();
    const runner = await createQueueRunner({
      url,
      queue,
      run: `b-${randomBytes(3).toString('hex')}`,
      policy: { model: server.spec('planner') },
      judge: 'offline',
      memo: false,
      budget,
    });
    try {
      const before = server.requests.length;
      const ev = await evaluateWorkflow(workflow(), records, { ...local(), runner });
      const made = server.requests.length - before;
      expect(made).toBeGreaterThan(records.length);
      expect(budget.spent().llmCalls).toBe(made);
      expect(ev.tc).toBe(1);
      // Both workers took jobs.
      expect(workers.every((w) => w.done() > 0)).toBe(true);
    } finally {
      await runner.close();
    }
  });

  it('refuses the evaluation with BUDGET_EXHAUSTED once the workers spent more than --budget-calls allows', async () => {
    const budget = createBudget({ maxLlmCalls: 2 });
    const runner = await createQueueRunner({
      url,
      queue,
      run: `b-${randomBytes(3).toString('hex')}`,
      policy: { model: server.spec('planner') },
      judge: 'offline',
      memo: false,
      budget,
    });
    try {
      await expect(evaluateWorkflow(workflow(), records, { ...local(), runner })).rejects.toMatchObject({
        code: 'BUDGET_EXHAUSTED',
      });
    } finally {
      await runner.close();
    }
  });
});
