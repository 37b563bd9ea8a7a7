import { createWriteStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cli } from '../../../test/support/cli-io.js';
import { FlowScoutError } from '../../errors/index.js';
import { namedVariants } from './event-log.js';
import { readCsvLog } from './read-csv.js';
import { readEventLog } from './read-event-log.js';
import { readJsonlLog } from './read-jsonl-log.js';
import { gzipTrailerSize, parseByteSize } from './read-limits.js';
import { readXes } from './read-xes.js';
import { tokenizeXml } from './xml-tokenizer.js';

/**
 * Readers with budgets: a .gz that unpacks past the cap, a comment, a declaration, a tag or a line
 * past its limit is refused with INPUT_TOO_LARGE naming the file, the limit and the option that
 * raises it; under the limits, long comments and tags are read whole and correctly, whatever the
 * chunk seams.
 */

const dir = mkdtempSync(join(tmpdir(), 'flowscout-reader-limits-'));
const file = (name: string, text: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const MiB = 1024 * 1024;
const trace = (id: string, ...acts: string[]) =>
  `<trace><string key="concept:name" value="${id}"/>${acts.map((a) => `<event><string key="concept:name" value="${a}"/></event>`).join('')}</trace>\n`;

async function failure(p: Promise<unknown>): Promise<FlowScoutError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(FlowScoutError);
  return e as FlowScoutError;
}

describe('the cap on unpacked size', () => {
  it('refuses a .xes.gz that unpacks past it, naming the file, the limit and the option, without reading on', async () => {
    // 8 MiB of valid XES from a ~40 KB gzip; the cap at 2 MiB stops it.
    const gz = join(dir, 'bomb.xes.gz');
    const body = trace('c', 'a', 'b').repeat(Math.ceil((8 * MiB) / trace('c', 'a', 'b').length));
    await pipeline(Readable.from(['<log>\n', body, '</log>\n']), createGzip(), createWriteStream(gz));
    // Its trailer states the size, so it is refused before anything is unpacked.
    const stated = gzipTrailerSize(gz).stated;
    expect(stated).toBeGreaterThan(8 * MiB);
    const e = await failure(readXes(gz, { limits: { maxUnpackedBytes: 2 * MiB } }));
    expect(e.code).toBe('INPUT_TOO_LARGE');
    expect(e.location).toEqual({ file: gz });
    expect(e.message).toBe(
      `${gz}: the unpacked content (8 MiB, as its gzip trailer states) is larger than the limit of 2 MiB (maxUnpackedBytes)`,
    );
    expect(e.hint).toContain('--max-unpacked');
    expect(e.details).toEqual({ limit: 'maxUnpackedBytes', bytes: 2 * MiB, option: '--max-unpacked', stated });
    // Raised, the same file reads.
    const log = await readXes(gz, { limits: { maxUnpackedBytes: 16 * MiB } });
    expect(namedVariants(log)).toEqual([{ activities: ['a', 'b'], count: log.caseIds.length }]);
  });

  it('also stops a bomb whose gzip trailer understates its size (two members), while unpacking', async () => {
    const gz = join(dir, 'two-members.xes.gz');
    const body = trace('c', 'a', 'b').repeat(Math.ceil((8 * MiB) / trace('c', 'a', 'b').length));
    // The trailer at the end of the file is the second member's: a few bytes.
    writeFileSync(gz, Buffer.concat([gzipSync(Buffer.from(`<log>\n${body}`)), gzipSync(Buffer.from('</log>\n'))]));
    expect(gzipTrailerSize(gz).stated).toBe(7);
    const e = await failure(readXes(gz, { limits: { maxUnpackedBytes: 2 * MiB } }));
    expect(e.code).toBe('INPUT_TOO_LARGE');
    expect(e.message).toBe(`${gz}: the unpacked content is larger than the limit of 2 MiB (maxUnpackedBytes)`);
    expect((await readXes(gz, { limits: { maxUnpackedBytes: 16 * MiB } })).variants).toHaveLength(1);
  });

  it('applies to gzipped JSONL and CSV logs too, and the CLI says which option raises it (exit 2)', async () => {
    const jsonl = file(
      'big.jsonl.gz',
      gzipSync(
        Buffer.from(Array.from({ length: 100_000 }, (_, i) => `{"case":"c${i}","events":["a","b"]}\n`).join('')),
      ),
    );
    const csv = file('big.csv.gz', gzipSync(Buffer.from(`case,activity\n${'1,a\n'.repeat(300_000)}`)));
    for (const p of [jsonl, csv]) {
      const e = await failure(readEventLog(p, { limits: { maxUnpackedBytes: MiB } }));
      expect(e.code).toBe('INPUT_TOO_LARGE');
      expect(e.message).toContain('larger than the limit of 1 MiB (maxUnpackedBytes)');
    }
    const res = await cli(['mine', jsonl, '--max-unpacked', '1m']);
    expect(res.status).toBe(2);
    expect(res.err).toContain(
      `error [INPUT_TOO_LARGE]: ${jsonl}: the unpacked content (3.52 MiB, as its gzip trailer states) is larger than the limit of 1 MiB (maxUnpackedBytes)`,
    );
    expect(res.err).toContain('raise the limit with --max-unpacked <size> (e.g. --max-unpacked 4m)');
    const ok = await cli(['mine', jsonl, '--max-unpacked', '8m']);
    expect(ok.status, ok.err).toBe(0);
    expect(ok.out).toBe("->( 'a', 'b' )\n");
  });

  it('reads sizes as the options take them', () => {
    expect(parseByteSize('512m', '--max-unpacked')).toBe(512 * MiB);
    expect(parseByteSize('1.5g', '--max-unpacked')).toBe(1.5 * 1024 * MiB);
    expect(parseByteSize('64KiB', '--max-token')).toBe(64 * 1024);
    expect(parseByteSize('1000', '--max-token')).toBe(1000);
    expect(() => parseByteSize('lots', '--max-comment')).toThrow(/--max-comment must be a size such as 512m/);
  });
});

