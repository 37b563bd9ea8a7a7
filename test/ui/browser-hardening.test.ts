import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSpa } from '../../src/ui/server/spa.js';
import { startUiServer, type UiServer } from '../../src/ui/server/serve.js';
import { launchChromium, type TestBrowser } from '../support/browser.js';
import { runSearch, searchArgs, writeSearchFixture } from './ui-fixture.js';

/**
 * The web UI in chromium where a probe found gaps: an address with a broken %-escape shows an error
 * (not a blank page), a finished run's test records open from its page, and the search tree's edge
 * labels do not overlap when a candidate has several children. Every wait is for something on the page.
 */
const WAIT = 300_000;
const fx = writeSearchFixture({ records: 14 });
const db = join(fx.dir, 'flowscout.db');
let server: UiServer;
let b: TestBrowser;
let page: Page;
let runId: string;

beforeAll(async () => {
  const spaDir = await ensureSpa();
  // Three children per expansion: the root fans out, so edge labels sit side by side.
  await runSearch([...searchArgs(fx, db, { iterations: 4 }), '--children', '3']);
  server = await startUiServer({ db, port: 0, host: '127.0.0.1', spaDir, pollMs: 250 });
  runId = ((await (await fetch(new URL('/api/runs', server.url))).json()) as { runs: Array<{ id: string }> }).runs[0]!
    .id;
  b = await launchChromium();
  page = await b.context.newPage();
  page.setDefaultTimeout(WAIT);
});

afterAll(async () => {
  await b?.close();
  await server?.close();
});

describe('the web UI where a probe found gaps', () => {
  it('shows an error for an address with a broken %-escape', async () => {
    await page.goto(`${server.url}#/runs/%E0%A4%A`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('not valid');
  });

  it("opens a test record from the run's page", async () => {
    await page.goto(`${server.url}#/runs/${encodeURIComponent(runId)}`);
    await page.getByTestId('test-records-best').click();
    const testRow = page
      .getByTestId('record-row')
      .filter({ has: page.locator('td', { hasText: /^test$/ }) })
      .first();
    await testRow.waitFor();
    await testRow.getByRole('link').click();
    await page.getByTestId('query').waitFor();
    expect(await page.getByTestId('query').textContent()).not.toContain('not stored');
    await page.getByTestId('alignment').waitFor();
  });

  it('draws the search tree with no two edge labels overlapping', async () => {
    await page.goto(`${server.url}#/runs/${encodeURIComponent(runId)}`);
    await page.getByTestId('search-tree').waitFor();
    const tree = (
      (await (await fetch(new URL(`/api/runs/${runId}`, server.url))).json()) as {
        tree: Array<{ parent: string | null; summary: string }>;
      }
    ).tree;
    const labelled = tree.filter((n) => n.parent !== null && n.summary).length;
    expect(tree.filter((n) => n.parent === 'c0').length).toBeGreaterThanOrEqual(3);
    const labels = page.locator('.react-flow__edge-textwrapper');
    await expect.poll(() => labels.count(), { timeout: WAIT }).toBe(labelled);
    const boxes = (await Promise.all((await labels.all()).map((l) => l.boundingBox()))).filter(
      (x): x is NonNullable<typeof x> => x !== null,
    );
    expect(boxes).toHaveLength(labelled);
    const overlaps: string[] = [];
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((c, j) => {
        if (a.x < c.x + c.width && c.x < a.x + a.width && a.y < c.y + c.height && c.y < a.y + a.height)
          overlaps.push(`${i} and ${i + 1 + j}`);
      }),
    );
    expect(overlaps).toEqual([]);
  });
});
