import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { BenchResults } from '../../src/bench/experiments/results.js';
import { readRecordsFile } from '../../src/records/read-records.js';
import { cli } from '../support/cli-io.js';

/**
 * Real agents' logs imported in one command (test/fixtures/agent-logs/nested-runs: API-Bank and
 * tau-bench retail runs with their messages under `traj`, tool schemas in tools.json, reward 0 and
 * 1, four runs per task, hand-offs, "Error: …" outputs), then benchmarked on a split by task.
 */

const DIR = join(import.meta.dirname, '../fixtures/agent-logs/nested-runs');
const RUNS = join(DIR, 'runs.json');
const TOOLS = join(DIR, 'tools.json');
const tmp = () => mkdtempSync(join(tmpdir(), 'fs-agent-runs-'));

describe('flowscout import auto <runs> --tools --where --group', () => {
  const out = tmp();
  let res: Awaited<ReturnType<typeof cli>>;
  beforeAll(async () => {
    res = await cli([
      'import',
      'auto',
      RUNS,
      '--tools',
      TOOLS,
      '--where',
      'reward=1',
      '--group',
      'task_id',
      '--out',
      out,
    ]);
  });

  it('imports the raw file in one command, and the summary says where the messages were, what was selected and the groups', async () => {
    expect(res.status).toBe(0);
    // The first line says what was kept, not the conversations read.
    expect(res.out.split('\n')[0]).toBe(
      'Imported 24 records from 32 openai conversations (format detected from the content)',
    );
    expect(res.out).toMatch(/messages found\s+under \$\.traj \(24 runs\)/);
    expect(res.out).toMatch(/selected\s+24 of 32 runs by --where reward=1 \(8 left out\)/);
    expect(res.out).toMatch(/kept\s+24\n/);
    expect(res.out).toMatch(/groups\s+8 by --group task_id\n/);
    const { records } = await readRecordsFile(join(out, 'records.jsonl'));
    expect(records).toHaveLength(24);
    expect(new Set(records.map((r) => r.group)).size).toBe(8);
  });

  it('names the tools with no declared effect, says what that means, and writes a suggested effects map apart, not applied', async () => {
    expect(res.out).toMatch(/effects\s+none declared for the 16 tools \(/);
    expect(res.out).toContain('each counts as a write');
    expect(res.out).toContain('none is ever held for approval (only destructive calls are)');
    expect(res.out).toContain(`NOT applied: check ${join(out, 'effects.suggested.json')}`);
    const suggested = JSON.parse(readFileSync(join(out, 'effects.suggested.json'), 'utf8')) as {
      effects: Record<string, string>;
    };
    expect(suggested.effects).toMatchObject({
      ModifyPassword: 'write',
      AddAlarm: 'write',
      return_delivered_order_items: 'write',
      QueryBalance: 'read',
      get_order_details: 'read',
    });
    // The tool config the import wrote declares nothing: a suggestion is only applied by the user.
    expect(JSON.parse(readFileSync(join(out, 'tools.config.json'), 'utf8')).effects).toBeUndefined();
    const listed = await cli(['tools', join(out, 'tools.config.json')]);
    expect(listed.status).toBe(0);
    expect(listed.out).toMatch(/no declared effect: 16 tools \(/);
    expect(listed.out).toContain('"ModifyPassword":"write"');
    expect(listed.out).toContain(
      `Not applied: confirm it, then put it in the "effects" of ${join(out, 'tools.config.json')}`,
    );
  });

  it('--apply-effects lists the suggested effects and declares them in the tool config it writes, which it never overwrites without --force', async () => {
    const applied = tmp();
    const args = ['import', 'auto', RUNS, '--tools', TOOLS, '--where', 'reward=1', '--out', applied, '--apply-effects'];
    const r = await cli(args);
    expect(r.status, r.err).toBe(0);
    const suggested = JSON.parse(readFileSync(join(applied, 'effects.suggested.json'), 'utf8')) as {
      effects: Record<string, string>;
    };
    const config = join(applied, 'tools.config.json');
    const written = JSON.parse(readFileSync(config, 'utf8')) as { effects: Record<string, string> };
    expect(written.effects).toEqual(suggested.effects);
    const n = Object.keys(suggested.effects).length;
    expect(n).toBeGreaterThan(0);
    // Shown before the user relies on them: the summary says they were applied, where, and lists each.
    expect(r.out).toMatch(
      new RegExp(`effects\\s+${n} of the 16 tools declared from the suggestions below \\(--apply-effects\\)`),
    );
    expect(r.out).toContain(`APPLIED: written into ${config} as its "effects"`);
    for (const effect of ['destructive', 'write', 'read']) {
      const named = Object.keys(suggested.effects).filter((t) => suggested.effects[t] === effect);
      if (named.length) expect(r.out).toContain(`    ${effect.padEnd(12)}${named.join(', ')}`);
    }
    // The tool config now declares them: nothing is left undeclared that the suggestions cover.
    const listed = await cli(['tools', config]);
    expect(listed.status).toBe(0);
    expect(listed.out).toMatch(new RegExp(`no declared effect: ${16 - n} tool`));
    // An existing config is not replaced without --force, and says so.
    writeFileSync(
      config,
      JSON.stringify({ ...written, effects: { ...written.effects, ModifyPassword: 'destructive' } }),
    );
    const again = await cli(args);
    expect(again.status).toBe(2);
    expect(again.err).toContain('not overwriting');
    expect(again.err).toContain('--force');
    expect(JSON.parse(readFileSync(config, 'utf8')).effects.ModifyPassword).toBe('destructive');
  });

  it('says how many hand-offs it kept, which errors came back as text, and how references were chosen', () => {
    expect(res.out).toContain('6 runs ending in a tool call (hand-offs, final writes) kept without one');
    expect(res.out).toMatch(
      /calls\s+86 \(failed: 8, of them errors returned as text: 8; to tools absent from the definitions: 0\)/,
    );
    expect(res.out).toMatch(
      /failed on the way\s+8 failed calls of selected runs left out of the reference logs \(kept in the records' turns\)/,
    );
    expect(res.out).toMatch(
      /references\s+18 chosen as the assistant's content after the last tool result \(6 closing formulas passed over\)/,
    );
    expect(res.out).toMatch(/tools\s+16 \(16 defined, 16 of them by --tools; 0 inferred from recorded calls\)/);
  });

  it('--error-pattern makes more outputs failed calls', async () => {
    const again = await cli([
      'import',
      'auto',
      RUNS,
      '--tools',
      TOOLS,
      '--where',
      'reward=1',
      '--error-pattern',
      '^Transfer successful$',
      '--out',
      tmp(),
    ]);
    expect(again.status).toBe(0);
    expect(again.out).toMatch(/failed: 14, of them errors returned as text: 14;/);
  });

  it('--split-by group without groups is an error, not a silent split by record', async () => {
    const plain = tmp();
    const imp = await cli(['import', 'auto', RUNS, '--tools', TOOLS, '--where', 'reward=1', '--out', plain]);
    expect(imp.status).toBe(0);
    // Without --group, the import warns that repeated tasks would straddle a search's default split.
    expect(imp.err).toMatch(
      /warning: \d+ requests? repeated with only numbers or ids changed \(\d+ records.*Import with --group <json path>/,
    );
    const bad = await cli([
      'baseline',
      'pm4py-style',
      '--records',
      join(plain, 'records.jsonl'),
      '--tools',
      join(plain, 'tools.config.json'),
      '--split-by',
      'group',
    ]);
    expect(bad.status).toBe(2);
    expect(bad.err).toContain('--split-by group: no record in');
    expect(bad.err).toContain('--group <json path>');
  });
});

describe('flowscout import --redact', () => {
  it('writes no e-mail address, phone number or user id of the input, each value under one stable placeholder', async () => {
    const dir = tmp();
    const phoneRun = {
      task_id: 'phone',
      reward: 1,
      traj: [
        { role: 'user', content: 'Call me back on +1 415 555 0134 or (415) 555-0199, account mia_garcia_4516.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'p1',
              type: 'function',
              function: { name: 'get_user_details', arguments: '{"user_id":"mia_garcia_4516"}' },
            },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'p1',
          content: '{"email": "mia.garcia2723@example.com", "phone": "+1 415 555 0134"}',
        },
        { role: 'assistant', content: 'I will call +1 415 555 0134 about mia_garcia_4516.' },
      ],
    };
    const runs = [...(JSON.parse(readFileSync(RUNS, 'utf8')) as unknown[]), phoneRun];
    writeFileSync(join(dir, 'runs.json'), JSON.stringify(runs));
    const input = readFileSync(join(dir, 'runs.json'), 'utf8');
    const emails = new Set(input.match(/[\w.+-]+@[\w-]+\.[\w.]+/g));
    const userIds = new Set(input.match(/\b[a-z]+_[a-z]+_\d{4}\b/g));
    expect(emails.size).toBeGreaterThanOrEqual(3);
    expect(userIds).toEqual(new Set(['mia_garcia_4516', 'isabella_johansson_2152']));
    const out = join(dir, 'out');
    const res = await cli([
      'import',
      'auto',
      join(dir, 'runs.json'),
      '--tools',
      TOOLS,
      '--where',
      'reward=1',
      '--group',
      'task_id',
      '--redact',
      'emails,phones,ids',
      '--out',
      out,
    ]);
    expect(res.status).toBe(0);
    expect(res.out).toMatch(/redacted\s+\d+ emails \(\d+ distinct values?\), 4 phones \(2 distinct values\), \d+ ids/);
    const written = readFileSync(join(out, 'records.jsonl'), 'utf8');
    for (const e of emails) expect(written).not.toContain(e);
    for (const u of userIds) expect(written).not.toContain(u);
    for (const p of ['415 555 0134', '555-0199']) expect(written).not.toContain(p);
    const { records } = await readRecordsFile(join(out, 'records.jsonl'));
    const r = records.find((x) => x.group === 'phone')!;
    const id = /<ID_\d+>/.exec(r.calls[0]!.args.user_id as string)![0];
    const phone = /<PHONE_\d+>/.exec(r.query)![0];
    expect(r.query).toContain(`account ${id}`);
    expect(r.reference).toBe(`I will call ${phone} about ${id}.`);
    expect(String(r.calls[0]!.output)).toContain(`"phone": "${phone}"`);
    // Replay still answers the redacted call with the redacted output.
    expect(readFileSync(join(out, 'tools.config.json'), 'utf8')).toContain('replay');
  });
});

describe('flowscout bench --records --tools on grouped records', () => {
  let results: BenchResults;
  let report = '';
  const dir = tmp();
  beforeAll(async () => {
    vi.stubEnv('FLOWSCOUT_MODEL', '');
    const data = join(dir, 'runs');
    expect(
      (
        await cli([
          'import',
          'auto',
          RUNS,
          '--tools',
          TOOLS,
          '--where',
          'reward=1',
          '--group',
          'task_id',
          '--out',
          data,
        ])
      ).status,
    ).toBe(0);
    const out = join(dir, 'report');
    const res = await cli([
      'bench',
      '--records',
      join(data, 'records.jsonl'),
      '--tools',
      join(data, 'tools.config.json'),
      '--name',
      'Agent runs',
      '--iterations',
      '1',
      '--runs',
      '1',
      '--max-test',
      '6',
      '--seed',
      '1',
      '--out',
      out,
    ]);
    expect(res.status).toBe(0);
    results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as BenchResults;
    report = readFileSync(join(out, 'report.md'), 'utf8');
  }, 180_000);

  it('puts no task in two parts, the report says the split was by group, and ES leaves out the hand-offs', async () => {
    const d = results.domains[0]!;
    expect(d.split).toMatchObject({ by: 'group' });
    expect(d.split.opt + d.split.val + d.split.test).toBe(24);
    expect(report).toContain(
      'split by group (8 groups of 24 records, each in one part; --split-by record splits single records)',
    );
    // Which part each task went to, from the per-record results of the measured test queries and the seeded split.
    const { records } = await readRecordsFile(join(dir, 'runs', 'records.jsonl'));
    const { splitRecords } = await import('../../src/records/split.js');
    const split = splitRecords(records, { ratio: [5, 2, 3], seed: 1, by: 'group' });
    expect([split.opt.length, split.val.length, split.test.length]).toEqual([d.split.opt, d.split.val, d.split.test]);
    const partOf = new Map<string, string>();
    for (const [name, list] of Object.entries(split)) {
      for (const r of list) {
        expect(partOf.get(r.group!) ?? name).toBe(name);
        partOf.set(r.group!, name);
      }
    }
    const flow = d.approaches.find((a) => a.id === 'flowscout')!;
    const measured = flow.records.map((r) => r.id);
    // Hand-off records in the test part have no reference answer: ES leaves them out, and the report says so.
    expect(flow.records.filter((r) => r.noReference)).toHaveLength(3);
    expect(flow.esRecords).toBe(3);
    expect(flow.es).toBeCloseTo(flow.records.filter((r) => !r.noReference).reduce((s, r) => s + r.es, 0) / 3, 12);
    expect(report).toContain('ES is scored on 3 of 6 measured queries (the others have no reference answer');
    expect(measured.every((id) => split.test.some((r) => r.id === id))).toBe(true);
  });
});

describe('flowscout search on grouped records', () => {
  it('splits by group by default and says so, and reports ES on the test records that have a reference', async () => {
    const dir = tmp();
    const data = join(dir, 'runs');
    expect(
      (
        await cli([
          'import',
          'auto',
          RUNS,
          '--tools',
          TOOLS,
          '--where',
          'reward=1',
          '--group',
          'task_id',
          '--out',
          data,
        ])
      ).status,
    ).toBe(0);
    const args = [
      'search',
      '--records',
      join(data, 'records.jsonl'),
      '--tools',
      join(data, 'tools.config.json'),
      '--iterations',
      '1',
      '--seed',
      '1',
      '--db',
      join(dir, 'fs.db'),
    ];
    const res = await cli([...args, '--out', join(dir, 'run')]);
    expect(res.status).toBe(0);
    expect(res.out).toContain(
      '12 D_opt, 6 D_val, 6 D_test records (split by group (8 groups of 24 records, each in one part; --split-by record splits single records))',
    );
    expect(res.out).toMatch(
      /test set \(6 records\):.*\n\s+ES on 3 of 6 records \(3 without a reference answer: TC only\)/,
    );
    const test = (await readRecordsFile(join(dir, 'run', 'test.records.jsonl'))).records;
    const opt = new Set(
      (await readRecordsFile(join(data, 'records.jsonl'))).records
        .filter((r) => !test.some((t) => t.id === r.id))
        .map((r) => r.group),
    );
    expect(test.filter((r) => opt.has(r.group))).toEqual([]);
    const byRecord = await cli([...args, '--split-by', 'record', '--out', join(dir, 'run2')]);
    expect(byRecord.status).toBe(0);
    expect(byRecord.out).toContain('records (split by record); strategy');
  }, 120_000);
});
