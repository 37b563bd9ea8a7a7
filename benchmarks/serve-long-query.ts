/**
 * Serve latency by request length: `flowscout serve`'s HTTP endpoint (in-process, offline policy) on
 * the searched Travel workflow of test/fixtures/workflows/searched/ over the bundled Travel tools
 * (replayed), asked queries of about 1k, 5k and 20k characters (many clauses: a Travel request
 * repeated), with `/health` timed while each long run is in flight. Prints one line per length.
 *
 *   npx tsx benchmarks/serve-long-query.ts [--timeout 2000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledTrajectPaths } from '../src/records/bundled.js';
import { importTraject } from '../src/records/import/traject.js';
import { writeImportFolder } from '../src/records/import/write-import.js';
import { assertValidWorkflow } from '../src/graph/validate.js';
import { createOfflinePolicy } from '../src/policies/offline/offline-policy.js';
import { startHttpServer } from '../src/serve/http-server.js';
import { createWorkflowService } from '../src/serve/workflow-service.js';
import { loadToolConfig } from '../src/tools/load-tool-config.js';
import { readJsonFile } from '../src/util/json-file.js';

const timeoutAt = process.argv.indexOf('--timeout');
const requestTimeoutMs = timeoutAt > 0 ? Number(process.argv[timeoutAt + 1]) : 2_000;
const dir = mkdtempSync(join(tmpdir(), 'flowscout-serve-bench-'));
try {
  const paths = bundledTrajectPaths('Travel');
  const imported = importTraject(paths.trajQuery, paths.tools);
  writeImportFolder(dir, imported.records, imported.tools);
  const registry = await loadToolConfig(join(dir, 'tools.config.json'));
  const file = 'test/fixtures/workflows/searched/travel-best.workflow.json';
  const workflow = assertValidWorkflow(readJsonFile(file), registry.list(), file);
  const service = createWorkflowService({
    workflow,
    policy: createOfflinePolicy({ tools: registry.list() }),
    tools: registry,
  });
  const server = await startHttpServer({ service, requestTimeoutMs });
  const unit =
    'Find hotels near 40.7128, -74.0060 in New York City for 2 adults. Then show the weather in Paris tomorrow. ';
  // Warm-up (argument validators compiled, indexes built), not timed.
  await fetch(`${server.url}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: unit }),
  }).then((r) => r.json());
  console.log(
    `serve POST /run, offline policy (no LLM), workflow "${workflow.name}", --timeout ${requestTimeoutMs} ms`,
  );
  for (const chars of [1_000, 5_000, 19_990]) {
    const query = unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
    const started = performance.now();
    let done = false;
    const run = fetch(`${server.url}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    }).then(async (r) => {
      done = true;
      return { status: r.status, body: (await r.json()) as { calls?: unknown[] } };
    });
    const health: number[] = [];
    while (!done) {
      const t = performance.now();
      await fetch(`${server.url}/health`).then((r) => r.json());
      if (!done) health.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
    const res = await run;
    const ms = performance.now() - started;
    const worst = health.length > 0 ? Math.max(...health) : 0;
    console.log(
      `${String(query.length).padStart(6)} chars: ${res.status} in ${ms.toFixed(0).padStart(5)} ms (${res.body.calls?.length ?? 0} calls) · /health during the run: ${health.length} answers, slowest ${worst.toFixed(1)} ms`,
    );
  }
  await server.close(0);
  await registry.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
