import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';
import { writeSearchFixture, type SearchFixture } from '../search/fixture.js';

/**
 * JSON nested 100,000 levels deep in a user's file is refused with a named error that gives the file
 * and line (exit 2), not a stack overflow reported as a bug (exit 70); JSON nested just inside the
 * limit still goes through a whole search.
 */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const conversation = (args: string) =>
  JSON.stringify({
    messages: [
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'geocode', arguments: args } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"lat":48.85}' },
      { role: 'assistant', content: 'Mild.' },
    ],
  });

let fx: SearchFixture;
beforeAll(() => {
  fx = writeSearchFixture({ records: 16 });
});

describe('deeply nested JSON', () => {
  it('import openai: names the file, line and field of arguments nested 100,000 levels deep', async () => {
    const file = join(fx.dir, 'deep.jsonl');
    writeFileSync(file, `${conversation('{"city":"Paris"}')}\n${conversation(`{"city":${nested(100_000)}}`)}\n`);
    const r = await cli(['import', 'openai', file, '--out', join(fx.dir, 'imported')]);
    expect(r.err).not.toContain('This is a bug');
    expect(r.status).toBe(2);
    expect(r.err).toContain(
      `${file}:2 ($.messages[1].tool_calls[0].function.arguments): the arguments are nested more than`,
    );
  });

  it('search and mine: name the records file and line of a record nested 100,000 levels deep', async () => {
    const lines = readFileSync(fx.records, 'utf8').trimEnd().split('\n');
    const bad = JSON.parse(lines[3]!) as { calls: Array<{ arguments: unknown }> };
    const text = JSON.stringify({ ...bad, id: 'deep' }).replace(
      /"calls":\[/,
      `"calls":[{"tool":"x","arguments":{"a":${nested(100_000)}}},`,
    );
    const file = join(fx.dir, 'deep-records.jsonl');
    writeFileSync(file, `${[...lines, text].join('\n')}\n`);
    const search = await cli([
      'search',
      '--records',
      file,
      '--tools',
      fx.tools,
      '--iterations',
      '1',
      '--out',
      join(fx.dir, 'deep-out'),
      '--db',
      join(fx.dir, 'deep.db'),
    ]);
    expect(search.err).not.toContain('This is a bug');
    expect(search.status).toBe(2);
    expect(search.err).toMatch(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:17: the JSON is nested more than \\d+ levels deep`),
    );
    const mine = await cli(['mine', file]);
    expect(mine.status).toBe(2);
    expect(mine.err).toContain(`${file}:17`);
  });

  it('arguments nested just inside the limit are imported, and the records searched', async () => {
    const file = join(fx.dir, 'deep500.jsonl');
    const ok = Array.from({ length: 24 }, (_, i) => conversation(`{"city":"c${i}"}`));
    writeFileSync(file, `${[...ok, conversation(`{"city":${nested(500)}}`)].join('\n')}\n`);
    const out = join(fx.dir, 'imported500');
    const imported = await cli(['import', 'openai', file, '--out', out]);
    expect(imported.status).toBe(0);
    expect(readFileSync(join(out, 'records.jsonl'), 'utf8')).toContain(nested(500));
    const search = await cli([
      'search',
      '--records',
      join(out, 'records.jsonl'),
      '--tools',
      join(out, 'tools.config.json'),
      '--iterations',
      '1',
      '--out',
      join(fx.dir, 'out500'),
      '--db',
      join(fx.dir, '500.db'),
    ]);
    expect(search.err).not.toContain('error [');
    expect(search.status).toBe(0);
  });
});
