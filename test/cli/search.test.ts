import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSearchFixture, type SearchFixture } from '../search/fixture.js';
import { runCli } from '../../src/cli/program.js';
import { captureIO as capture } from '../support/cli-io.js';

let fx: SearchFixture;
beforeAll(() => {
  fx = writeSearchFixture({ records: 16 });
});

const base = () => [
  'search',
  '--records',
  fx.records,
  '--tools',
  fx.tools,
  '--seed',
  '3',
  '--iterations',
  '5',
  '--patience',
  '5',
];

describe('flowscout search (offline)', () => {
  it('prints the per-iteration table with its labels, writes the four files and stores the run', async () => {
    const io = capture();
    const out = join(fx.dir, 'run-a');
    const db = join(fx.dir, 'a.db');
    expect(await runCli([...base(), '--out', out, '--db', db], io)).toBe(0);
    const text = io.text();
    expect(text).toContain(
      'policy: offline policy (no LLM) · judge: offline lexical judge · optimizer: rule-based optimizer (offline) — OFFLINE results',
    );
    expect(text).toMatch(/ iter {2}parent → child/);
    expect(text.match(/^ +\d+ +c\d+ → c\d+ /gm)?.length).toBe(5);
    expect(text).toMatch(/test set \(\d+ records\): {2}G0 TC \d\.\d{3} ES \d\.\d{3} {2}→ {2}best TC/);
    for (const f of ['best.workflow.json', 'best.workflow.ts', 'best.workflow.mmd', 'search.json'])
      expect(existsSync(join(out, f))).toBe(true);
    const doc = JSON.parse(readFileSync(join(out, 'search.json'), 'utf8'));
    expect(doc.candidates).toHaveLength(6);
    expect(doc.candidates[0]).toMatchObject({ id: 'c0', parent: null, iteration: 0 });
    for (const c of doc.candidates)
      expect(Object.keys(c)).toEqual(
        expect.arrayContaining([
          'id',
          'parent',
          'iteration',
          'summary',
          'optReward',
          'valScore',
          'valTc',
          'valEs',
          'visits',
          'meanReward',
        ]),
      );
    const best = doc.candidates.find((c: { id: string }) => c.id === doc.best);
    expect(best.valScore).toBeGreaterThanOrEqual(doc.candidates[0].valScore);
    expect(readFileSync(join(out, 'best.workflow.ts'), 'utf8')).toContain('export async function run(');
    expect(readFileSync(join(out, 'best.workflow.mmd'), 'utf8')).toMatch(/^flowchart/);

    const list = capture();
    expect(await runCli(['runs', 'list', '--db', db], list)).toBe(0);
    expect(list.text()).toMatch(/run-\d{8}-\d{6}-[0-9a-f]{4} +done +5 +c\d+/);
    const runId = doc.run as string;
    const show = capture();
    expect(await runCli(['runs', 'show', runId, '--db', db], show)).toBe(0);
    expect(show.text()).toContain(`best: ${doc.best}`);
    expect(show.text()).toContain('candidates (6):');
  });

  it('reaches the same best candidate with memoization off, and reports what the memo saved', async () => {
    const on = capture();
    const off = capture();
    expect(
      await runCli([...base(), '--out', join(fx.dir, 'memo-on'), '--db', join(fx.dir, 'm.db'), '--json'], on),
    ).toBe(0);
    expect(
      await runCli(
        [...base(), '--out', join(fx.dir, 'memo-off'), '--db', join(fx.dir, 'm.db'), '--json', '--no-memo'],
        off,
      ),
    ).toBe(0);
    const a = JSON.parse(on.text());
    const b = JSON.parse(off.text());
    expect(a.best).toBe(b.best);
    const strip = (d: { candidates: Array<Record<string, unknown>> }) =>
      d.candidates.map(({ id, optReward, valScore, summary }) => ({ id, optReward, valScore, summary }));
    expect(strip(a)).toEqual(strip(b));
    expect(a.test).toEqual(b.test);
    expect(a.savings.nodeRunsSaved).toBeGreaterThan(0);
    expect(a.savings.toolCallsSaved).toBeGreaterThan(0);
    expect(b.savings).toBeUndefined();
  });

  it('runs the ablation variants: beam, NoMiner, NoMCTS and LLM-only', async () => {
    const run = async (name: string, extra: string[]) => {
      const io = capture();
      const out = join(fx.dir, `variant-${name}`);
      expect(
        await runCli([...base(), '--iterations', '3', '--out', out, '--db', join(fx.dir, 'v.db'), ...extra], io),
        io.errors(),
      ).toBe(0);
      return {
        text: io.text(),
        doc: JSON.parse(readFileSync(join(out, 'search.json'), 'utf8')),
        best: JSON.parse(readFileSync(join(out, 'best.workflow.json'), 'utf8')),
      };
    };
    const beam = await run('beam', ['--strategy', 'beam']);
    expect(beam.text).toContain('strategy beam');
    expect(beam.doc.candidates).toHaveLength(4);
    const plain = await run('plain', ['--start', 'plain']);
    expect(plain.doc.candidates[0].summary).toBe('G0 (NoMiner skeleton)');
    const none = await run('none', ['--strategy', 'none']);
    expect(none.doc.candidates).toHaveLength(1);
    expect(none.text).toContain('ended: NoMCTS: G0 only, no search.');
    const llmOnly = await run('llm-only', ['--start', 'llm-only']);
    expect(llmOnly.doc.candidates[0].summary).toBe('G0 (LLM-only skeleton)');
    expect(llmOnly.best.nodes.some((n: { kind: string }) => n.kind === 'tool')).toBe(false);
    // The mined G0 without its router is named as such (it once showed as "LLM-only skeleton").
    const skeleton = await run('skeleton', ['--start', 'skeleton', '--strategy', 'none']);
    expect(skeleton.doc.candidates[0].summary).toBe('G0 (mined from D_opt, no router)');
    expect(skeleton.best.nodes.some((n: { kind: string }) => n.kind === 'tool')).toBe(true);
    const merged = await run('merged', ['--start', 'merged', '--strategy', 'none']);
    expect(merged.doc.candidates[0].summary).toBe('G0 (mined from D_opt, choices merged into steps)');
    expect(merged.best.nodes.some((n: { kind: string }) => n.kind === 'tool')).toBe(true);
  });

  it('names G0 after the folder of records that name no domain ("shop G0"), not after the file ("records G0")', async () => {
    const dir = join(fx.dir, 'shop');
    mkdirSync(dir, { recursive: true });
    const records = join(dir, 'records.jsonl');
    const lines = readFileSync(fx.records, 'utf8').trim().split('\n');
    writeFileSync(records, `${lines.map((l) => JSON.stringify({ ...JSON.parse(l), domain: undefined })).join('\n')}\n`);
    const io = capture();
    const out = join(fx.dir, 'named');
    const args = ['search', '--records', records, '--tools', fx.tools, '--strategy', 'none'];
    expect(await runCli([...args, '--out', out, '--db', join(fx.dir, 'n.db')], io), io.errors()).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'best.workflow.json'), 'utf8')).name).toBe('shop G0');
  });

  it('refuses a non-empty --out without --force, and explains missing inputs', async () => {
    const dir = join(fx.dir, 'occupied');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    const io = capture();
    expect(await runCli([...base(), '--out', dir, '--db', join(fx.dir, 'x.db')], io)).toBe(2);
    expect(io.errors()).toMatch(/the output folder .*occupied is not empty \(keep\.txt\)[\s\S]*--force/);
    const io2 = capture();
    expect(await runCli(['search', '--db', join(fx.dir, 'x.db')], io2)).toBe(2);
    expect(io2.errors()).toContain('search needs --records <file> and --tools <config> (or --resume <run>)');
  });
});

