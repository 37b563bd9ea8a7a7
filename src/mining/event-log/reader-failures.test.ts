import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cli } from '../../../test/support/cli-io.js';
import { readCsvLog } from './read-csv.js';
import { readEventLog } from './read-event-log.js';
import { readJsonlLog } from './read-jsonl-log.js';
import { readXes } from './read-xes.js';

/**
 * Nothing dropped in silence: rows, events and lines that cannot be read are refused with their
 * count and first line, or left out and counted with --skip-invalid (the same flag on every
 * command that reads records or logs); a byte-order mark is accepted by every reader; a cut-off
 * gzip file is a named PARSE_ERROR, not "a bug".
 */

const dir = mkdtempSync(join(tmpdir(), 'flowscout-reader-failures-'));
const file = (name: string, text: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const BOM = '\uFEFF';

describe('CSV rows that cannot be placed in a case', () => {
  const csv = file(
    'holes.csv',
    'case,activity,timestamp\n1,a,2024-01-01\n,b,2024-01-02\n1,,2024-01-03\n2,a,\n2,b,2024-01-05\n',
  );

  it('are refused with their count, reasons and first lines', async () => {
    await expect(readCsvLog(csv)).rejects.toThrow(
      /holes\.csv: 3 rows cannot be placed in a case \(1 with a blank case id \(column 'case'\), 1 with a blank activity \(column 'activity'\), 1 with a blank timestamp \(column 'timestamp'\)\), first on lines 3, 4, 5/,
    );
  });

  it('are left out and counted with skipInvalid, and the CLI says so', async () => {
    const log = await readCsvLog(csv, { skipInvalid: true });
    expect(log.caseIds).toEqual(['1', '2']);
    expect(log.skipped).toEqual({
      count: 3,
      reasons: {
        "blank case id (column 'case')": 1,
        "blank activity (column 'activity')": 1,
        "blank timestamp (column 'timestamp')": 1,
      },
    });
    const refused = await cli(['mine', csv]);
    expect(refused.status).toBe(2);
    expect(refused.err).toContain('or pass --skip-invalid to leave those rows out');
    const res = await cli(['mine', csv, '--skip-invalid']);
    expect(res.status).toBe(0);
    expect(res.err).toContain(
      `skipped 3 of ${csv} (--skip-invalid): 1 blank case id (column 'case'), 1 blank activity (column 'activity'), 1 blank timestamp (column 'timestamp')`,
    );
  });
});

describe('other readers', () => {
  it('refuse XES events without an activity unless skipInvalid, naming the line', async () => {
    const xes = file(
      'no-activity.xes',
      '<log>\n<trace><string key="concept:name" value="c1"/>\n<event><string key="concept:name" value="a"/></event>\n<event><string key="org:resource" value="x"/></event>\n</trace>\n</log>\n',
    );
    await expect(readXes(xes)).rejects.toThrow(
      /no-activity\.xes: 1 event has no 'concept:name' attribute \(the activity\), the first ending on line 4/,
    );
    const log = await readXes(xes, { skipInvalid: true });
    expect(log.skipped?.count).toBe(1);
    expect(log.activities).toEqual(['a']);
  });

  it('skip and count bad JSONL event-log lines with skipInvalid', async () => {
    const jsonl = file(
      'events.jsonl',
      '{"case":"c1","events":[{"activity":"a"}]}\nnot json\n{"case":"c2","events":[{"activity":""}]}\n',
    );
    await expect(readJsonlLog(jsonl)).rejects.toMatchObject({ location: { file: jsonl, line: 2 } });
    const log = await readJsonlLog(jsonl, { skipInvalid: true });
    expect(log.caseIds).toEqual(['c1']);
    expect(log.skipped).toEqual({ count: 2, reasons: { 'not a case object': 1, 'bad $.events[].activity': 1 } });
  });

  it('accept a UTF-8 byte-order mark: records, JSONL logs and CSV', async () => {
    const records = readFileSync(join(import.meta.dirname, '../../../test/fixtures/mining/records.jsonl'), 'utf8');
    const withBom = file('bom-records.jsonl', BOM + records);
    const mined = await cli(['mine', withBom]);
    expect(mined.status, mined.err).toBe(0);
    expect(mined.out).toBe((await cli(['mine', file('plain-records.jsonl', records)])).out);
    expect(
      (await readEventLog(file('bom-events.jsonl', `${BOM}{"case":"c1","events":[{"activity":"a"}]}\n`))).log
        .activities,
    ).toEqual(['a']);
    expect((await readCsvLog(file('bom.csv', `${BOM}case,activity\n1,a\n`))).activities).toEqual(['a']);
  });

  it('name a truncated .gz file and say what to do (exit 2, not "a bug")', async () => {
    const gz = gzipSync(
      Buffer.from(
        `<log>${'<trace><string key="concept:name" value="c1"/><event><string key="concept:name" value="a"/></event></trace>'.repeat(2000)}</log>`,
      ),
    );
    const cut = file('cut.xes.gz', gz.subarray(0, Math.floor(gz.length / 2)));
    const res = await cli(['mine', cut]);
    expect(res.status).toBe(2);
    expect(res.err).toBe(
      `error [PARSE_ERROR]: ${cut}: the gzip file ends early: it is truncated (an interrupted download or copy)\n  Copy or download the file again; \`gzip -t <file>\` checks a .gz file.\n`,
    );
    const csvCut = file('cut.csv.gz', gzipSync(Buffer.from(`case,activity\n${'1,a\n'.repeat(5000)}`)).subarray(0, 40));
    expect((await cli(['mine', csvCut])).err).toContain(`${csvCut}: the gzip file ends early`);
  });
});
