import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecordsFile } from '../../src/records/read-records.js';
import { ToolConfigSchema } from '../../src/tools/config-schema.js';
import { loadToolConfig } from '../../src/tools/load-tool-config.js';
import { cli } from '../support/cli-io.js';

const MINI = join(import.meta.dirname, '../fixtures/records/traject-mini');

describe('flowscout import traject', () => {
  it('writes records, tools and a replay tool config, prints the counts, and refuses to overwrite', async () => {
    const out = mkdtempSync(join(tmpdir(), 'fs-import-'));
    const res = await cli([
      'import',
      'traject',
      join(MINI, 'traj_query.json'),
      '--tools',
      join(MINI, 'Mini_tool.json'),
      '--out',
      out,
    ]);
    expect(res.err).toBe(
      'warning: only 1 record kept; a search splits them into optimisation, validation and test parts, and with fewer than 20 records its scores say little. Import more runs, or pass --keep-failed to also keep records with failed calls.\n',
    );
    expect(res.status).toBe(0);
    expect(res.out).toMatch(/records\s+3 \(all calls succeeded: 1\)/);
    expect(res.out).toMatch(/dropped\s+2 \(has a failed call: 1; calls an API absent from the tool definitions: 1\)/);
    expect(res.out).toMatch(/distinct tools used\s+2/);
    const { records } = await readRecordsFile(join(out, 'records.jsonl'));
    expect(records.map((r) => r.id)).toEqual(['mini-0-0']);
    const tools = JSON.parse(readFileSync(join(out, 'tools.json'), 'utf8')) as Array<{ name: string }>;
    expect(tools.map((t) => t.name)).toEqual(['current_weather_for_weather_hub', 'get_24h_lookup_for_geo_codes']);
    const config = ToolConfigSchema.parse(JSON.parse(readFileSync(join(out, 'tools.config.json'), 'utf8')));
    expect(config.sources).toEqual([{ type: 'replay', records: 'records.jsonl', tools: 'tools.json' }]);

    writeFileSync(join(out, 'records.jsonl'), 'mine\n');
    const again = await cli([
      'import',
      'traject',
      join(MINI, 'traj_query.json'),
      '--tools',
      join(MINI, 'Mini_tool.json'),
      '--out',
      out,
    ]);
    expect(again.status).toBe(2);
    expect(again.err).toContain('FILE_EXISTS');
    expect(again.err).toContain('--force');
    expect(readFileSync(join(out, 'records.jsonl'), 'utf8')).toBe('mine\n');
    const forced = await cli([
      'import',
      'traject',
      join(MINI, 'traj_query.json'),
      '--tools',
      join(MINI, 'Mini_tool.json'),
      '--out',
      out,
      '--force',
      '--keep-failed',
    ]);
    expect(forced.status).toBe(0);
    expect((await readRecordsFile(join(out, 'records.jsonl'))).records).toHaveLength(3);
  });

  it('imports a bundled domain with --domain', async () => {
    const out = mkdtempSync(join(tmpdir(), 'fs-import-'));
    const res = await cli(['import', 'traject', '--domain', 'Weather', '--out', out]);
    expect(res.status).toBe(0);
    expect(res.out.split('\n')[0]).toBe('Imported 123 of 160 records from bundled TRAJECT-Bench Weather');
    expect(res.out).toMatch(/records\s+160 \(all calls succeeded: 123\)/);
    expect((await readRecordsFile(join(out, 'records.jsonl'))).records).toHaveLength(123);
  });

  it('writes a tool config whose replay tools answer every recorded call of the imported records', async () => {
    const out = mkdtempSync(join(tmpdir(), 'fs-import-'));
    expect((await cli(['import', 'traject', '--domain', 'Travel', '--out', out])).status).toBe(0);
    const registry = await loadToolConfig(join(out, 'tools.config.json'));
    try {
      const { records } = await readRecordsFile(join(out, 'records.jsonl'));
      const outcomes = await Promise.all(records.flatMap((r) => r.calls.map((c) => registry.call(c.tool, c.args))));
      expect(outcomes).toHaveLength(717);
      expect(outcomes.filter((o) => o.status !== 'ok').map((o) => `${o.tool}: ${o.error}`)).toEqual([]);
    } finally {
      await registry.close();
    }
  });

  it('explains what is missing', async () => {
    const noTools = await cli(['import', 'traject', join(MINI, 'traj_query.json'), '--out', '/tmp/x']);
    expect(noTools.status).toBe(2);
    expect(noTools.err).toContain('--tools <Domain_tool.json> is required');
    const badDomain = await cli(['import', 'traject', '--domain', 'Sports', '--out', '/tmp/x']);
    expect(badDomain.err).toContain("no bundled TRAJECT-Bench domain 'Sports'");
    expect(badDomain.err).toContain('Finance, Travel, Weather');
  });
});