describe('flowscout eval of a searched workflow', () => {
  it('reproduces the search test TC and ES with no extra flag or file (the workflow carries what was learned as hints) and says when nothing was learned', async () => {
    const out = join(fx.dir, 'run-eval');
    const io = capture();
    expect(await runCli([...base(), '--out', out, '--db', join(fx.dir, 'e.db')], io)).toBe(0);
    // 16 records split 5:2:3 leave too few for validation: the search says so and what to do.
    expect(io.errors()).toMatch(
      /^warning: the split leaves fewer than 5 records in D_val \(\d\)(, D_test \(\d\))?; scores on so few records say little\. Import more runs, or --keep-failed/m,
    );
    const doc = JSON.parse(readFileSync(join(out, 'search.json'), 'utf8'));
    expect(doc.test.records).toBeGreaterThan(0);
    const best = JSON.parse(readFileSync(join(out, 'best.workflow.json'), 'utf8'));
    expect(best.meta.search.learnedFrom).toBeUndefined();
    expect(existsSync(join(out, 'learned.records.jsonl'))).toBe(false);
    expect(best.learned).toBeUndefined();
    const testRecords = join(out, 'test.records.jsonl');
    expect(readFileSync(testRecords, 'utf8').trim().split('\n')).toHaveLength(doc.test.records);

    const ev = capture();
    expect(
      await runCli(
        ['eval', join(out, 'best.workflow.json'), '--records', testRecords, '--tools', fx.tools, '--json'],
        ev,
      ),
    ).toBe(0);
    const res = JSON.parse(ev.text());
    expect(res.tc).toBeCloseTo(doc.test.best.tc, 12);
    expect(res.es).toBeCloseTo(doc.test.best.es, 12);
    const hints = best.nodes.reduce((n: number, x: { hints?: unknown[] }) => n + (x.hints?.length ?? 0), 0);
    expect(res.learned).toMatch(
      hints > 0
        ? /^offline policy: decides from the request, the tools and the workflow's \d+ bindings? and \d+ tool hints?$/
        : /^offline policy: decides from the request and the tool descriptions alone/,
    );

    // The same workflow without what the search learned: the one-line warning, and different scores.
    const bare = join(fx.dir, 'bare.workflow.json');
    const unlearned = best.nodes.map((n: Record<string, unknown>) => {
      const { hints: _h, bind: _b, ...rest } = n;
      return rest;
    });
    writeFileSync(bare, JSON.stringify({ ...best, meta: {}, nodes: unlearned }));
    const ev2 = capture();
    expect(await runCli(['eval', bare, '--records', testRecords, '--tools', fx.tools], ev2)).toBe(0);
    expect(ev2.text()).toContain(
      'offline policy: decides from the request and the tool descriptions alone (the workflow carries no bindings or hints: a search learns them)',
    );
  });
});
