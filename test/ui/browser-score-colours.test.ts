import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSpa } from '../../src/ui/server/spa.js';
import { startUiServer, type UiServer } from '../../src/ui/server/serve.js';
import { launchChromium, type TestBrowser } from '../support/browser.js';
import { runSearch, searchArgs, writeSearchFixture } from './ui-fixture.js';

/**
 * The search tree's colours are a fixed scale (validation score 0 red → 1 green), the same in every
 * run, and the legend says so with this run's range beside it: candidates whose scores differ by
 * 0.005 look alike instead of being drawn red and green. The store comes from a real offline search;
 * its candidates' validation scores are then set to a narrow spread (0.431 … 0.436), as a run whose
 * edits barely move the score has. Every wait is for something on the page.
 */
const WAIT = 300_000;
const fx = writeSearchFixture({ records: 14 });
const db = join(fx.dir, 'flowscout.db');
const Sqlite = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
let server: UiServer;
let b: TestBrowser;
let page: Page;
let runId: string;
let scores: Map<string, number>;

beforeAll(async () => {
  const spaDir = await ensureSpa();
  await runSearch(searchArgs(fx, db, { iterations: 3 }));
  const sql = new Sqlite(db);
  try {
    runId = (sql.prepare('SELECT id FROM runs').get() as { id: string }).id;
    const ids = (
      sql.prepare('SELECT id FROM candidates WHERE run_id = ? AND val_score IS NOT NULL ORDER BY seq').all(runId) as {
        id: string;
      }[]
    ).map((r) => r.id);
    scores = new Map(ids.map((id, i) => [id, i === 0 ? 0.431 : i === ids.length - 1 ? 0.436 : 0.433]));
    const set = sql.prepare('UPDATE candidates SET val_score = ? WHERE run_id = ? AND id = ?');
    for (const [id, v] of scores) set.run(v, runId, id);
  } finally {
    sql.close();
  }
  server = await startUiServer({ db, port: 0, host: '127.0.0.1', spaDir, pollMs: 250 });
  b = await launchChromium();
  page = await b.context.newPage();
  page.setDefaultTimeout(WAIT);
});

afterAll(async () => {
  await b?.close();
  await server?.close();
});

/** The hue (degrees) of a CSS colour as the browser computed it (`rgb(r, g, b)`). */
function hue(css: string): number {
  const [r, g, bl] = css
    .match(/\d+(\.\d+)?/g)!
    .slice(0, 3)
    .map((x) => Number(x) / 255) as [number, number, number];
  const max = Math.max(r, g, bl);
  const d = max - Math.min(r, g, bl);
  if (d === 0) return 0;
  const h = max === r ? ((g - bl) / d) % 6 : max === g ? (bl - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

describe('score colours in the web UI (chromium)', () => {
  it('a 0.005 range of validation scores is drawn in one colour of the fixed scale, and the legend gives the scale and the range', async () => {
    expect(scores.size).toBeGreaterThanOrEqual(2);
    await page.goto(`${server.url}#/runs/${encodeURIComponent(runId)}`);
    const legend = page.getByTestId('tree-legend');
    await legend.waitFor();
    expect((await legend.textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      'Colour: validation score on a fixed scale, 0 1 (this run: 0.431 → 0.436).',
    );
    const hues = new Map<string, number>();
    for (const id of scores.keys()) {
      const node = page.getByTestId(`tree-node-${id}`);
      await node.waitFor();
      hues.set(id, hue(await node.evaluate((e) => e.ownerDocument.defaultView!.getComputedStyle(e).backgroundColor)));
    }
    // On the fixed scale a score s has the hue 120·s: about 52° (amber) for all of them, not 0° to 120°.
    // (The hue is written in whole degrees and read back through 8-bit RGB: within 2°.)
    for (const [id, h] of hues) expect(Math.abs(h - 120 * scores.get(id)!), id).toBeLessThan(2);
    expect(Math.max(...hues.values()) - Math.min(...hues.values())).toBeLessThan(2);
    // The candidates table colours its S_val cells on the same scale.
    const lowest = [...scores].find(([, v]) => v === 0.431)![0];
    const cell = page.getByTestId(`cand-row-${lowest}`).locator('td.num').nth(2);
    expect(
      Math.abs(
        hue(await cell.evaluate((e) => e.ownerDocument.defaultView!.getComputedStyle(e).backgroundColor)) -
          hues.get(lowest)!,
      ),
    ).toBeLessThan(2);
  });
});
