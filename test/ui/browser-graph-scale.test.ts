import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSpa } from '../../src/ui/server/spa.js';
import { startUiServer, type UiServer } from '../../src/ui/server/serve.js';
import { launchChromium, type TestBrowser } from '../support/browser.js';
import { runSearch, searchArgs, writeSearchFixture } from './ui-fixture.js';

/**
 * The web UI draws a large workflow at a size a person can read: the workflow mined from every
 * bundled TRAJECT-Bench Travel record (a real offline search; over 30 nodes) opens at 100 % in a
 * frame that scrolls, its node labels at least 11 px high; "Fit" shrinks the whole graph into the
 * frame, "100 %" brings it back, zoom in enlarges it. A small graph (this run's search tree) is
 * fitted whole by default. Every wait is for something on the page.
 */
const WAIT = 300_000;
const fx = writeSearchFixture({ domain: 'Travel', records: 1000 });
const db = join(fx.dir, 'flowscout.db');
let server: UiServer;
let b: TestBrowser;
let page: Page;
let runId: string;
let workflowNodes: number;

type Rect = { left: number; top: number; right: number; bottom: number; width: number; height: number };

async function apiJson(path: string): Promise<any> {
  return (await fetch(new URL(path, server.url))).json();
}

beforeAll(async () => {
  const spaDir = await ensureSpa();
  await runSearch(searchArgs(fx, db, { iterations: 1 }));
  server = await startUiServer({ db, port: 0, host: '127.0.0.1', spaDir, pollMs: 250 });
  runId = (await apiJson('/api/runs')).runs[0].id;
  workflowNodes = (await apiJson(`/api/runs/${runId}/candidates/c0`)).workflow.nodes.length;
  b = await launchChromium();
  page = await b.context.newPage();
  page.setDefaultTimeout(WAIT);
});

afterAll(async () => {
  await b?.close();
  await server?.close();
});

const rectOf = (l: Locator): Promise<Rect> =>
  l.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  });
/** The union of every drawn node's box: the graph as a person sees it. */
const graphRect = (graph: Locator): Promise<Rect> =>
  graph.locator('.react-flow__node').evaluateAll((els) => {
    const rs = els.map((e) => e.getBoundingClientRect());
    const left = Math.min(...rs.map((r) => r.left));
    const top = Math.min(...rs.map((r) => r.top));
    const right = Math.max(...rs.map((r) => r.right));
    const bottom = Math.max(...rs.map((r) => r.bottom));
    return { left, top, right, bottom, width: right - left, height: bottom - top };
  });
const scrollOf = (frame: Locator) =>
  frame.evaluate((f) => ({
    top: f.scrollTop,
    left: f.scrollLeft,
    overflowX: f.scrollWidth > f.clientWidth,
    overflowY: f.scrollHeight > f.clientHeight,
    clientWidth: f.clientWidth,
  }));

describe('a large workflow in chromium', () => {
  it('opens readable at 100 % in a scrolling frame; Fit shows it whole; 100 % restores it', async () => {
    expect(workflowNodes).toBeGreaterThan(30);
    await page.goto(`${server.url}#/runs/${encodeURIComponent(runId)}/c/c0`);
    const graph = page.getByTestId('workflow-graph');
    const frame = graph.getByTestId('graph-frame');
    const label = graph.locator('.wf-node .wf-id').first();
    await label.waitFor();
    expect(await graph.locator('.wf-node').count()).toBe(workflowNodes);

    // By default: the labels at least 11 px high, the graph larger than the frame, which scrolls.
    await graph
      .getByTestId('graph-zoom')
      .filter({ hasText: /^100 %$/ })
      .waitFor();
    const readable = (await rectOf(label)).height;
    expect(readable).toBeGreaterThanOrEqual(11);
    const s0 = await scrollOf(frame);
    expect(s0.overflowY).toBe(true);
    expect((await graphRect(graph)).height).toBeGreaterThan((await rectOf(frame)).height);
    expect(await graph.getByText('scroll or drag the background to see the rest').count()).toBe(1);
    const lowest = graph.locator('.wf-node').last();
    const frameBox = await rectOf(frame);
    await frame.hover();
    await page.mouse.wheel(0, 600);
    await expect.poll(async () => (await scrollOf(frame)).top, { timeout: WAIT }).toBeGreaterThan(s0.top);
    // A node below the frame's bottom edge comes into view when the frame is scrolled to it.
    await frame.evaluate((f) => void (f.scrollTop = f.scrollHeight));
    await expect.poll(async () => (await rectOf(lowest)).bottom <= frameBox.bottom + 1, { timeout: WAIT }).toBe(true);

    // Fit: the whole graph inside the frame, its width within the frame's, nothing to scroll.
    await graph.getByRole('button', { name: 'Fit' }).click();
    await expect.poll(async () => (await scrollOf(frame)).overflowY, { timeout: WAIT }).toBe(false);
    const fitted = await graphRect(graph);
    const fitFrame = await rectOf(frame);
    expect(fitted.width).toBeLessThanOrEqual((await scrollOf(frame)).clientWidth);
    expect(fitted.left).toBeGreaterThanOrEqual(fitFrame.left);
    expect(fitted.right).toBeLessThanOrEqual(fitFrame.right);
    expect(fitted.top).toBeGreaterThanOrEqual(fitFrame.top);
    expect(fitted.bottom).toBeLessThanOrEqual(fitFrame.bottom);
    expect((await scrollOf(frame)).overflowX).toBe(false);
    // This graph fitted whole is what was unreadable: its labels are smaller than 11 px.
    expect((await rectOf(label)).height).toBeLessThan(11);

    // 100 %: readable again, and the frame scrolls again.
    await graph.getByRole('button', { name: '100 %' }).click();
    await expect.poll(async () => (await rectOf(label)).height, { timeout: WAIT }).toBeCloseTo(readable, 0);
    expect((await scrollOf(frame)).overflowY).toBe(true);

    // Zoom in: larger than 100 %.
    await graph.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await rectOf(label)).height, { timeout: WAIT }).toBeGreaterThan(readable * 1.1);
    await graph.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(async () => (await rectOf(label)).height, { timeout: WAIT }).toBeCloseTo(readable, 0);
  });

  it('fits a graph that is readable whole: the run’s search tree shows every candidate without scrolling', async () => {
    await page.goto(`${server.url}#/runs/${encodeURIComponent(runId)}`);
    const tree = page.getByTestId('search-tree');
    const frame = tree.getByTestId('graph-frame');
    const view = await apiJson(`/api/runs/${runId}`);
    for (const n of view.tree) await page.getByTestId(`tree-node-${n.id}`).waitFor();
    await expect
      .poll(async () => Number((await tree.getByTestId('graph-zoom').textContent())!.replace(/\D/g, '')), {
        timeout: WAIT,
      })
      .toBeGreaterThanOrEqual(100);
    const s = await scrollOf(frame);
    expect(s.overflowX || s.overflowY).toBe(false);
    const whole = await graphRect(tree);
    const box = await rectOf(frame);
    expect(whole.left).toBeGreaterThanOrEqual(box.left);
    expect(whole.right).toBeLessThanOrEqual(box.right);
    expect(await tree.getByText('scroll or drag the background to see the rest').count()).toBe(0);
  });
});
