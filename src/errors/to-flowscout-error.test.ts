import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_STATUS } from './codes.js';
import { FlowScoutError } from './flowscout-error.js';
import { toFlowScoutError } from './to-flowscout-error.js';

const errno = (code: string, path: string, syscall = 'open') =>
  Object.assign(new Error(`${code}: failed, ${syscall} '${path}'`), { code, path, syscall });

describe('toFlowScoutError', () => {
  it('turns permission, read-only and disk-full errors into FILE_ACCESS naming the file (exit 3, not 70)', () => {
    for (const [code, text] of [
      ['EACCES', 'permission denied (EACCES on open)'],
      ['EPERM', 'permission denied (EPERM on open)'],
      ['EROFS', 'read-only'],
      ['ENOSPC', 'no space left'],
    ] as const) {
      const e = toFlowScoutError(errno(code, '/data/out/best.workflow.json'));
      expect(e.code).toBe('FILE_ACCESS');
      expect(e.describe()).toContain('/data/out/best.workflow.json: ');
      expect(e.message).toContain(text);
      expect(EXIT_STATUS[e.code]).toBe(3);
    }
    expect(toFlowScoutError(errno('ENOENT', '/x/records.jsonl')).describe()).toMatch(
      /^\/x\/records\.jsonl: no such file or directory\n/,
    );
  });

  it('names a truncated or damaged gzip stream and a damaged SQLite store', () => {
    const gz = toFlowScoutError(Object.assign(new Error('unexpected end of file'), { code: 'Z_BUF_ERROR' }));
    expect(gz).toMatchObject({
      code: 'PARSE_ERROR',
      message: 'the gzip file ends early: it is truncated (an interrupted download or copy)',
    });
    const db = toFlowScoutError(
      Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' }),
    );
    expect(db.code).toBe('STORE_ERROR');
    expect(db.hint).toContain('runs show <run> --db <this file> --write <dir>');
    expect(db.hint).toContain('.recover');
  });

  it('keeps INTERNAL (exit 70, "a bug") for what is not a known problem', () => {
    const e = toFlowScoutError(new TypeError('x is undefined'));
    expect(e.code).toBe('INTERNAL');
    expect(EXIT_STATUS.INTERNAL).toBe(70);
  });

  it('prints a file position once when the message already names the file', () => {
    const e = new FlowScoutError({
      code: 'PARSE_ERROR',
      message: 'a.jsonl:3: not valid JSON',
      location: { file: 'a.jsonl', line: 3 },
    });
    expect(e.describe()).toBe('a.jsonl:3: not valid JSON');
    expect(
      new FlowScoutError({
        code: 'PARSE_ERROR',
        message: 'not valid JSON',
        location: { file: 'a.jsonl', line: 3 },
      }).describe(),
    ).toBe('a.jsonl:3: not valid JSON');
  });
});

describe('writing into a folder that refuses writes', () => {
  it('is FILE_ACCESS from the CLI, with the file and what to do (the EACCES case: test/search/failures.test.ts)', async () => {
    const { cli } = await import('../../test/support/cli-io.js');
    const dir = mkdtempSync(join(tmpdir(), 'flowscout-eperm-'));
    const wf = join(import.meta.dirname, '../../test/fixtures/workflows/valid/linear.json');
    // A path below a regular file cannot be created by anyone, root included.
    writeFileSync(join(dir, 'a-file'), 'x');
    const res = await cli(['render', wf, '--format', 'json', '-o', join(dir, 'a-file', 'out.json')]);
    expect(res.status, res.err).toBe(3);
    expect(res.err).toBe(
      `error [FILE_ACCESS]: ${join(dir, 'a-file')}: cannot create this folder: a file of that name is in the way\n  Move the file away, or choose another output path.\n`,
    );
  });
});
