// Screenshots of the web UI for docs/ui/, from a real offline search on the bundled TRAJECT-Bench
// Travel records (no model anywhere): `npx tsx scripts/ui-screenshots.ts [--db store.db] [--out docs/ui]`.
// Without --db it imports the bundled data and runs `flowscout search --iterations 8` into a fresh
// temporary store first, then serves the best workflow (`serve --http --db` into the same store) to
// 16 held-out Travel requests and 8 Finance requests, for the served-workflow page. Chromium is
// Debian's (/usr/bin/chromium), driven by playwright-core.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { workflowHash } from '../src/graph/hash.js';
import type { Workflow } from '../src/graph/schema.js';
import { startUiServer } from '../src/ui/server/serve.js';
import { openStore } from '../src/store/open-store.js';
import { launchChromium } from '../test/support/browser.js';

const { values } = parseArgs({
  options: { db: { type: 'string' }, out: { type: 'string', default: 'docs/ui' }, bench: { type: 'string' } },
});
const repo = resolve(import.meta.dirname, '..');
const bin = join(repo, 'bin', 'flowscout.js');
const tmp = mkdtempSync(join(tmpdir(), 'flowscout-shots-'));
let db = values.db;
if (!db) {
  db = join(tmp, 'flowscout.db');
  const run = (args: string[]) =>
    execFileSync(process.execPath, [bin, ...args], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, FLOWSCOUT_MODEL: '' },
    });
  run(['import', 'traject', '--domain', 'Travel', '--out', join(tmp, 'travel')]);
  run([
    'search',
    '--records',
    join(tmp, 'travel', 'records.jsonl'),
    '--tools',
    join(tmp, 'travel', 'tools.config.json'),
    '--iterations',
    '8',
    '--db',
    db,
    '--out',
    join(tmp, 'out'),
  ]);
  run(['import', 'traject', '--domain', 'Finance', '--out', join(tmp, 'finance')]);
  await serveRequests(join(tmp, 'out', 'best.workflow.json'), join(tmp, 'travel', 'tools.config.json'), db, [
    ...queries(join(tmp, 'out', 'test.records.jsonl'), 16),
    ...queries(join(tmp, 'finance', 'records.jsonl'), 8),
  ]);
}
const served: Workflow | undefined = values.db
  ? undefined
  : (JSON.parse(readFileSync(join(tmp, 'out', 'best.workflow.json'), 'utf8')) as Workflow);

/** The first `n` queries of a records file. */
function queries(file: string, n: number): string[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(0, n)
    .map((l) => (JSON.parse(l) as { query: string }).query);
}

/** Serves `workflow` over HTTP with `--db`, sends each query to POST /run, and stops the server. */
async function serveRequests(workflow: string, tools: string, store: string, requests: string[]): Promise<void> {
  const child = spawn(
    process.execPath,
    [bin, 'serve', workflow, '--tools', tools, '--http', '--port', '0', '--db', store],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, FLOWSCOUT_MODEL: '' },
    },
  );
  let stderr = '';
  const url = await new Promise<string>((ok, fail) => {
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /HTTP: POST (http:\/\/127\.0\.0\.1:\d+)\/run/.exec(stderr);
      if (m) ok(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  try {
    for (const query of requests) {
      const res = await fetch(`${url}/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      await res.text();
    }
  } finally {
    child.kill('SIGTERM');
  }
}
const store = openStore(db, { mustExist: true });
const run = store.listRuns()[0]!;
const cands = store.loadCandidates(run.id);
// The best candidate (its diff against its parent is on its page) and its worst validation record.
const best = run.bestCandidate ?? cands[0]!.id;
const worst = store
  .loadEvaluations(run.id, best)
  .filter((e) => e.split === 'val')
  .sort((a, b) => a.tc + a.es - (b.tc + b.es))[0]!;
store.close();

const out = resolve(values.out!);
mkdirSync(out, { recursive: true });
const server = await startUiServer({
  db,
  port: 0,
  host: '127.0.0.1',
  ...(values.bench ? { benchDirs: [values.bench] } : {}),
  ...(served ? { workflows: [served] } : {}),
  onBuild: () => console.log('building the UI…'),
});
const b = await launchChromium();
try {
  const page = await b.context.newPage();
  // Long pages are cut at `height` (the records table and the trace go on below); with `element`, only
  // that element is shot.
  const shot = async (
    hash: string,
    wait: string,
    name: string,
    opts: { height?: number; hover?: string; element?: string } = {},
  ) => {
    await page.setViewportSize({ width: 1400, height: opts.height ?? 900 });
    await page.goto(`${server.url}${hash}`);
    await page.locator(wait).first().waitFor({ timeout: 60_000 });
    if (opts.hover) await page.locator(opts.hover).hover();
    if (opts.element) await page.locator(opts.element).screenshot({ path: join(out, name) });
    else await page.screenshot({ path: join(out, name), fullPage: opts.height === undefined });
    console.log(`wrote ${join(values.out!, name)}`);
  };
  await shot('#/', '[data-testid=runs-table] tbody tr', 'runs.png');
  await shot(`#/runs/${run.id}`, '[data-testid^=tree-node-]', 'run-tree.png', {
    height: 1500,
    hover: `[data-testid=tree-node-${best}]`,
  });
  await shot(`#/runs/${run.id}/c/${best}`, '[data-testid^=wf-node-]', 'candidate-diff.png', { height: 1700 });
  // The best workflow alone, at the scale the page opens it with (the frame scrolls for the rest).
  await shot(`#/runs/${run.id}/c/${best}`, '[data-testid^=wf-node-]', 'workflow.png', {
    height: 1100,
    element: '[data-testid=workflow-graph]',
  });
  // G0 (the root candidate): its router's branches with their conditions.
  const root = cands.find((c) => c.parent === null) ?? cands[0]!;
  await shot(`#/runs/${run.id}/c/${root.id}`, '[data-testid^=wf-choices-]', 'g0-branches.png', {
    height: 1100,
    element: '[data-testid=workflow-graph]',
  });
  await shot(
    `#/runs/${run.id}/c/${best}/r/val/${encodeURIComponent(worst.recordId)}`,
    '[data-testid=alignment]',
    'record-trace.png',
    { height: 2000 },
  );
  if (values.bench) await shot('#/bench/0', 'h1', 'bench-report.png', { height: 1800 });
  if (served)
    await shot(`#/workflows/${workflowHash(served)}`, '[data-testid=deviating-variant]', 'served-workflow.png', {
      height: 1250,
    });
} finally {
  await b.close();
  await server.close();
  if (!values.db) rmSync(tmp, { recursive: true, force: true });
}