describe('comments, declarations and tags', () => {
  it('reads a log with a comment of several MiB (across many chunks) correctly, and counts its lines', async () => {
    const comment = `<!-- ${'a long comment -- with dashes - and > signs\n'.repeat(120_000)} -->`;
    const xes = file('comment.xes', `<log>\n${comment}\n${trace('c2', 'b')}${trace('c1', 'a', 'b')}<trace>\n</log>\n`);
    const e = await failure(readXes(xes));
    // The line of the unclosed <trace> counts the 120,000 lines of the comment.
    expect(e.message).toContain('</log> at line 120006 closes <trace> (opened on line 120005)');
    writeFileSync(xes, `<log>\n${comment}\n${trace('c2', 'b')}${trace('c1', 'a', 'b')}</log>\n`);
    const log = await readXes(xes);
    // No timestamps: file order (as PM4Py's legacy path).
    expect(log.caseIds).toEqual(['c2', 'c1']);
    expect(namedVariants(log).map((v) => v.activities.join(' '))).toEqual(['b', 'a b']);
  });

  it('refuses a comment, a declaration or a tag past its limit, naming the line and the option', async () => {
    const longComment = file('long-comment.xes', `<log>\n\n<!-- ${'x'.repeat(3000)} -->\n</log>\n`);
    let e = await failure(readXes(longComment, { limits: { maxCommentBytes: 1000 } }));
    expect(e.code).toBe('INPUT_TOO_LARGE');
    expect(e.message).toBe(
      `${longComment}: a comment is larger than the limit of 1000 bytes (maxCommentBytes), from line 3`,
    );
    expect(e.location).toEqual({ file: longComment, line: 3 });
    expect(e.hint).toContain('--max-comment');
    await expect(readXes(longComment, { limits: { maxCommentBytes: 4000 } })).resolves.toBeDefined();

    const entity = file(
      'entity.xes',
      `<?xml version="1.0"?>\n<!DOCTYPE log [\n<!ENTITY big "${'y'.repeat(5000)}">\n]>\n<log>${trace('c1', '&big;')}</log>\n`,
    );
    e = await failure(readXes(entity, { limits: { maxEntityBytes: 1000 } }));
    expect(e.message).toBe(
      `${entity}: a DOCTYPE or entity declaration is larger than the limit of 1000 bytes (maxEntityBytes), from line 2`,
    );
    expect(e.hint).toContain('--max-entity');
    // Under the limit the declaration is skipped and the entity is not expanded.
    expect((await readXes(entity)).activities).toEqual(['&big;']);

    const tag = file(
      'long-tag.xes',
      `<log>\n<trace><string key="concept:name" value="${'z'.repeat(5000)}"/></trace></log>\n`,
    );
    e = await failure(readXes(tag, { limits: { maxTokenBytes: 1000 } }));
    expect(e.message).toBe(`${tag}: a tag is larger than the limit of 1000 bytes (maxTokenBytes), from line 2`);
    expect(e.hint).toContain('--max-token');
  });

  it('refuses a JSONL line or a CSV row past the token limit, naming its line', async () => {
    const jsonl = file(
      'long-line.jsonl',
      `{"case":"c1","events":["a"]}\n{"case":"c2","events":["${'b'.repeat(5000)}"]}\n`,
    );
    let e = await failure(readJsonlLog(jsonl, { limits: { maxTokenBytes: 1000 } }));
    expect(e.message).toBe(`${jsonl}: line 2 is larger than the limit of 1000 bytes (maxTokenBytes), from line 2`);
    expect(e.hint).toContain('--max-token');
    const csv = file('open-quote.csv', `case,activity\n1,a\n2,"never closed\n${'x,y\n'.repeat(2000)}`);
    e = await failure(readCsvLog(csv, { limits: { maxTokenBytes: 1000 } }));
    expect(e.message).toBe(
      `${csv}: the row starting on line 3 is larger than the limit of 1000 bytes (maxTokenBytes), from line 3`,
    );
  });
});

