/**
 * What a model user pays (not a test): model requests and input tokens per query of the mined G0,
 * the searched workflow and the ReAct baseline under a model, each without the tool shortlist
 * ("before": every tool with its schema in every plan request and every ReAct step) and with it
 * ("after"), measured against the local OpenAI-compatible test server; and the wall time of `eval`
 * at --concurrency 1 and 16 against the same server answering after 1 s. Ratios come from one run.
 *
 *   npx tsx benchmarks/model-cost.ts [--domain Travel] [--records 10] [--skip-latency] [--only-latency]
 *
 * The server answers with a scripted model (test/support/scripted-model.ts: it picks the record's
 * reference call among the tools a request offers, so replay tools return recorded outputs) and
 * counts each request's size the way providers bill it (test/support/llm-server.ts, `usage:
 * 'estimate'`: 4 characters a token; its cached-prefix count follows OpenAI's automatic caching).
 * No real model runs: these are request-size figures, not quality figures. The searched workflow is
 * the best of an offline search (J = 8, seed 0) on the same records.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '../test/support/scripted-model.js';
import { startTestLlmServer } from '../test/support/llm-server.js';
import { createLlmReact } from '../src/bench/baselines/react/react-llm.js';
import { runCli } from '../src/cli/program.js';
import type { CliIO } from '../src/cli/output.js';
import type { Workflow } from '../src/graph/schema.js';
import { createLlmClient } from '../src/llm/client.js';
import { costUsd, DEFAULT_PRICES } from '../src/llm/prices.js';
import { createRateLimiter } from '../src/llm/rate-limiter.js';
import { resolveModel } from '../src/llm/resolve-model.js';
import { createLlmPolicy } from '../src/policies/llm-policy.js';
import { createToolShortlister, DEFAULT_SHORTLIST_SIZE } from '../src/policies/tool-shortlist.js';
import { bundledTrajectPaths } from '../src/records/bundled.js';
import { importTraject } from '../src/records/import/traject.js';
import type { TaskRecord } from '../src/records/schema.js';
import { splitRecords } from '../src/records/split.js';
import { executeWorkflow } from '../src/runtime/execute.js';
import { minedG0 } from '../src/search/variants.js';
import { createToolRegistry } from '../src/tools/registry.js';
import { createReplayTools } from '../src/tools/replay-tools.js';
import { mapLimit } from '../src/util/map-limit.js';
import { measureDomain, recallAt } from './tool-shortlist-recall.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const domain = arg('--domain', 'Travel');
const sampleSize = Number(arg('--records', '10'));

const quiet: CliIO = { out: () => {}, err: () => {}, isTTY: false };

interface Measured {
  queries: number;
  requests: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  bytes: number;
}

async function measure(
  records: readonly TaskRecord[],
  all: readonly TaskRecord[],
  runOne: (spec: string, record: TaskRecord) => Promise<unknown>,
): Promise<Measured> {
  const server = await startTestLlmServer({ script: scriptedModel(all), usage: 'estimate' });
  try {
    await mapLimit(records, 4, (r) => runOne(server.spec(), r));
    const inputTokens = server.requests.reduce((n, q) => n + (q.usage?.prompt_tokens ?? 0), 0);
    const cached = server.requests.reduce((n, q) => n + (q.usage?.cached_tokens ?? 0), 0);
    const bytes = server.requests.reduce((n, q) => n + q.raw.length, 0);
    const outputTokens = server.requests.reduce((n, q) => n + (q.usage?.completion_tokens ?? 0), 0);
    return {
      queries: records.length,
      requests: server.requests.length,
      inputTokens,
      cachedInputTokens: cached,
      outputTokens,
      bytes,
    };
  } finally {
    await server.close();
  }
}

/**
 * `flowscout eval` of G0 on 16 records, --concurrency 1 and then 16, against a server that answers
 * every request after 1 s (offline judge: only the workflow's requests are timed).
 */
