import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FlowScoutError } from '../../errors/index.js';
import { RecordSchema } from '../../records/schema.js';
import { activityByParentTool, eventLogFromRecords } from './from-records.js';
import { namedVariants } from './event-log.js';
import { readCsvLog } from './read-csv.js';
import { readEventLog } from './read-event-log.js';
import { readJsonlLog } from './read-jsonl-log.js';
import { readXes } from './read-xes.js';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/mining');
const f = (name: string) => join(fixtures, name);
const traces = (log: Awaited<ReturnType<typeof readXes>>) =>
  log.caseIds.map((id, i) => [id, namedVariants(log)[log.caseVariants[i]!]!.activities.join(' > ')]);

describe('readXes', () => {
  it('orders cases by case id and events by timestamp (UTC), decodes entities, ignores nested attributes and globals', async () => {
    const log = await readXes(f('small.xes'));
    // c2: 10:00+01:00 is 09:00Z, before summarize at 09:30Z, whatever the file order.
    expect(traces(log)).toEqual([
      ['c1', 'search & find > fetch > summarize'],
      ['c2', 'search & find > summarize'],
    ]);
  });

  it('reads .xes.gz the same way, streamed', async () => {
    const plain = await readXes(f('small.xes'));
    const gz = await readXes(f('small.xes.gz'));
    expect(namedVariants(gz)).toEqual(namedVariants(plain));
  });

  it('keeps file order when asked (the legacy EventLog path)', async () => {
    const log = await readXes(f('small.xes'), { order: 'file' });
    expect(log.caseIds).toEqual(['c2', 'c1']);
    expect(namedVariants(log)[0]!.activities).toEqual(['search & find', 'summarize']);
  });

  it('names the file for a missing file, a non-XES file and a broken gzip', async () => {
    await expect(readXes(f('nope.xes'))).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(readXes(f('tools.json'))).rejects.toThrow(/no <log> element/);
    const dir = mkdtempSync(join(tmpdir(), 'fs-mining-'));
    writeFileSync(join(dir, 'broken.xes.gz'), 'not gzip at all');
    await expect(readXes(join(dir, 'broken.xes.gz'))).rejects.toThrow(/broken\.xes\.gz is not a valid gzip file/);
    writeFileSync(
      join(dir, 'cut.xes'),
      '<log><trace><event><string key="concept:name" value="a"/></event></trace><trace',
    );
    await expect(readXes(join(dir, 'cut.xes'))).rejects.toThrow(/ends inside an XML tag \(line 1\)/);
  });

  it('refuses a log cut after a whole tag, and badly nested elements, naming the line (no partial tree)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-mining-'));
    writeFileSync(
      join(dir, 'truncated.xes'),
      '<log>\n<trace><event><string key="concept:name" value="a"/></event></trace>\n<trace>\n<event>\n',
    );
    await expect(readXes(join(dir, 'truncated.xes'))).rejects.toMatchObject({
      code: 'PARSE_ERROR',
      location: { line: 4 },
      message: expect.stringContaining('ends before <event> (opened on line 4) is closed'),
    });
    writeFileSync(
      join(dir, 'nested.xes'),
      '<log>\n<trace><event><string key="concept:name" value="a"/>\n</trace></log>\n',
    );
    await expect(readXes(join(dir, 'nested.xes'))).rejects.toMatchObject({
      code: 'PARSE_ERROR',
      location: { line: 3 },
      message: expect.stringContaining('</trace> at line 3 closes <event> (opened on line 2)'),
    });
  });
});

