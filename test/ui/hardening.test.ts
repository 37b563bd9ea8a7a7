import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { createUiApp } from '../../src/ui/server/app.js';
import { runSearch, searchArgs, writeSearchFixture } from './ui-fixture.js';

/**
 * What a probe of the UI server found, each answered as a user expects: a broken %-escape is a 400
 * (not a 500 "bug"), an unknown run's event stream a 404 with nothing on the server console, the
 * test records of a finished run open like the others, and a link in a --bench folder that points
 * outside it is never served.
 */
const fx = writeSearchFixture({ records: 14 });
const db = join(fx.dir, 'flowscout.db');
const spaDir = join(fx.dir, 'spa');
const bench = join(fx.dir, 'bench');
let store: Store;
let app: ReturnType<typeof createUiApp>;
let runId: string;

const request = (path: string) => app.request(`http://127.0.0.1:4321${path}`);

beforeAll(async () => {
  await runSearch(searchArgs(fx, db, { iterations: 2 }));
  mkdirSync(spaDir);
  writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>app</title>');
  mkdirSync(bench);
  writeFileSync(join(bench, 'fig.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(fx.dir, 'outside.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><text>outside</text></svg>');
  symlinkSync('/etc/passwd', join(bench, 'leak.svg'));
  symlinkSync(join(fx.dir, 'outside.svg'), join(bench, 'away.svg'));
  symlinkSync('/etc/passwd', join(bench, 'report.md'));
  store = openStore(db, { readOnly: true });
  app = createUiApp({ store, spaDir, allowedHosts: ['127.0.0.1'], benchDirs: [bench] });
  runId = store.listRuns()[0]!.id;
});
afterAll(() => store?.close());

describe('the UI server under a probe', () => {
  it('answers a path with a broken %-escape with 400, not 500', async () => {
    const res = await request('/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(await res.text()).not.toMatch(/bug/i);
  });

  it('answers the event stream of an unknown run with 404 and prints nothing on the console', async () => {
    const console = vi.spyOn(globalThis.console, 'error').mockImplementation(() => {});
    try {
      const res = await request('/api/events?run=nope');
      expect(res.status).toBe(404);
      expect(JSON.stringify(await res.json())).toContain("no run 'nope'");
      expect(console).not.toHaveBeenCalled();
    } finally {
      console.mockRestore();
    }
  });

  it('opens the test records of G0 and of the best candidate', async () => {
    const run = (await (await request(`/api/runs/${runId}`)).json()) as {
      result: { best: string; test: { records: number } };
    };
    for (const candidate of new Set(['c0', run.result.best])) {
      const c = (await (await request(`/api/runs/${runId}/candidates/${candidate}`)).json()) as {
        records: Array<{ split: string; recordId: string }>;
      };
      const test = c.records.filter((r) => r.split === 'test');
      expect(test).toHaveLength(run.result.test.records);
      const res = await request(
        `/api/runs/${runId}/candidates/${candidate}/records/test/${encodeURIComponent(test[0]!.recordId)}`,
      );
      expect(res.status).toBe(200);
      const rec = (await res.json()) as { query: string | null; referenceCalls: unknown[]; trace: unknown };
      expect(rec.query).toBeTruthy();
      expect(rec.referenceCalls.length).toBeGreaterThan(0);
      expect(rec.trace).not.toBeNull();
    }
  });

  it('serves no file a link in a --bench folder points at outside it', async () => {
    expect((await request('/api/bench/0/figure/fig.svg')).status).toBe(200);
    for (const name of ['leak.svg', 'away.svg']) {
      const res = await request(`/api/bench/0/figure/${name}`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('root:');
    }
    const folder = (await (await request('/api/bench/0')).json()) as { report: string | null; figures: string[] };
    expect(folder.report).toBeNull();
    expect(folder.figures).toEqual(['fig.svg']);
  });
});