describe('the tokenizer across chunk seams', () => {
  const doc = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<!DOCTYPE log [ <!ENTITY e "v"> ]>\n',
    '<log xes.version="1.0">\n',
    '<!-- a -- comment - with -> almost-ends --->\n',
    '<trace><string key="concept:name" value="c&amp;1"/>\n',
    '<![CDATA[ <event> not an event ]] ]]>\n',
    `<event><string key='concept:name' value="a > b"/><date key="time:timestamp" value="2024-01-01T10:00:00Z"/></event>\n`,
    '<?pi some ? thing ?>\n',
    `<event><string key="concept:name" value="x${'é'.repeat(40)}"\n  /></event>\n`,
    '</trace>\n</log>\n',
  ].join('');
  const events = (chunks: Buffer[]) => {
    const seen: string[] = [];
    tokenizeXml(chunks, {
      open: (name, tag, self) => seen.push(`<${name} ${JSON.stringify(tag.toObject())}${self ? '/' : ''}>`),
      close: (name, line) => seen.push(`</${name}>@${line}`),
    });
    return seen;
  };

  it('gives the same elements, attributes and lines however the bytes are split', () => {
    const bytes = Buffer.from(doc, 'utf8');
    const whole = events([bytes]);
    expect(whole).toContain('<string {"key":"concept:name","value":"c&1"}/>');
    expect(whole).toContain('<string {"key":"concept:name","value":"a > b"}/>');
    expect(whole.filter((s) => s.startsWith('<event'))).toHaveLength(2);
    expect(whole.at(-1)).toBe('</log>@12');
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(events([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toEqual(whole);
    }
    for (const size of [1, 2, 3, 7]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      expect(events(chunks), `chunks of ${size}`).toEqual(whole);
    }
  });
});