async function latency(allOk: readonly TaskRecord[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'flowscout-latency-'));
  const server = await startTestLlmServer({ script: scriptedModel(allOk), usage: 'estimate', latencyMs: 1000 });
  try {
    await runCli(['import', 'traject', '--domain', domain, '--out', join(dir, 'data')], quiet);
    const lines = readFileSync(join(dir, 'data', 'records.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim());
    writeFileSync(join(dir, 'records16.jsonl'), `${lines.slice(0, 16).join('\n')}\n`);
    await runCli(
      ['mine', join(dir, 'data', 'records.jsonl'), '--format', 'workflow', '-o', join(dir, 'g0.json')],
      quiet,
    );
    const times: Record<number, { seconds: number; requests: number }> = {};
    for (const c of [1, 16]) {
      const before = server.requests.length;
      const t = performance.now();
      const status = await runCli(
        [
          'eval',
          join(dir, 'g0.json'),
          '--records',
          join(dir, 'records16.jsonl'),
          '--tools',
          join(dir, 'data', 'tools.config.json'),
          '--model',
          server.spec(),
          '--judge-model',
          'offline',
          '--concurrency',
          String(c),
        ],
        quiet,
      );
      if (status !== 0) throw new Error(`eval --concurrency ${c} failed with status ${status}`);
      times[c] = { seconds: (performance.now() - t) / 1000, requests: server.requests.length - before };
    }
    console.log(
      `flowscout eval of ${domain} G0 on 16 records against a test server answering after 1 s (offline judge):`,
    );
    for (const c of [1, 16])
      console.log(
        `  --concurrency ${String(c).padEnd(3)} ${times[c]!.seconds.toFixed(1).padStart(6)} s  (${times[c]!.requests} model requests)`,
      );
    console.log(
      `  --concurrency 16 is ${(times[1]!.seconds / times[16]!.seconds).toFixed(1)}x faster than --concurrency 1`,
    );
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const files = bundledTrajectPaths(domain);
  const { records, tools: descriptors } = importTraject(files.trajQuery, files.tools);
  const allOk = records.filter((r) => r.calls.every((c) => c.status !== 'error'));
  const splits = splitRecords(allOk, { seed: 0 });
  const sample = splits.val.slice(0, sampleSize);
  if (process.argv.includes('--only-latency')) return latency(allOk);
  const tools = createToolRegistry(createReplayTools(allOk, descriptors));
  const g0 = minedG0(splits.opt, descriptors);

  // The searched workflow: the best of a short offline search over the same records.
  const dir = mkdtempSync(join(tmpdir(), 'flowscout-model-cost-'));
  let searched: Workflow;
  try {
    await runCli(['import', 'traject', '--domain', domain, '--out', join(dir, 'data')], quiet);
    const status = await runCli(
      [
        'search',
        '--records',
        join(dir, 'data', 'records.jsonl'),
        '--tools',
        join(dir, 'data', 'tools.config.json'),
        '--iterations',
        '8',
        '--out',
        join(dir, 'out'),
        '--db',
        join(dir, 'store.db'),
        '--model',
        'offline',
      ],
      quiet,
    );
    if (status !== 0) throw new Error(`the offline search failed with status ${status}`);
    searched = JSON.parse(readFileSync(join(dir, 'out', 'best.workflow.json'), 'utf8')) as Workflow;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const runWorkflow = (w: Workflow, shortlist: number) => async (spec: string, record: TaskRecord) => {
    const client = createLlmClient({ model: await resolveModel(spec, { env: {} }), timeoutMs: 60_000 });
    const policy = createLlmPolicy({ client, tools: descriptors, shortlist });
    return executeWorkflow(w, { query: record.query, recordId: record.id }, { policy, tools });
  };
  const shortlister = createToolShortlister({ tools: descriptors });
  const runReact = (shortlist: number) => async (spec: string, record: TaskRecord) => {
    const agent = createLlmReact({
      model: await resolveModel(spec, { env: {} }),
      tools,
      limiter: createRateLimiter({ concurrency: 4 }),
      ...(shortlist > 0 ? { shortlist: { shortlister, size: shortlist } } : {}),
    });
    return agent.run({ query: record.query });
  };

  console.log(
    `model requests and input tokens per query, ${domain} (${descriptors.length} tools), ${sample.length} D_val records, against the local test server (scripted model; 4 characters a token)`,
  );
  console.log(`shortlist: k = ${DEFAULT_SHORTLIST_SIZE} (src/policies/tool-shortlist.ts); "before" lists every tool`);
  const priceKey = 'openai:gpt-4.1-mini';
  const price = DEFAULT_PRICES[priceKey]!;
  const dollars = (m: Measured) =>
    costUsd(price, m.inputTokens, m.outputTokens, { cachedInputTokens: m.cachedInputTokens }) / m.queries;
  console.log(
    `approach           tools listed      requests/q  input tok/q  cached tok/q  KiB/request  $/q at ${priceKey} (cached input at its cached rate)`,
  );
  const rows: Array<{ name: string; before: Measured; after: Measured }> = [];
  for (const [name, run] of [
    ['G0', (k: number) => runWorkflow(g0, k)],
    ['searched', (k: number) => runWorkflow(searched, k)],
    ['ReAct', (k: number) => runReact(k)],
  ] as const) {
    const before = await measure(sample, allOk, run(0));
    const after = await measure(sample, allOk, run(DEFAULT_SHORTLIST_SIZE));
    rows.push({ name, before, after });
    for (const [label, m] of [
      [`all ${descriptors.length}`, before],
      [`shortlist ${DEFAULT_SHORTLIST_SIZE}`, after],
    ] as const) {
      console.log(
        `${name.padEnd(18)} ${label.padEnd(16)} ${(m.requests / m.queries).toFixed(1).padStart(11)} ${Math.round(
          m.inputTokens / m.queries,
        )
          .toString()
          .padStart(12)} ${Math.round(m.cachedInputTokens / m.queries)
          .toString()
          .padStart(13)} ${(m.bytes / m.requests / 1024).toFixed(1).padStart(12)}  ${dollars(m).toFixed(5)}`,
      );
    }
  }
  console.log('ratios (before / after, input tokens per query):');
  for (const r of rows) {
    console.log(
      `  ${r.name.padEnd(9)} ${(r.before.inputTokens / r.after.inputTokens).toFixed(2)}x fewer input tokens, ${(dollars(r.before) / dollars(r.after)).toFixed(2)}x lower cost with prompt caching, requests ${(r.before.requests / r.before.queries).toFixed(1)} → ${(r.after.requests / r.after.queries).toFixed(1)} per query`,
    );
  }
  const g = rows[0]!;
  const react = rows[2]!;
  console.log(
    `  G0 vs ReAct with the shortlist: ${(g.after.inputTokens / react.after.inputTokens).toFixed(2)}x the input tokens of ReAct per query`,
  );

  if (!process.argv.includes('--skip-latency')) await latency(allOk);

  const recall = await measureDomain(domain, 0);
  console.log(
    `shortlist recall at k = ${DEFAULT_SHORTLIST_SIZE} on ${domain} D_val: workflow positions ${recallAt(recall.val.workflow, DEFAULT_SHORTLIST_SIZE).toFixed(3)}, ReAct ${recallAt(recall.val.react, DEFAULT_SHORTLIST_SIZE).toFixed(3)} (every domain: npx tsx benchmarks/tool-shortlist-recall.ts)`,
  );
}

await main();