describe('readCsvLog', () => {
  it('detects CaseID/Activity/Timestamp and ; separator, handles quotes and newlines, sorts like PM4Py', async () => {
    const log = await readCsvLog(f('small.csv'));
    expect(traces(log)).toEqual([
      ['1', 'summarize > search, then read'],
      ['2', 'search, then read > summarize'],
    ]);
  });

  it('says which column is missing and lists the columns', async () => {
    await expect(readCsvLog(f('small.csv'), { activityColumn: 'Tool' })).rejects.toThrow(
      /no column 'Tool' \(activity\); columns: CaseID, Activity, Timestamp, Note/,
    );
  });

  it('names the line of an unreadable timestamp', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-mining-'));
    writeFileSync(join(dir, 'bad.csv'), 'case,activity,timestamp\n1,a,2024-01-01\n1,b,yesterday-ish\n');
    const err = (await readCsvLog(join(dir, 'bad.csv')).catch((e: FlowScoutError) => e)) as FlowScoutError;
    expect(err.location).toMatchObject({ line: 3 });
    expect(err.describe()).toMatch(/bad\.csv:3: cannot read timestamp "yesterday-ish"/);
    expect(err.describe().match(/bad\.csv:3/g)).toHaveLength(1);
  });
});

describe('readJsonlLog', () => {
  it('reads cases, sorts by case-id string and by timestamp where given, skips blank lines', async () => {
    const log = await readJsonlLog(f('events.jsonl'));
    expect(traces(log)).toEqual([
      ['3', 'search > answer'],
      ['a', 'answer > search'],
      ['b', 'search > fetch > answer'],
    ]);
  });

  it('names the line and the JSON path of a bad event, once', async () => {
    const err = await readJsonlLog(f('bad-events.jsonl')).then(
      () => undefined,
      (e: FlowScoutError) => e,
    );
    expect(err?.location).toMatchObject({ line: 2, path: '$.events[0].activity' });
    const printed = err!.describe();
    expect(printed).toMatch(/^\S*bad-events\.jsonl:2 \(\$\.events\[0\]\.activity\): expected a non-empty string\n/);
    expect(printed.match(/bad-events\.jsonl:2/g)).toHaveLength(1);
  });

  it('reads events given as plain activity strings, as well as objects', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-jsonl-'));
    const file = join(dir, 'strings.jsonl');
    writeFileSync(
      file,
      '{"case": "c1", "events": ["search", "fetch"]}\n{"case": "c2", "events": ["search", {"activity": "answer"}]}\n',
    );
    expect(traces(await readJsonlLog(file))).toEqual([
      ['c1', 'search > fetch'],
      ['c2', 'search > answer'],
    ]);
    writeFileSync(file, '{"case": "c1", "events": ["search", ""]}\n');
    await expect(readJsonlLog(file)).rejects.toMatchObject({ location: { line: 1, path: '$.events[1]' } });
  });
});

describe('event logs from records', () => {
  const records = [
    RecordSchema.parse({
      id: 'r1',
      query: 'q',
      reference: 'r',
      calls: [{ tool: 'quote_for_alpha_vantage' }, { tool: 'news_for_webull' }],
    }),
    RecordSchema.parse({ id: 'r2', query: 'q', reference: 'r', calls: [] }),
    RecordSchema.parse({
      id: 'r3',
      query: 'q',
      reference: 'r',
      calls: [{ tool: 'quote_for_alpha_vantage' }, { tool: 'news_for_webull' }],
    }),
  ];

  it('one case per record, activity = tool, variants with counts in first-seen order', () => {
    const log = eventLogFromRecords(records);
    expect(log.caseIds).toEqual(['r1', 'r2', 'r3']);
    expect(namedVariants(log)).toEqual([
      { activities: ['quote_for_alpha_vantage', 'news_for_webull'], count: 2 },
      { activities: [], count: 1 },
    ]);
  });

  it('can name activities by parent tool and skip empty records', () => {
    const log = eventLogFromRecords(records, { activity: activityByParentTool, skipEmpty: true });
    expect(namedVariants(log)).toEqual([{ activities: ['alpha_vantage', 'webull'], count: 2 }]);
  });

  it('readEventLog tells records from JSONL event logs', async () => {
    expect((await readEventLog(f('records.jsonl'))).source).toBe('records');
    expect((await readEventLog(f('events.jsonl'))).source).toBe('jsonl-events');
    await expect(readEventLog(f('small.txt'))).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    const dir = mkdtempSync(join(tmpdir(), 'fs-mining-'));
    writeFileSync(join(dir, 'odd.jsonl'), '{"x": 1}\n');
    await expect(readEventLog(join(dir, 'odd.jsonl'))).rejects.toThrow(/odd\.jsonl:1: neither a record/);
  });
});
