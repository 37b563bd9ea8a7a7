import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecordsFile, writeRecordsFile } from './read-records.js';
import type { TaskRecord } from './schema.js';
import { rejection } from '../../test/support/rejection.js';

const BAD = join(import.meta.dirname, '../../test/fixtures/records/bad-lines.jsonl');
const tmp = () => mkdtempSync(join(tmpdir(), 'fs-records-'));

describe('readRecordsFile', () => {
  it('rejects a file with a broken line 7 and a record missing query, naming both lines', async () => {
    const err = await rejection(readRecordsFile(BAD));
    expect(err.code).toBe('PARSE_ERROR');
    expect(err.message).toContain('2 invalid lines of 12');
    expect(err.message).toMatch(/bad-lines\.jsonl:7: not valid JSON/);
    expect(err.message).toContain('bad-lines.jsonl:12 ($.query): is required (a string)');
    expect(err.hint).toContain('--skip-invalid');
  });

  it('skips the two bad lines with skipInvalid and keeps the other ten', async () => {
    const res = await readRecordsFile(BAD, { skipInvalid: true });
    expect(res.skipped).toBe(2);
    expect(res.records.map((r) => r.id)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r8', 'r9', 'r10', 'r11']);
    expect(res.problems).toHaveLength(2);
  });

  it('names the field of a schema problem and reports duplicate ids with the first line', async () => {
    const file = join(tmp(), 'r.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ id: 'a', query: 'q', reference: 'r', calls: [] }),
        '',
        JSON.stringify({ id: 'b', query: 'q', reference: 'r', calls: [{ tool: 't', status: 'fine' }] }),
        JSON.stringify({ id: 'a', query: 'q2', reference: 'r', calls: [] }),
        JSON.stringify({ id: 'c', query: 'q', reference: 'r', calls: [], extra: 1 }),
      ].join('\n'),
    );
    const err = await rejection(readRecordsFile(file));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toContain('r.jsonl:3 ($.calls[0].status): must be one of "ok", "error", found "fine"');
    expect(err.message).toContain("r.jsonl:4 ($.id): duplicate id 'a' (first used on line 1)");
    expect(err.message).toContain("r.jsonl:5 ($): unknown field 'extra'");
  });

  it('says once that a JSON array is not JSONL, with what its items look like', async () => {
    const file = join(tmp(), 'r.json');
    writeFileSync(file, '[{"id": "a"},\n{"id": "b"}]\n');
    const err = await rejection(readRecordsFile(file));
    expect(err.code).toBe('PARSE_ERROR');
    expect(err.message).toBe(
      `${file} is one JSON array of 2 items, not JSONL (one record object a line: id, query, reference, calls)`,
    );
    expect(err.hint).toContain(`jq -c '.[]' ${file} > records.jsonl`);
    // Tool definitions passed as records, pretty-printed: one error that names them, not one per line.
    const tools = join(tmp(), 'tools.json');
    writeFileSync(
      tools,
      JSON.stringify([{ name: 'get_weather', description: 'Weather.', inputSchema: { type: 'object' } }], null, 2),
    );
    const toolsErr = await rejection(readRecordsFile(tools));
    expect(toolsErr.message).toMatch(/is one JSON array of 1 item, not JSONL .*; its items look like tool definitions/);
    expect(toolsErr.message.split('\n')).toHaveLength(1);
    // One record pretty-printed, and an agent's runs.
    const one = join(tmp(), 'one.json');
    writeFileSync(one, JSON.stringify({ id: 'a', query: 'q', reference: 'r', calls: [] }, null, 2));
    expect((await rejection(readRecordsFile(one))).message).toContain('is one JSON object spread over several lines');
    const runs = join(tmp(), 'runs.json');
    writeFileSync(runs, JSON.stringify([{ task_id: 1, traj: [{ role: 'user', content: 'hi' }] }], null, 2));
    expect((await rejection(readRecordsFile(runs))).message).toContain(
      "its items look like an agent's runs or messages",
    );
  });

  it('reports line by line a file that opens like JSON but is not one document', async () => {
    const file = join(tmp(), 'r.jsonl');
    writeFileSync(file, '[\n{"id": "a"}\n');
    const err = await rejection(readRecordsFile(file));
    expect(err.message).toContain('2 invalid lines of 2');
    expect(err.message).toContain('this looks like a JSON array');
  });

  it('caps the number of problems listed but counts them all', async () => {
    const file = join(tmp(), 'r.jsonl');
    writeFileSync(file, Array.from({ length: 80 }, () => '{').join('\n'));
    const err = await rejection(readRecordsFile(file, { maxProblems: 5 }));
    expect(err.message).toContain('80 invalid lines of 80');
    expect(err.message).toContain('… and 75 more problems');
  });

  it('fails with FILE_NOT_FOUND for a missing file', async () => {
    const err = await rejection(readRecordsFile(join(tmp(), 'nope.jsonl')));
    expect(err.code).toBe('FILE_NOT_FOUND');
  });

  it('round-trips records through writeRecordsFile and refuses to overwrite without force', async () => {
    const file = join(tmp(), 'out.jsonl');
    const recs: TaskRecord[] = [
      {
        id: 'x',
        query: 'q?',
        reference: 'r',
        calls: [{ tool: 't', args: { a: 1 }, output: "{'k': None}", status: 'ok' }],
        group: 'g',
      },
      { id: 'y', query: 'q2?', reference: '', calls: [] },
    ];
    writeRecordsFile(file, recs);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(3);
    expect((await readRecordsFile(file)).records).toEqual(recs);
    expect(() => writeRecordsFile(file, recs)).toThrow(/already exists/);
    writeRecordsFile(file, recs.slice(0, 1), { force: true });
    expect((await readRecordsFile(file)).records).toHaveLength(1);
  });
});
