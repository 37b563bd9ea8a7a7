import { join } from 'node:path';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import type { CliIO } from '../../src/cli/output.js';
import { openStore } from '../../src/store/open-store.js';
import { writeSearchFixture } from '../search/fixture.js';
import { copyFileSync } from 'node:fs';

/**
 * A store with one row that does not parse (bad JSON, a wrong-typed field, a stored run config of
 * the wrong shape), written with better-sqlite3 directly as a hand edit or another version would:
 * `flowscout runs show` and `flowscout search --resume` stop with the store's named error (exit 3)
 * naming the store file, the table, the row and the JSON path, with a hint; nothing is cast through.
 */

const Sqlite = createRequire(import.meta.url)('better-sqlite3') as typeof Database;

function capture(): CliIO & { all(): string } {
  let text = '';
  return { out: (t) => void (text += `${t}\n`), err: (t) => void (text += `${t}\n`), isTTY: false, all: () => text };
}

const fx = writeSearchFixture({ records: 10 });
const clean = join(fx.dir, 'clean.db');
let runId = '';

beforeAll(async () => {
  const io = capture();
  const code = await runCli(
    [
      'search',
      '--records',
      fx.records,
      '--tools',
      fx.tools,
      '--seed',
      '3',
      '--iterations',
      '1',
      '--patience',
      '1',
      '--db',
      clean,
      '--out',
      join(fx.dir, 'out'),
    ],
    io,
  );
  expect(code, io.all()).toBe(0);
  const store = openStore(clean, { readOnly: true });
  runId = store.listRuns()[0]!.id;
  store.close();
}, 120_000);

/** A copy of the clean store with `sql` applied to it directly. */
function corrupted(name: string, sql: string, ...params: unknown[]): string {
  const file = join(fx.dir, `${name}.db`);
  copyFileSync(clean, file);
  const db = new Sqlite(file);
  db.prepare(sql).run(...params);
  db.close();
  return file;
}

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const io = capture();
  const code = await runCli(args, io);
  return { code, out: io.all() };
}

describe('a stored row that does not parse', () => {
  it('runs show: bad JSON in a candidate column names the store, table, row and column', async () => {
    const db = corrupted(
      'bad-json',
      "UPDATE candidates SET feedback = '{\"notes\": [1, 2' WHERE run_id = ? AND id = 'c0'",
      runId,
    );
    const { code, out } = await cli(['runs', 'show', runId, '--db', db]);
    expect(code, out).toBe(3);
    expect(out).toContain(
      `the store ${db} has a row that does not parse: table candidates, row ${runId}/c0, at $.feedback: it is not JSON`,
    );
    expect(out).toContain('written by another FlowScout version or edited by hand');
    expect(out).not.toMatch(/TypeError|at .*\.ts:\d+/);
  });

  it('runs show: a wrong-typed field (text in a number column, a number inside stored JSON) is named by its path', async () => {
    const seed = corrupted('bad-seed', "UPDATE runs SET seed = 'three' WHERE id = ?", runId);
    const shown = await cli(['runs', 'show', runId, '--db', seed]);
    expect(shown.code, shown.out).toBe(3);
    expect(shown.out).toContain(`table runs, row ${runId}, at $.seed:`);

    const inputs = corrupted(
      'bad-inputs',
      "UPDATE runs SET inputs = json_set(inputs, '$.records.bytes', 'many') WHERE id = ?",
      runId,
    );
    const listed = await cli(['runs', 'list', '--db', inputs]);
    expect(listed.code, listed.out).toBe(3);
    expect(listed.out).toContain(`table runs, row ${runId}, at $.inputs.records.bytes:`);
  });

  it('search --resume: a stored run config of the wrong shape stops before the run is touched', async () => {
    const db = corrupted(
      'bad-config',
      "UPDATE runs SET status = 'stopped', config = json_set(config, '$.settings.seed', 'seven') WHERE id = ?",
      runId,
    );
    const { code, out } = await cli(['search', '--resume', runId, '--db', db]);
    expect(code, out).toBe(3);
    expect(out).toContain(
      `the store ${db} has a row that does not parse: table runs, row ${runId}, at $.config.settings.seed:`,
    );
    const store = openStore(db, { readOnly: true });
    expect(store.getLock(runId)).toBeUndefined();
    expect(store.getRun(runId).status).toBe('stopped');
    store.close();
  });

  it('the clean store still shows', async () => {
    const { code, out } = await cli(['runs', 'show', runId, '--db', clean]);
    expect(code, out).toBe(0);
    expect(out).not.toContain('does not parse');
  });
});
