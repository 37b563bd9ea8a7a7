import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowHash } from '../../src/graph/hash.js';
import type { Workflow } from '../../src/graph/schema.js';
import { readRecordsFile } from '../../src/records/read-records.js';
import { ensureSpa } from '../../src/ui/server/spa.js';
import { startUiServer, type UiServer } from '../../src/ui/server/serve.js';
import type { WorkflowView } from '../../src/ui/server/workflow-view.js';
import { launchChromium, type TestBrowser } from '../support/browser.js';
import { cli } from '../support/cli-io.js';

/**
 * The served-workflow page in chromium: `flowscout serve --http --db` answers Travel and then
 * Finance requests with the searched Travel workflow (test/fixtures/workflows/searched/), and the
 * UI, given that workflow file, shows the runs' health and fitness over time (health as serve scored
 * each run when it stored it), the deviating variants with their
 * alignment drawn (the run above, the model below) and the drift verdict.
 */
const WAIT = 300_000;
const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin/flowscout.js');
const WORKFLOW = join(ROOT, 'test/fixtures/workflows/searched/travel-best.workflow.json');
const workflow = JSON.parse(readFileSync(WORKFLOW, 'utf8')) as Workflow;
const hash = workflowHash(workflow);
const dir = mkdtempSync(join(tmpdir(), 'flowscout-ui-conformance-'));
const db = join(dir, 'served.db');
let serve: ChildProcess | undefined;
let server: UiServer;
let b: TestBrowser;
let page: Page;

beforeAll(async () => {
  for (const domain of ['Travel', 'Finance'])
    expect((await cli(['import', 'traject', '--domain', domain, '--out', join(dir, domain)])).status).toBe(0);
  serve = spawn(
    process.execPath,
    [BIN, 'serve', WORKFLOW, '--tools', join(dir, 'Travel/tools.config.json'), '--http', '--port', '0', '--db', db],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    serve!.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /HTTP: POST (http:\/\/127\.0\.0\.1:\d+)\/run/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    serve!.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const travel = (await readRecordsFile(join(dir, 'Travel/records.jsonl'))).records.slice(0, 8);
  const finance = (await readRecordsFile(join(dir, 'Finance/records.jsonl'))).records.slice(0, 8);
  for (const r of [...travel, ...finance]) {
    const res = await fetch(`${url}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: r.query }),
    });
    // 502 when every tool call of the run failed (a Finance request to the Travel workflow); stored either way.
    expect([200, 502]).toContain(res.status);
    await res.text();
  }
  server = await startUiServer({ db, port: 0, host: '127.0.0.1', spaDir: await ensureSpa(), workflows: [workflow] });
  b = await launchChromium();
  page = await b.context.newPage();
  page.setDefaultTimeout(WAIT);
}, WAIT);

afterAll(async () => {
  serve?.kill('SIGTERM');
  await b?.close();
  await server?.close();
});

describe('the served-workflow page in chromium', () => {
  it('links the served workflow from the runs page and shows its verdict, health and fitness over time and deviating variants', async () => {
    const view = (await (await fetch(new URL(`/api/workflows/${hash}`, server.url))).json()) as WorkflowView;
    expect(view.runs).toHaveLength(16);

    await page.goto(server.url);
    const row = page.getByTestId(`served-${hash}`);
    expect(await row.textContent()).toContain('16');
    await row.getByRole('link', { name: workflow.name }).click();

    const verdict = page.getByTestId('drift-verdict');
    await verdict.waitFor();
    expect(await verdict.textContent()).toMatch(view.drift.drift ? /^Drift: / : /^No drift/);
    if (view.drift.processChanged) expect(await verdict.textContent()).toContain('the process changed');
    for (const reason of view.drift.reasons) expect(await verdict.textContent()).toContain(reason);
    expect(await verdict.textContent()).toContain(`next: ${view.drift.next}`);

    // One dot per run, oldest first, and the moving mean: health, then fitness.
    const health = page.getByTestId('health-chart');
    expect(await health.locator('circle').count()).toBe(16);
    await health.getByTestId('health-mean').waitFor();
    // Each run's health as serve scored it when it stored the run; red where its customer was told it failed.
    expect(view.runs.every((r) => r.health > 0 && r.health <= 1)).toBe(true);
    const failed = view.runs.filter((r) => r.status === 'error').length;
    expect(failed).toBeGreaterThan(0);
    expect(await health.locator('circle[fill="#dc2626"]').count()).toBe(failed);
    const titles = await health.locator('circle title').allTextContents();
    expect(titles[0]).toContain(`health ${view.runs[0]!.health.toFixed(3)}`);
    const chart = page.getByTestId('fitness-chart');
    expect(await chart.locator('circle').count()).toBe(16);
    await chart.getByTestId('fitness-mean').waitFor();

    // Each deviating variant's alignment: a column per move, the run above and the model below.
    expect(view.deviating.length).toBeGreaterThan(0);
    const first = page.getByTestId('deviating-variant').first();
    expect(await first.textContent()).toContain(`cost ${view.deviating[0]!.cost}`);
    const moves = view.deviating[0]!.moves;
    const runCells = first.locator('[data-testid^=run-move-]');
    const modelCells = first.locator('[data-testid^=model-move-]');
    expect(await runCells.count()).toBe(moves.length);
    expect(await modelCells.allTextContents()).toEqual(moves.map((m) => (m.kind === 'log' ? '»' : m.activity)));
    expect(await runCells.allTextContents()).toEqual(moves.map((m) => (m.kind === 'model' ? '»' : m.activity)));
    expect(await first.locator('[data-testid=run-move-log]').count()).toBe(
      moves.filter((m) => m.kind === 'log').length,
    );
  });

  it('says how to show a served workflow the UI was not given', async () => {
    await page.goto(`${server.url}#/workflows/${'0'.repeat(64)}`);
    const error = page.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toContain('flowscout ui --workflow <workflow.json>');
  });
});
