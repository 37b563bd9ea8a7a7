import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, EXIT_STATUS, HTTP_STATUS, RETRYABLE } from './codes.js';
import { fromErrorShape, toErrorShape } from './error-shape.js';
import { errorMessage } from './error-message.js';
import { FlowScoutError, formatLocation, isFlowScoutError } from './flowscout-error.js';
import { toFlowScoutError } from './to-flowscout-error.js';

describe('FlowScoutError', () => {
  it('prints location, message and hint the way the CLI shows them', () => {
    const e = new FlowScoutError({
      code: 'PARSE_ERROR',
      message: 'unexpected token }',
      hint: 'Remove the trailing comma.',
      location: { file: 'wf.json', line: 3, column: 7 },
    });
    expect(e.describe()).toBe('wf.json:3:7: unexpected token }\n  Remove the trailing comma.');
    expect(e.name).toBe('FlowScoutError');
    expect(e.code).toBe('PARSE_ERROR');
    expect(e).toBeInstanceOf(Error);
    expect(new FlowScoutError({ code: 'INVALID_INPUT', message: 'bad' }).describe()).toBe('bad');
  });

  it('keeps the cause it was given', () => {
    const cause = new Error('root');
    expect(new FlowScoutError({ code: 'INTERNAL', message: 'x', cause }).cause).toBe(cause);
    expect('cause' in new FlowScoutError({ code: 'INTERNAL', message: 'x' })).toBe(false);
  });

  it('formats every combination of file, line, column and JSON path', () => {
    expect(formatLocation(undefined)).toBe('');
    expect(formatLocation({})).toBe('');
    expect(formatLocation({ file: 'a.jsonl', line: 12 })).toBe('a.jsonl:12: ');
    expect(formatLocation({ line: 4 })).toBe('line 4: ');
    expect(formatLocation({ file: 'wf.json', path: '$.nodes[2].retry' })).toBe('wf.json ($.nodes[2].retry): ');
    expect(formatLocation({ path: '$.edges[0]' })).toBe('$.edges[0]: ');
  });

  it('is recognised across module copies by name and code, not by prototype', () => {
    const foreign = Object.assign(new Error('from another copy'), { name: 'FlowScoutError', code: 'TOOL_ERROR' });
    expect(isFlowScoutError(foreign)).toBe(true);
    expect(isFlowScoutError(Object.assign(new Error('x'), { name: 'FlowScoutError' }))).toBe(false);
    expect(isFlowScoutError(new Error('plain'))).toBe(false);
    expect(isFlowScoutError({ name: 'FlowScoutError', code: 'X' })).toBe(false);
  });
});

