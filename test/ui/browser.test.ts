import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmNode, ToolNode, Workflow } from '../../src/graph/schema.js';
import { ensureSpa } from '../../src/ui/server/spa.js';
import { startUiServer, type UiServer } from '../../src/ui/server/serve.js';
import { launchChromium, type TestBrowser } from '../support/browser.js';
import { runSearch, searchArgs, startSearch, writeSearchFixture } from './ui-fixture.js';

/**
 * The web UI in a real browser (Debian's chromium through playwright-core) over a store filled by
 * real offline searches: a person clicks runs → run → candidate → record and sees the tree, the
 * workflow and its diff, the records worst first and the aligned calls; a search running in another
 * process shows up and grows without a reload; a query full of markup is shown as text, never run.
 * Every wait is for something on the page (generous timeouts, no fixed sleeps).
 */
const WAIT = 300_000;
const PAYLOAD = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> & "quoted" </div>`;
const fx = writeSearchFixture({ records: 14 });
const db = join(fx.dir, 'flowscout.db');
const htmlRecords = join(fx.dir, 'records-html.jsonl');
const records = readFileSync(fx.records, 'utf8')
  .trim()
  .split('\n')
  .map(
    (l) =>
      JSON.parse(l) as { id: string; query: string; calls: Array<{ tool: string; args: Record<string, unknown> }> },
  );
let server: UiServer;
let b: TestBrowser;
let page: Page;
let cleanRun: string;
let htmlRun: string;

async function apiJson(path: string): Promise<any> {
  return (await fetch(new URL(path, server.url))).json();
}

beforeAll(async () => {
  const spaDir = await ensureSpa();
  await runSearch(searchArgs(fx, db, { iterations: 3 }));
  writeFileSync(
    htmlRecords,
    records.map((r) => JSON.stringify({ ...readRecord(r.id), query: `${PAYLOAD} ${r.query}` })).join('\n') + '\n',
  );
  await runSearch(searchArgs(fx, db, { iterations: 1, records: htmlRecords }));
  server = await startUiServer({
    db,
    port: 0,
    host: '127.0.0.1',
    spaDir,
    pollMs: 250,
    benchDirs: [join(import.meta.dirname, '..', '..', 'docs', 'results', 'offline-2026-11-30')],
  });
  const runs = (await apiJson('/api/runs')).runs as Array<{ id: string; data: string }>;
  cleanRun = runs.find((r) => r.data === fx.records)!.id;
  htmlRun = runs.find((r) => r.data === htmlRecords)!.id;
  b = await launchChromium();
  page = await b.context.newPage();
  page.setDefaultTimeout(WAIT);
  page.on('dialog', (d) => void d.dismiss());
});

afterAll(async () => {
  await b?.close();
  await server?.close();
});

function readRecord(id: string): Record<string, unknown> {
  const line = readFileSync(fx.records, 'utf8')
    .trim()
    .split('\n')
    .find((l) => (JSON.parse(l) as { id: string }).id === id)!;
  return JSON.parse(line) as Record<string, unknown>;
}

describe('the web UI in chromium', () => {
  it('clicks through runs → run → candidate → record and shows what each page promises', async () => {
    await page.goto(server.url);
    const row = page.getByTestId(`run-row-${cleanRun}`);
    await expect(row.textContent()).resolves.toContain('done');
    expect(await row.textContent()).toContain('OFFLINE');
    await row.getByRole('link', { name: cleanRun }).click();

    // The run: tree with every candidate, the best marked, visits and mean reward on hover.
    const view = await apiJson(`/api/runs/${cleanRun}`);
    await page.getByTestId('search-tree').waitFor();
    for (const n of view.tree) await page.getByTestId(`tree-node-${n.id}`).waitFor();
    const best = view.tree.find((n: any) => n.best);
    const bestNode = page.getByTestId(`tree-node-${best.id}`);
    expect(await bestNode.textContent()).toContain('★');
    await bestNode.hover();
    await page
      .getByRole('tooltip')
      .filter({ hasText: `visits ${best.visits}` })
      .waitFor({ state: 'visible' });
    await page.getByTestId('val-chart').waitFor();
    expect(await page.getByTestId('budget').textContent()).toContain('of 3');

    // A child with an edit: its graph, its diff, its plan, its records worst first.
    const child = view.tree.find((n: any) => n.parent !== null && n.kind === 'ok');
    await page.getByTestId(`tree-node-${child.id}`).click();
    await page
      .getByTestId('edit-summary')
      .filter({ hasText: child.summary.slice(0, 20) })
      .waitFor();
    await page.locator('.wf-llm').first().waitFor();
    expect(await page.locator('.wf-tool').count()).toBeGreaterThan(0);
    expect(
      (await page.locator('[data-diff]:not([data-diff=same])').count()) +
        (await page.getByTestId('diff-list').locator('li').count()),
    ).toBeGreaterThan(0);
    expect(await page.getByTestId('edit-plan').textContent()).toContain('"edits"');
    const rows = page.getByTestId('records-table').getByTestId('record-row');
    await rows.first().waitFor();
    const scores = (await rows.locator('td:nth-child(3)').allTextContents()).map(Number);
    expect(scores.length).toBeGreaterThan(3);
    expect([...scores].sort((x, y) => x - y)).toEqual(scores);
    await page.getByTestId('sort-tc').click();
    await page.getByTestId('sort-tc').filter({ hasText: '▲' }).waitFor();
    const tcs = (await rows.locator('td:nth-child(4)').allTextContents()).map(Number);
    expect([...tcs].sort((x, y) => x - y)).toEqual(tcs);

    // The worst record: query, reference and answer, calls aligned, every node observed.
    const first = rows.first().getByRole('link');
    const recordId = (await first.textContent())!;
    await first.click();
    const query = records.find((r) => r.id === recordId)!.query;
    await page.getByTestId('query').filter({ hasText: query }).waitFor();
    await page.getByTestId('reference').waitFor();
    await page.getByTestId('answer').waitFor();
    // Its scores are the offline policy's, and the page says so beside them.
    expect(await page.getByTestId('record-scores').textContent()).toContain('OFFLINE');
    const kinds = await page
      .getByTestId('alignment')
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((t) => t.getAttribute('data-kind')));
    expect(kinds.length).toBeGreaterThan(0);
    expect(kinds.every((k) => ['match', 'wrong-args', 'reordered', 'missing', 'extra'].includes(k ?? ''))).toBe(true);
    // Where the reference arguments come from, with how many the run called and passed right.
    const sourceRows = await page
      .getByTestId('argument-sources')
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((t) => [...t.querySelectorAll('td')].map((c) => c.textContent ?? '')));
    expect(sourceRows.map((r) => r[0])).toEqual([
      'written in the request',
      "found in an earlier call's result",
      'neither (a constant, a default)',
    ]);
    const referenceArgs = records
      .find((r) => r.id === recordId)!
      .calls.reduce((n, c) => n + Object.values(c.args).filter((v) => v !== null && v !== '').length, 0);
    expect(sourceRows.reduce((n, r) => n + Number(r[1]), 0)).toBe(referenceArgs);
    await page.locator('[data-testid^=obs-]').first().waitFor();
    const sources = await page.getByTestId('call-source').allTextContents();
    expect(sources.some((s) => /replay (hit|miss)|simulated/.test(s))).toBe(true);
  });

  it("draws a branch's condition legibly: the router lists each branch's tools and words, each guarded edge names its branch", async () => {
    const view = await apiJson(`/api/runs/${cleanRun}`);
    const root = view.tree.find((n: any) => n.parent === null);
    const g0 = (await apiJson(`/api/runs/${cleanRun}/candidates/${root.id}`)).workflow as Workflow;
    const router = g0.nodes.find((n) => n.kind === 'llm' && n.choices) as LlmNode | undefined;
    // The mined G0 of these records has recurring request types: a router with structured choices.
    expect(router?.choices?.options.length).toBeGreaterThan(1);
    const option = router!.choices!.options[0]!;
    await page.goto(`${server.url}#/runs/${cleanRun}/c/${root.id}`);
    const node = page.getByTestId(`wf-choices-${router!.id}`);
    await node.waitFor();
    const text = (await node.textContent())!;
    expect(text).toContain(`chooses ${router!.choices!.field}`);
    expect(text).toContain(`${option.value}: ${option.tools.join(' → ')}`.slice(0, 40));
    if (router!.choices!.otherwise) expect(text).toContain(`${router!.choices!.otherwise}: when no branch fits`);
    // The edge into the branch says which branch it is, not a raw field test.
    const labels = await page.locator('.react-flow__edge-text').allTextContents();
    expect(labels.some((l) => l.startsWith(`${option.value}: ${option.tools[0]}`))).toBe(true);
    expect(labels.some((l) => /^if route eq/.test(l))).toBe(false);
  });

  it("shows a router's learned fallback beside its branches", async () => {
    const view = await apiJson(`/api/runs/${cleanRun}`);
    const root = view.tree.find((n: any) => n.parent === null);
    const learned = (await apiJson(`/api/runs/${cleanRun}/candidates/${root.id}`)).workflow as Workflow;
    const router = learned.nodes.find((n) => n.kind === 'llm' && n.choices) as LlmNode;
    const fallback = router.choices!.options[0]!.value;
    router.choices!.fallback = fallback;
    // And a binding that reads an earlier call's result: its step shows where the argument comes from.
    const call = records.map((r) => r.calls.find((c) => Object.keys(c.args).length > 0)).find(Boolean) as
      { tool: string; args: Record<string, unknown> } | undefined;
    const step = learned.nodes.find((n): n is ToolNode => n.kind === 'tool' && !n.tools?.length)!;
    step.bind = [
      {
        tool: call!.tool,
        param: Object.keys(call!.args)[0]!,
        source: { from: 'output', tool: call!.tool, path: 'results[*].id', pick: 'match', by: 'name' },
      },
    ];
    // A search that starts from this workflow stores it as its root candidate.
    const from = join(fx.dir, 'with-fallback.workflow.json');
    writeFileSync(from, JSON.stringify(learned));
    const recordsFile = join(fx.dir, 'fallback-records.jsonl');
    writeFileSync(recordsFile, readFileSync(fx.records, 'utf8'));
    await runSearch([
      ...searchArgs(fx, db, { iterations: 1, records: recordsFile }),
      '--from',
      from,
      '--strategy',
      'none',
    ]);
    const run = ((await apiJson('/api/runs')).runs as Array<{ id: string; data: string }>).find(
      (r) => r.data === recordsFile,
    )!;
    const start = (await apiJson(`/api/runs/${run.id}`)).tree.find((n: any) => n.parent === null);
    await page.goto(`${server.url}#/runs/${run.id}/c/${start.id}`);
    const node = page.getByTestId(`wf-choices-${router.id}`);
    await node.waitFor();
    const text = (await node.textContent())!;
    expect(text).toContain(`${fallback}: also when no branch clearly fits (learned)`);
    if (router.choices!.otherwise) expect(text).toContain(`${router.choices!.otherwise}: none of the above`);
    expect(await page.getByTestId(`wf-bind-${step.id}`).textContent()).toContain(
      `${Object.keys(call!.args)[0]} ← ${call!.tool} → results[*].id (item named by name)`.slice(0, 60),
    );
  });

  it('compares two candidates: both graphs and per-record differences', async () => {
    await page.goto(`${server.url}#/runs/${cleanRun}`);
    const view = await apiJson(`/api/runs/${cleanRun}`);
    const [a, c] = view.tree.filter((n: any) => n.valScore !== undefined);
    await page.getByRole('checkbox', { name: `compare ${a.id}` }).check();
    await page.getByRole('checkbox', { name: `compare ${c.id}` }).check();
    await page.getByTestId('compare-link').click();
    await page.getByTestId(`compare-graph-${a.id}`).locator('.wf-node').first().waitFor();
    await page.getByTestId(`compare-graph-${c.id}`).locator('.wf-node').first().waitFor();
    expect(await page.getByTestId('compare-table').locator('tbody tr').count()).toBeGreaterThan(0);
  });

  it('shows a query full of markup as text: nothing from it becomes an element or runs', async () => {
    const cand = await apiJson(`/api/runs/${htmlRun}/candidates/c0`);
    const rec = cand.records[0];
    await page.goto(`${server.url}#/runs/${htmlRun}/c/c0/r/${rec.split}/${encodeURIComponent(rec.recordId)}`);
    await page.getByTestId('query').filter({ hasText: PAYLOAD }).waitFor();
    await page.locator('[data-testid^=obs-]').first().waitFor();
    expect(await page.locator('[data-testid^=obs-]').first().textContent()).toContain(
      '<script>window.__xss=2</script>',
    );
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate('typeof window.__xss')).toBe('undefined');
  });

  it('shows a search running in another process appear and grow without a reload, then interrupted once killed', async () => {
    await page.goto(server.url);
    await page.getByTestId(`run-row-${cleanRun}`).waitFor();
    const before = await page.locator('[data-testid^=run-row-]').count();
    await page.evaluate('window.__sameDocument = true');
    const live = startSearch(searchArgs(fx, db, { iterations: 150, seed: 5 }));
    try {
      // The new run appears on the open runs page.
      await page.locator('[data-testid^=run-row-]').nth(before).waitFor();
      const liveId = (await page.locator('[data-testid^=run-row-]').first().getAttribute('data-testid'))!.replace(
        'run-row-',
        '',
      );
      expect(liveId).not.toBe(cleanRun);
      expect(await page.getByTestId(`run-row-${liveId}`).textContent()).toContain('running');
      await page.getByRole('link', { name: liveId }).click();
      await page.getByTestId('search-tree').waitFor();
      const count = async () => Number((await page.getByTestId('candidate-count').textContent())!.match(/\d+/)![0]);
      await page.getByTestId('candidate-count').waitFor();
      const seen = await count();
      // New candidates are drawn as the search commits them.
      // (the app's content security policy forbids eval, so waits go through locators)
      await page.getByTestId(`tree-node-c${seen}`).waitFor();
      expect(await page.evaluate('window.__sameDocument')).toBe(true);
      expect(await count()).toBeGreaterThan(seen);

      live.child.kill('SIGKILL');
      await live.done;
      await page.getByRole('link', { name: 'Runs' }).click();
      const row = page.getByTestId(`run-row-${liveId}`);
      await row.filter({ hasText: 'interrupted' }).waitFor();
      expect(await row.textContent()).toContain(`flowscout search --resume ${liveId} --db ${db}`);
    } finally {
      if (live.child.exitCode === null && live.child.signalCode === null) live.child.kill('SIGKILL');
      await live.done;
    }
  });

  it('shows a benchmark report with its tables and figures', async () => {
    await page.goto(`${server.url}#/bench/0`);
    await page.getByTestId('bench-table').first().waitFor();
    const img = page.locator('img.figure').first();
    await img.waitFor();
    await expect
      .poll(
        () =>
          img.evaluate((i) =>
            Boolean(
              (i as unknown as { complete: boolean; naturalWidth: number }).complete &&
              (i as unknown as { naturalWidth: number }).naturalWidth > 0,
            ),
          ),
        { timeout: WAIT },
      )
      .toBe(true);
  });
});
