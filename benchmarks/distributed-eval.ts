/**
 * Distributed evaluation benchmark (not a test; speed is shown here as ratios measured in one run,
 * never asserted). `flowscout eval --redis` of 64 TRAJECT-Bench Finance records against the local
 * OpenAI-compatible test LLM server answering every request after 1 s, with `flowscout worker`
 * child processes at a fixed `--concurrency 4` each, on a redis-server of its own (free loopback
 * port, no persistence, stopped at the end):
 *
 * (a) one worker against four workers: wall time of the eval and the ratio;
 *
 * each timed after an untimed warm-up eval of 16 records on the same workers (a worker's first job
 * loads the model provider and the tools once per process);
 * (b) jobs of one record (4 jobs in flight per worker) against jobs of 4 records (1 job in flight
 *     per worker: the same 4 records in flight), four workers each.
 *
 *   npx tsx benchmarks/distributed-eval.ts
 *
 * The workflow is plan → tool calls → answer (three model requests per record); the scripted
 * model plans each record's reference calls and answers with its reference, so every record does
 * the same work in every setting. The ideal is 48 s for one worker (16 rounds of 4 records × 3 s)
 * and 12 s for four (4 rounds of 16), a ratio of 4. Each timed eval also prints the CPU seconds its
 * processes used (from /proc) and the machine's load average, so a reader can tell whether the
 * latency dominated (it should: the processes use a fraction of a core) or a busy machine did.
 * Needs redis-server (Debian: apt-get install -y redis-server).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/cli/program.js';
import { bundledTrajectPaths } from '../src/records/bundled.js';
import { importTraject } from '../src/records/import/traject.js';
import { writeImportFolder } from '../src/records/import/write-import.js';
import type { TaskRecord } from '../src/records/schema.js';
import { spawnCli, type ChildCli } from '../test/support/child-cli.js';
import { captureIO } from '../test/support/cli-io.js';
import { startTestRedis } from '../test/support/redis-server.js';

const RECORDS = 64;
const LATENCY_MS = 1_000;
const CONCURRENCY = 4;

const imported = importTraject(bundledTrajectPaths('Finance').trajQuery, bundledTrajectPaths('Finance').tools);
const records: TaskRecord[] = imported.records.slice(0, RECORDS);
if (records.length < RECORDS) throw new Error(`only ${records.length} Finance records; the benchmark needs ${RECORDS}`);
const dir = mkdtempSync(join(tmpdir(), 'flowscout-dist-bench-'));
writeImportFolder(dir, records, imported.tools);
const tools = join(dir, 'tools.config.json');
// As many records as four workers run at once, for the untimed warm-up of each setting.
const warmupRecords = join(dir, 'warmup.jsonl');
writeFileSync(
  warmupRecords,
  `${records
    .slice(0, 4 * CONCURRENCY)
    .map((r) => JSON.stringify(r))
    .join('\n')}\n`,
);
const workflowFile = join(dir, 'workflow.json');
writeFileSync(
  workflowFile,
  JSON.stringify({
    version: 1,
    name: 'plan-lookup-answer',
    nodes: [
      { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan the lookups for: {{query}}', output: { type: 'text' } },
      { id: 'lookup', kind: 'tool', task: 'Call the tools the request needs, in order', calls: 'many' },
      {
        id: 'answer',
        kind: 'llm',
        role: 'synthesize',
        prompt: 'Answer {{query}} from:\n{{inputs}}',
        output: { type: 'text' },
      },
    ],
    edges: [
      { from: 'plan', to: 'lookup', kind: 'data' },
      { from: 'lookup', to: 'answer', kind: 'data' },
    ],
  }),
);

// The model's side runs in its own process, as a provider would, so it does not share the coordinator's event loop.
const llm = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    join(import.meta.dirname, 'llm-latency-server.ts'),
    join(dir, 'records.jsonl'),
    String(LATENCY_MS),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const model = await new Promise<string>((resolve, reject) => {
  let out = '';
  llm.stdout!.on('data', (d) => {
    out += String(d);
    if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
  });
  llm.once('exit', (code) => reject(new Error(`the test LLM server exited (${code})`)));
});
const redis = await startTestRedis();

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}
const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function timedEval(workers: number, chunk: number, concurrency: number): Promise<{ ms: number; tc: number }> {
  const queue = `bench-${randomBytes(3).toString('hex')}`;
  const procs: ChildCli[] = [];
  for (let i = 0; i < workers; i++)
    procs.push(
      spawnCli([
        'worker',
        '--redis',
        redis.url,
        '--queue',
        queue,
        '--tools',
        tools,
        '--model',
        model,
        '--concurrency',
        String(concurrency),
      ]),
    );
  try {
    await Promise.all(procs.map((p) => p.waitFor(/connected to redis/)));
    // Warm-up, not timed: a worker's first job loads the model provider and the tools (seconds on a
    // busy machine), a cost paid once per worker process, not per evaluation.
    const warm = captureIO();
    const warmStatus = await runCli(
      [
        'eval',
        workflowFile,
        '--records',
        warmupRecords,
        '--tools',
        tools,
        '--model',
        model,
        '--redis',
        redis.url,
        '--queue',
        queue,
        '--json',
      ],
      warm,
    );
    if (warmStatus !== 0) throw new Error(`warm-up eval failed (${warmStatus}): ${warm.errors()}`);
    const io = captureIO();
    const cpu0 = {
      workers: procs.reduce((a, p) => a + cpuSeconds(p.pid), 0),
      coordinator: ownCpu(),
      llm: cpuSeconds(llm.pid!),
      redis: cpuSeconds(redis.pid),
    };
    const t0 = performance.now();
    const status = await runCli(
      [
        'eval',
        workflowFile,
        '--records',
        join(dir, 'records.jsonl'),
        '--tools',
        tools,
        '--model',
        model,
        '--redis',
        redis.url,
        '--queue',
        queue,
        '--chunk',
        String(chunk),
        '--json',
      ],
      io,
    );
    const ms = performance.now() - t0;
    const cpu = {
      workers: procs.reduce((a, p) => a + cpuSeconds(p.pid), 0) - cpu0.workers,
      coordinator: ownCpu() - cpu0.coordinator,
      llm: cpuSeconds(llm.pid!) - cpu0.llm,
      redis: cpuSeconds(redis.pid) - cpu0.redis,
    };
    console.log(
      `    cpu s: workers ${cpu.workers.toFixed(1)}, coordinator ${cpu.coordinator.toFixed(1)}, llm server ${cpu.llm.toFixed(1)}, redis ${cpu.redis.toFixed(1)} over ${(ms / 1000).toFixed(1)} s wall`,
    );
    if (status !== 0) throw new Error(`eval failed (${status}): ${io.errors()}`);
    const json = JSON.parse(io.text()) as { tc: number };
    return { ms, tc: json.tc };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
  }
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
try {
  console.log(
    `eval of ${RECORDS} records, test LLM server at ${LATENCY_MS} ms per request, workers at --concurrency ${CONCURRENCY}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores`,
  );
  const one = await timedEval(1, 1, CONCURRENCY);
  console.log(`  1 worker : ${fmt(one.ms)}  (TC ${one.tc.toFixed(3)})`);
  const four = await timedEval(4, 1, CONCURRENCY);
  console.log(`  4 workers: ${fmt(four.ms)}  (TC ${four.tc.toFixed(3)})`);
  console.log(`  speed-up 4 workers vs 1: ${(one.ms / four.ms).toFixed(2)}x`);
  const chunked = await timedEval(4, 4, 1);
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `jobs of 4 records (1 job in flight per worker) on 4 workers: ${fmt(chunked.ms)}  vs jobs of 1 record (4 in flight): ${fmt(four.ms)}  → ratio ${(chunked.ms / four.ms).toFixed(2)}`,
  );
} finally {
  llm.kill('SIGTERM');
  await redis.stop();
}
