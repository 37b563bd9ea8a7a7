import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fileWrites } from '../../src/util/json-file.js';
import { cli } from '../support/cli-io.js';
import { writeSearchFixture, type SearchFixture } from './fixture.js';

/**
 * A disk that fills up while `search` writes --out: the write fails half-way (through the seam every
 * file write of FlowScout goes through, so no real full disk is needed). The user sees the file named,
 * no half-written file, a run that is not `done`, and a `--resume` that works as the hint says.
 */
let fx: SearchFixture;
beforeAll(() => {
  fx = writeSearchFixture({ records: 16 });
});
const real = { ...fileWrites };
afterEach(() => Object.assign(fileWrites, real));

/** Writes half of the text of `name`'s temporary file, then fails as a full disk does. */
function diskFullAt(name: string): void {
  fileWrites.writeFileSync = ((file: string, data: string) => {
    if (!basename(file).startsWith(`.${name}.`)) return real.writeFileSync(file, data);
    real.writeFileSync(file, data.slice(0, Math.floor(data.length / 2)));
    throw Object.assign(new Error(`ENOSPC: no space left on device, write`), {
      code: 'ENOSPC',
      syscall: 'write',
      path: file,
    });
  }) as typeof fileWrites.writeFileSync;
}

describe('a full disk while search writes --out', () => {
  it('names the file, leaves no half file, keeps the run resumable, and --resume writes every file', async () => {
    const out = join(fx.dir, 'out');
    const db = join(fx.dir, 'full.db');
    diskFullAt('test.records.jsonl');
    const failed = await cli([
      'search',
      '--records',
      fx.records,
      '--tools',
      fx.tools,
      '--seed',
      '3',
      '--iterations',
      '3',
      '--out',
      out,
      '--db',
      db,
    ]);
    expect(failed.status).not.toBe(0);
    expect(failed.err).toContain(`cannot write ${join(out, 'test.records.jsonl')}: no space left on the disk`);
    expect(failed.err).not.toContain('This is a bug');
    // No half file, no temporary file.
    expect(existsSync(join(out, 'test.records.jsonl'))).toBe(false);
    expect(readdirSync(out).filter((f) => f.includes('.tmp'))).toEqual([]);
    const list = await cli(['runs', 'list', '--db', db, '--json']);
    const [run] = JSON.parse(list.out) as Array<{ id: string; status: string }>;
    expect(run!.status).toBe('failed');
    // The hint names a command that works.
    const resume = /resumes with: flowscout (search --resume \S+ --db \S+)/.exec(failed.err);
    expect(resume?.[1]).toBe(`search --resume ${run!.id} --db ${db}`);

    Object.assign(fileWrites, real);
    const resumed = await cli(resume![1]!.split(' '));
    expect(resumed.err).not.toContain('error [');
    expect(resumed.status).toBe(0);
    const test = readFileSync(join(out, 'test.records.jsonl'), 'utf8');
    expect(test.trimEnd().split('\n').length).toBeGreaterThan(0);
    const best = readFileSync(join(out, 'best.workflow.json'), 'utf8');
    expect(JSON.parse((await cli(['runs', 'list', '--db', db, '--json'])).out)[0].status).toBe('done');

    // `runs show --write` writes every file again from the store, the test records included.
    const again = join(fx.dir, 'again');
    const show = await cli(['runs', 'show', run!.id, '--db', db, '--write', again]);
    expect(show.status).toBe(0);
    // The workflow carries its offline table: no learned-records file.
    expect(readdirSync(again).sort()).toEqual([
      'best.workflow.json',
      'best.workflow.mmd',
      'best.workflow.ts',
      'search.json',
      'test.records.jsonl',
    ]);
    expect(readFileSync(join(again, 'best.workflow.json'), 'utf8')).toBe(best);
    expect(readFileSync(join(again, 'test.records.jsonl'), 'utf8')).toBe(test);
    expect(JSON.parse(best)).not.toHaveProperty('learned');
  });

  it('an existing file stays whole when overwriting it fails', async () => {
    const out = join(fx.dir, 'keep');
    const first = await cli([
      'search',
      '--records',
      fx.records,
      '--tools',
      fx.tools,
      '--seed',
      '3',
      '--iterations',
      '1',
      '--out',
      out,
      '--db',
      join(fx.dir, 'keep.db'),
    ]);
    expect(first.status).toBe(0);
    const before = readFileSync(join(out, 'search.json'), 'utf8');
    diskFullAt('search.json');
    const second = await cli([
      'search',
      '--records',
      fx.records,
      '--tools',
      fx.tools,
      '--seed',
      '4',
      '--iterations',
      '1',
      '--out',
      out,
      '--force',
      '--db',
      join(fx.dir, 'keep.db'),
    ]);
    expect(second.status).not.toBe(0);
    expect(second.err).toContain(`cannot write ${join(out, 'search.json')}`);
    expect(readFileSync(join(out, 'search.json'), 'utf8')).toBe(before);
  });
});
