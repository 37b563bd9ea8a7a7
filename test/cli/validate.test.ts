import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';

const ROOT = join(import.meta.dirname, '../..');
const FIX = join(ROOT, 'test/fixtures/workflows');

describe('flowscout validate', () => {
  it('exits 0 on a valid workflow and says so', async () => {
    const res = await cli(['validate', join(FIX, 'valid/conditional-branch.json')]);
    expect(res).toEqual({ status: 0, out: 'valid: weather-with-optional-forecast (5 nodes, 6 edges)\n', err: '' });
  });

  it('exits 1 on an invalid workflow, printing every problem with its path, then a count', async () => {
    const file = join(FIX, 'invalid/unreachable.json');
    const res = await cli(['validate', file]);
    expect(res.status).toBe(1);
    expect(res.err).toBe('');
    expect(res.out.replace(file, '<file>')).toMatchInlineSnapshot(`
      "$.nodes: 2 nodes have no incoming edges (plan, extra); keep 'plan' as the only entry and add edges into the others from it or from a node after it
      $.nodes[3]: node 'forecast' cannot be reached from the entry; add an edge into it from the plan node or a node after it, or remove it
      <file>: 2 problems; the workflow is not valid
      "
    `);
  });

  it('checks tool hints against a descriptor array given with --tools', async () => {
    const file = join(FIX, 'invalid/unknown-tool.json');
    expect((await cli(['validate', file])).status).toBe(0);
    const res = await cli(['validate', file, '--tools', join(FIX, 'tools.json')]);
    expect(res.status).toBe(1);
    expect(res.out).toContain(
      "$.nodes[1].tools[0]: tool 'get_curent_weather' used by node 'current' is not available; did you mean 'get_current_weather'?",
    );
    const ok = await cli(['validate', join(FIX, 'valid/linear.json'), '--tools', join(FIX, 'tools.json')]);
    expect(ok.out).toBe(
      `valid: weather-linear (3 nodes, 2 edges)\ntool hints checked against 2 tools from ${join(FIX, 'tools.json')}\n`,
    );
  });

  it('accepts a tool config file (replay source) for --tools', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-validate-'));
    writeFileSync(
      join(dir, 'records.jsonl'),
      `${JSON.stringify({ id: 'r1', query: 'Weather in Oslo?', reference: 'Cold.', calls: [] })}\n`,
    );
    writeFileSync(
      join(dir, 'tools.json'),
      JSON.stringify([
        { name: 'get_forecast', description: 'Forecast.', inputSchema: { type: 'object', properties: {} } },
      ]),
    );
    writeFileSync(
      join(dir, 'tools.config.json'),
      JSON.stringify({ version: 1, sources: [{ type: 'replay', records: 'records.jsonl', tools: 'tools.json' }] }),
    );
    const res = await cli(['validate', join(FIX, 'valid/linear.json'), '--tools', join(dir, 'tools.config.json')]);
    expect(res.status).toBe(1);
    expect(res.out).toContain(
      "tool 'get_current_weather' used by node 'current' is not available; available: get_forecast",
    );
  });

  it('rejects a --tools file that is neither descriptors nor a config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-validate-'));
    writeFileSync(join(dir, 'tools.json'), '{"name": "x"}');
    const res = await cli(['validate', join(FIX, 'valid/linear.json'), '--tools', join(dir, 'tools.json')]);
    expect(res.status).toBe(2);
    expect(res.err).toContain('error [INVALID_INPUT]');
    expect(res.err).toContain('neither a JSON array of tool descriptors nor a tool config');
  });

  it('names the line and column of a file that is not JSON (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-validate-'));
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{\n  "version": 1,\n  "name": "x"\n  "nodes": []\n}\n');
    const res = await cli(['validate', file]);
    expect(res.status).toBe(2);
    expect(res.out).toBe('');
    expect(res.err.replace(file, '<file>')).toMatchInlineSnapshot(`
      "error [PARSE_ERROR]: <file>:4:3: not valid JSON: Expected ',' or '}' after property value
        Fix the JSON at that line and column (a missing comma, quote or bracket is the usual cause).
      "
    `);
  });

  it('reports a missing file without a stack trace', async () => {
    const res = await cli(['validate', join(FIX, 'nope.json')]);
    expect(res.status).toBe(2);
    expect(res.err).toMatch(/^error \[FILE_NOT_FOUND\]: file not found: \S*nope\.json\n/);
    expect(res.err).not.toContain('    at ');
  });

  it('--json prints a machine-readable result with the problems and, when valid, the hash', async () => {
    const bad = await cli(['validate', join(FIX, 'invalid/retry-range.json'), '--json']);
    expect(bad.status).toBe(1);
    const parsed = JSON.parse(bad.out) as {
      valid: boolean;
      problems: Array<{ code: string; path: string }>;
      hash: string | null;
    };
    expect(parsed).toMatchObject({ valid: false, name: 'retry-range', nodes: 3, edges: 2, hash: null });
    expect(parsed.problems).toEqual([
      expect.objectContaining({ code: 'retry-range', path: '$.nodes[1].retry.attempts' }),
    ]);
    const good = await cli(['validate', join(FIX, 'valid/parallel.json'), '--json']);
    expect(good.status).toBe(0);
    expect(JSON.parse(good.out)).toMatchObject({
      valid: true,
      problems: [],
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('prints schema problems of a document that is not a workflow', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-validate-'));
    const file = join(dir, 'w.json');
    writeFileSync(file, JSON.stringify({ version: 2, nodes: {} }));
    const res = await cli(['validate', file]);
    expect(res.status).toBe(1);
    expect(res.out.replace(file, '<file>')).toMatchInlineSnapshot(`
      "$.version: must be 1 (got 2)
      $.name: is required (expected a string); add it
      $.nodes: expected an array, got an object
      $.edges: is required (expected an array); add it
      <file>: 4 problems; the workflow is not valid
      "
    `);
  });
});

describe('the real bin', () => {
  it('exits 0, 1 and 2 for a valid file, an invalid file and a file that is not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-validate-'));
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"version": 1,,}');
    const run = (file: string) =>
      spawnSync(process.execPath, [join(ROOT, 'bin/flowscout.js'), 'validate', file], { cwd: ROOT, encoding: 'utf8' });
    const valid = run(join(FIX, 'valid/retry.json'));
    expect([valid.status, valid.stdout]).toEqual([0, 'valid: flight-search-with-retry (3 nodes, 2 edges)\n']);
    const invalid = run(join(FIX, 'invalid/cycle.json'));
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toContain('$.edges[2]: the graph has a cycle: check → current → check');
    const notJson = run(broken);
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toContain(`${broken}:1:15: not valid JSON`);
  });
});
