import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';
import { writeSearchFixture, type SearchFixture } from '../search/fixture.js';

/**
 * Messages a newcomer met on real files, each saying what is actually wrong: a CSV quote that never
 * closes, a folder where a file was expected, a folder passed as --db, a pretty-printed .json given to
 * mine, a missing records file (every importer named), a dry run without an API key (nothing is
 * sent, so none is needed), and `run` over a workflow whose router leaves most branches skipped.
 */
let fx: SearchFixture;
beforeAll(() => {
  fx = writeSearchFixture({ domain: 'Travel', records: 40 });
});

describe('messages that say what is wrong', () => {
  it('mine: a CSV quote that never closes is reported as such, at the line it opens', async () => {
    const file = join(fx.dir, 'quote.csv');
    writeFileSync(
      file,
      'case,activity,timestamp\n1,a,2024-01-01T00:00:00Z\n2,"b,2024-01-01T00:00:01Z\n3,c,2024-01-01T00:00:02Z\n',
    );
    const r = await cli(['mine', file]);
    expect(r.status).toBe(2);
    expect(r.err).toContain(`${file}:3: the quote opened on line 3 never closes`);
    expect(r.err).not.toContain('blank timestamp');
  });

  it('names the folder found where a file was expected', async () => {
    const dir = join(fx.dir, 'a-folder');
    mkdirSync(dir, { recursive: true });
    const r = await cli(['validate', dir]);
    expect(r.status).toBe(2);
    expect(r.err).toContain(`${dir} is a directory; a file is expected here`);
  });

  it('--db <folder>: says it is a folder, not a permission problem', async () => {
    const dir = join(fx.dir, 'db-folder');
    mkdirSync(dir, { recursive: true });
    for (const argv of [
      ['runs', 'list', '--db', dir],
      [
        'search',
        '--records',
        fx.records,
        '--tools',
        fx.tools,
        '--iterations',
        '0',
        '--out',
        join(fx.dir, 'o-db'),
        '--db',
        dir,
      ],
    ]) {
      const r = await cli(argv);
      expect(r.status).toBe(2);
      expect(r.err).toContain(`the store ${dir} is a directory, not a file`);
      expect(r.err).not.toMatch(/permission|cannot be written/);
    }
  });

  it('mine: a pretty-printed .json is named as one JSON document, or where it breaks', async () => {
    const records = readFileSync(fx.records, 'utf8')
      .trim()
      .split('\n')
      .slice(0, 3)
      .map((l) => JSON.parse(l) as unknown);
    const pretty = join(fx.dir, 'records.json');
    writeFileSync(pretty, JSON.stringify(records, null, 2));
    const r = await cli(['mine', pretty]);
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/is one JSON document over \d+ lines \(an array of 3 items\); mine reads JSON Lines/);
    expect(r.err).toContain(`jq -c '.[]' ${pretty}`);
    expect(r.err).not.toContain(':1: not valid JSON');
    const broken = join(fx.dir, 'broken.json');
    writeFileSync(broken, JSON.stringify(records, null, 2).replace('"query"', '"query" "x"'));
    const b = await cli(['mine', broken]);
    expect(b.status).toBe(2);
    expect(b.err).toMatch(new RegExp(`${broken.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+: not valid JSON`));
    expect(b.err).not.toContain(':1: not valid JSON');
  });

  it('a missing records file: the hint names every importer `flowscout import` has', async () => {
    const help = await cli(['import', '--help']);
    const importers = [...help.out.matchAll(/^ {2}([a-z-]+) \[options\]/gm)].map((m) => m[1]!);
    expect(importers.length).toBeGreaterThanOrEqual(7);
    const r = await cli(['search', '--records', join(fx.dir, 'nope.jsonl'), '--tools', fx.tools]);
    expect(r.err).toContain('records file not found');
    for (const name of importers) expect(r.err).toContain(name);
  });

  it('search --dry-run with a model but no API key: projects, as nothing is sent', async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const r = await cli([
        'search',
        '--records',
        fx.records,
        '--tools',
        fx.tools,
        '--dry-run',
        '--model',
        'openai:gpt-4o-mini',
        '--iterations',
        '2',
      ]);
      expect(r.err).not.toContain('needs an API key');
      expect(r.status).toBe(0);
      expect(r.out).toContain('Dry run (nothing is sent to a model or a live tool)');
      expect(r.out).toMatch(/projected: \d+ model requests/);
      // A real run still needs the key.
      const real = await cli([
        'search',
        '--records',
        fx.records,
        '--tools',
        fx.tools,
        '--model',
        'openai:gpt-4o-mini',
        '--iterations',
        '2',
        '--out',
        join(fx.dir, 'o-key'),
        '--db',
        join(fx.dir, 'key.db'),
      ]);
      expect(real.err).toContain('needs an API key');
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it('run: skipped nodes are summarised in one line, not listed one a line', async () => {
    const out = join(fx.dir, 'routed');
    expect(
      (
        await cli([
          'search',
          '--records',
          fx.records,
          '--tools',
          fx.tools,
          '--iterations',
          '0',
          '--out',
          out,
          '--db',
          join(fx.dir, 'routed.db'),
        ])
      ).status,
    ).toBe(0);
    const query = (JSON.parse(readFileSync(fx.records, 'utf8').split('\n')[0]!) as { query: string }).query;
    const r = await cli(['run', join(out, 'best.workflow.json'), '--tools', fx.tools, '--query', query]);
    expect(r.status).toBe(0);
    const total = Number(/totals: \d+ nodes run, (\d+) skipped/.exec(r.out)?.[1]);
    expect(total).toBeGreaterThan(8);
    expect(r.out).not.toMatch(/^ {2}\S+ +(tool|llm) +skipped$/m);
    const summary = r.out.split('\n').filter((l) => /^ {2}\d+ skipped: /.test(l));
    expect(summary).toHaveLength(1);
    expect(summary[0]).toContain(`${total} skipped: `);
    expect(summary[0]).toContain(`… and ${total - 8} more`);
  });
});