describe('flowscout import toolbench', () => {
  const FIX = join(import.meta.dirname, '../fixtures/records');
  it('imports answer folders and prints kept vs dropped with reasons', async () => {
    const out = mkdtempSync(join(tmpdir(), 'fs-import-'));
    const res = await cli(['import', 'toolbench', join(FIX, 'toolbench'), join(FIX, 'stabletoolbench'), '--out', out]);
    expect(res.err).toContain('warning: only 3 records kept');
    expect(res.out.split('\n')[0]).toBe('Imported 3 records from 5 ToolBench answer files');
    expect(res.out).toMatch(/kept\s+3\n/);
    expect(res.out).toMatch(/dropped\s+2 \(give_up: 1; invalid \(valid_data is false\): 1\)/);
    const { records } = await readRecordsFile(join(out, 'records.jsonl'));
    expect(records.map((r) => r.id)).toEqual(['10', '21', '1073']);
  });

  it('fails clearly when nothing is usable', async () => {
    const res = await cli([
      'import',
      'toolbench',
      join(FIX, 'toolbench/G2_answer'),
      '--out',
      mkdtempSync(join(tmpdir(), 'fs-import-')),
    ]);
    expect(res.status).toBe(2);
    expect(res.err).toContain('no usable answer in 1 file(s): give_up: 1');
  });
});

describe('flowscout import openai|anthropic|ai-sdk|otel|auto', () => {
  const AGENT = join(import.meta.dirname, '../fixtures/agent-logs');
  it('writes records.jsonl, tools.json and a replay tools.config.json, prints the summary and warns about few records', async () => {
    const { cli: run } = await import('../support/cli-io.js');
    const { mkdtempSync: mk, readFileSync: read } = await import('node:fs');
    const { tmpdir: tmp } = await import('node:os');
    const out = join(mk(join(tmp(), 'imp-')), 'o');
    const res = await run([
      'import',
      'auto',
      join(AGENT, 'otel-genai.json'),
      join(AGENT, 'otel-ai-sdk.jsonl'),
      '--out',
      out,
    ]);
    expect(res.status).toBe(0);
    expect(res.out.split('\n')[0]).toBe(
      'Imported 2 records from 3 otel conversations (format detected from the content)',
    );
    expect(res.out).toMatch(/dropped\s+1 \(has a failed call: 1\)/);
    expect(res.err).toContain('warning: only 2 records kept');
    expect(res.err).toContain('--keep-failed');
    expect(read(join(out, 'records.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(JSON.parse(read(join(out, 'tools.config.json'), 'utf8'))).toEqual({
      version: 1,
      sources: [{ type: 'replay', records: 'records.jsonl', tools: 'tools.json' }],
    });
    const again = await run(['import', 'openai', join(AGENT, 'openai.jsonl'), '--out', out]);
    expect(again.status).not.toBe(0);
    expect(again.err).toContain('not overwriting');
    const bad = await run(['import', 'openai', join(AGENT, 'openai-invalid.jsonl'), '--out', join(out, 'x')]);
    expect(bad.status).toBe(2);
    expect(bad.err).toContain('openai-invalid.jsonl:4 ($.messages[1].tool_calls[0].function.arguments)');
    expect(bad.err).toContain('--skip-invalid');
    const skipped = await run([
      'import',
      'openai',
      join(AGENT, 'openai-invalid.jsonl'),
      '--out',
      join(out, 'x'),
      '--skip-invalid',
    ]);
    expect(skipped.status).toBe(0);
    expect(skipped.out).toMatch(/invalid, skipped\s+2 \(not readable: 2\)/);
    expect(skipped.out).toMatch(/kept\s+2 \(1 answered without a tool call: kept with an empty reference log/);
  });
});