describe('error codes', () => {
  it('give every code an exit status, none of them 0, and a budget stop its own (4)', () => {
    expect(Object.keys(EXIT_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    expect(ERROR_CODES.filter((c) => EXIT_STATUS[c] === 0)).toEqual([]);
    expect(ERROR_CODES.filter((c) => EXIT_STATUS[c] === 4)).toEqual(['BUDGET_EXHAUSTED']);
    expect(ERROR_CODES.filter((c) => EXIT_STATUS[c] === 1)).toEqual([]);
  });
});

describe('toFlowScoutError', () => {
  it('passes a FlowScoutError through unchanged', () => {
    const e = new FlowScoutError({ code: 'TOOL_NOT_FOUND', message: 'no such tool' });
    expect(toFlowScoutError(e)).toBe(e);
  });

  it('turns a missing file into FILE_NOT_FOUND naming the path', () => {
    const path = join(tmpdir(), 'flowscout-errors-test-missing.json');
    let thrown: unknown;
    try {
      readFileSync(path);
    } catch (e) {
      thrown = e;
    }
    const e = toFlowScoutError(thrown);
    expect(e.code).toBe('FILE_NOT_FOUND');
    expect(e.message).toBe('no such file or directory');
    expect(e.location).toEqual({ file: path });
    expect(e.cause).toBe(thrown);
  });

  it('turns a directory where a file was expected into INVALID_INPUT', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowscout-errors-'));
    try {
      let thrown: unknown;
      try {
        readFileSync(dir);
      } catch (e) {
        thrown = e;
      }
      expect(toFlowScoutError(thrown).code).toBe('INVALID_INPUT');
      // Node names no path here: the message says so rather than leave it out.
      expect(toFlowScoutError(thrown).message).toBe('expected a file but found a directory: (unknown path)');
      const withPath = Object.assign(new Error('EISDIR'), { code: 'EISDIR', path: dir });
      expect(toFlowScoutError(withPath).location).toEqual({ file: dir });
      expect(toFlowScoutError(withPath).describe()).toContain(`expected a file but found a directory: ${dir}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('turns permission errors into FILE_ACCESS and aborts into ABORTED', () => {
    const denied = Object.assign(new Error('EACCES'), { code: 'EACCES', path: '/root/secret' });
    expect(toFlowScoutError(denied).code).toBe('FILE_ACCESS');
    expect(toFlowScoutError(denied).message).toBe('permission denied (EACCES)');
    expect(toFlowScoutError(denied).location).toEqual({ file: '/root/secret' });
    const ac = new AbortController();
    ac.abort();
    expect(toFlowScoutError(ac.signal.reason).code).toBe('ABORTED');
    expect(toFlowScoutError(Object.assign(new Error('stop'), { code: 'ABORT_ERR' })).code).toBe('ABORTED');
  });

  it('calls anything else INTERNAL, with the message, including values that are not errors', () => {
    const e = toFlowScoutError(new TypeError('x is undefined'));
    expect(e.code).toBe('INTERNAL');
    expect(e.message).toBe('Unexpected error: x is undefined');
    expect(e.hint).toContain('--debug');
    expect(toFlowScoutError('boom').message).toBe('Unexpected error: boom');
    expect(toFlowScoutError(42).code).toBe('INTERNAL');
  });
});

describe('errorMessage', () => {
  it('reads an error, a string, or anything as JSON', () => {
    expect(errorMessage(new Error('bad args'))).toBe('bad args');
    expect(errorMessage(new RangeError(''))).toBe('RangeError');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage({ status: 500 })).toBe('{"status":500}');
    expect(errorMessage(undefined)).toBe('undefined');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(errorMessage(circular)).toBe('[object Object]');
  });
});

describe('per-code facts', () => {
  it('give every code an HTTP error status (4xx or 5xx)', () => {
    expect(ERROR_CODES.filter((c) => !(HTTP_STATUS[c] >= 400 && HTTP_STATUS[c] < 600))).toEqual([]);
    expect([
      HTTP_STATUS.INVALID_INPUT,
      HTTP_STATUS.NOT_FOUND,
      HTTP_STATUS.BUDGET_EXHAUSTED,
      HTTP_STATUS.INTERNAL,
    ]).toEqual([400, 404, 429, 500]);
  });

  it("hold serve's own codes with their facts: a wrong request is exit 2 and never retried, a stop, a timeout or a failed run may pass again", () => {
    const serve = [
      'FORBIDDEN_HOST',
      'UNAUTHORIZED',
      'BAD_JSON',
      'BAD_REQUEST',
      'BODY_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'METHOD_NOT_ALLOWED',
      'SHUTTING_DOWN',
      'TIMEOUT',
      'RUN_FAILED',
    ] as const;
    expect(ERROR_CODES).toEqual(expect.arrayContaining([...serve]));
    expect(serve.map((c) => [c, HTTP_STATUS[c], EXIT_STATUS[c], RETRYABLE[c]])).toEqual([
      ['FORBIDDEN_HOST', 403, 2, false],
      ['UNAUTHORIZED', 401, 2, false],
      ['BAD_JSON', 400, 2, false],
      ['BAD_REQUEST', 400, 2, false],
      ['BODY_TOO_LARGE', 413, 2, false],
      ['UNSUPPORTED_MEDIA_TYPE', 415, 2, false],
      ['METHOD_NOT_ALLOWED', 405, 2, false],
      ['SHUTTING_DOWN', 503, 3, true],
      ['TIMEOUT', 504, 3, true],
      ['RUN_FAILED', 502, 3, true],
    ]);
  });

  it('retry only what may pass when run again: never wrong input or a bug', () => {
    expect(ERROR_CODES.filter((c) => RETRYABLE[c] && EXIT_STATUS[c] === 2)).toEqual([]);
    expect(RETRYABLE.INTERNAL).toBe(false);
    expect(RETRYABLE.MODEL_ERROR).toBe(true);
  });

  it('turn an error into data and back with code, message, hint and location intact; foreign text gets the fallback code', () => {
    const e = new FlowScoutError({
      code: 'PARSE_ERROR',
      message: 'bad',
      hint: 'Fix it.',
      location: { file: 'a.json', line: 2, column: 5, path: '$.x' },
    });
    const back = fromErrorShape(JSON.stringify(toErrorShape(e)));
    expect([back.code, back.message, back.hint, back.location]).toEqual([
      'PARSE_ERROR',
      'bad',
      'Fix it.',
      { file: 'a.json', line: 2, column: 5, path: '$.x' },
    ]);
    expect(toErrorShape(new TypeError('x'))).toMatchObject({ code: 'INTERNAL', message: 'Unexpected error: x' });
    expect(fromErrorShape('job stalled more than allowable limit', 'QUEUE_ERROR')).toMatchObject({
      code: 'QUEUE_ERROR',
      message: 'job stalled more than allowable limit',
    });
    expect(fromErrorShape('{"code":"NOPE","message":"m"}').code).toBe('INTERNAL');
  });
});
