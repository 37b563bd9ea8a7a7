import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { FlowScoutError } from '../../errors/index.js';
import { gzipError } from '../../errors/to-flowscout-error.js';

/**
 * A small streaming XML tokenizer, enough for XES (elements with attributes; text, comments,
 * CDATA, processing instructions and DOCTYPE are skipped). It reads the file in chunks (gunzipping
 * `.gz` on the fly), so a large log never has to fit in memory as one string.
 */
export interface XmlHandler {
  open(name: string, attrs: Record<string, string>, selfClosing: boolean): void;
  /** `line`: where the closing tag is (for messages). */
  close(name: string, line: number): void;
}

/** Streams `file` (plain or `.gz`) through `handler`. Throws PARSE_ERROR with the line on bad XML. */
export async function tokenizeXmlFile(file: string, handler: XmlHandler): Promise<void> {
  const raw = createReadStream(file);
  const stream = file.toLowerCase().endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (e) => stream.destroy(e));
  const decoder = new StringDecoder('utf8');
  const state: ScanState = { buf: '', line: 1, open: [] };
  try {
    for await (const chunk of stream) {
      state.buf += decoder.write(chunk as Buffer);
      scan(state, handler, file, false);
    }
    state.buf += decoder.end();
    scan(state, handler, file, true);
    const unclosed = state.open[state.open.length - 1];
    if (unclosed) {
      throw new FlowScoutError({
        code: 'PARSE_ERROR',
        message: `${file} ends before <${unclosed.name}> (opened on line ${unclosed.line}) is closed`,
        hint: 'The file looks truncated; check that it is the complete XES file (it ends with </log>).',
        location: { file, line: unclosed.line },
      });
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'Z_DATA_ERROR' || (e as Error).message?.includes('incorrect header check')) {
      throw new FlowScoutError({
        code: 'PARSE_ERROR',
        message: `${file} is not a valid gzip file`,
        hint: 'Pass the plain .xes file, or a .xes.gz made with gzip.',
        location: { file },
        cause: e,
      });
    }
    throw (e instanceof Error && gzipError(e, file)) || e;
  }
}

interface ScanState {
  buf: string;
  line: number;
  /** The elements open at this point, outermost first, with the line each opened on. */
  open: Array<{ name: string; line: number }>;
}

function scan(state: ScanState, handler: XmlHandler, file: string, final: boolean): void {
  const s = state.buf;
  let i = 0;
  for (;;) {
    const lt = s.indexOf('<', i);
    if (lt < 0) {
      state.line += countLines(s, i, s.length);
      i = s.length;
      break;
    }
    state.line += countLines(s, i, lt);
    const next = s.charCodeAt(lt + 1);
    let end: number;
    if (next === 33 /* ! */) {
      const close = s.startsWith('<!--', lt) ? '-->' : s.startsWith('<![CDATA[', lt) ? ']]>' : '>';
      const at = s.indexOf(close, lt);
      if (at < 0) {
        i = lt;
        break;
      }
      end = at + close.length;
    } else if (next === 63 /* ? */) {
      const at = s.indexOf('?>', lt);
      if (at < 0) {
        i = lt;
        break;
      }
      end = at + 2;
    } else {
      const gt = findTagEnd(s, lt + 1);
      if (gt < 0) {
        i = lt;
        break;
      }
      end = gt + 1;
      emitTag(s.slice(lt + 1, gt), handler, file, state);
    }
    state.line += countLines(s, lt, end);
    i = end;
  }
  state.buf = s.slice(i);
  if (final && state.buf.trim().length > 0) {
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `${file} ends inside an XML tag (line ${state.line})`,
      hint: 'The file is truncated or not XML; check that it is a complete XES file.',
      location: { file, line: state.line },
    });
  }
}

/** Index of the `>` closing a tag, skipping quoted attribute values. */
function findTagEnd(s: string, from: number): number {
  let quote = 0;
  for (let j = from; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return j;
  }
  return -1;
}

function countLines(s: string, from: number, to: number): number {
  let n = 0;
  let j = s.indexOf('\n', from);
  while (j >= 0 && j < to) {
    n++;
    j = s.indexOf('\n', j + 1);
  }
  return n;
}

const ATTR = /([^\s=/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function emitTag(body: string, handler: XmlHandler, file: string, state: ScanState): void {
  const line = state.line;
  if (body.charCodeAt(0) === 47 /* / */) {
    const name = body.slice(1).trim();
    const opened = state.open.pop();
    if (opened?.name !== name) {
      throw new FlowScoutError({
        code: 'PARSE_ERROR',
        message: opened ? `${file}: </${name}> at line ${line} closes <${opened.name}> (opened on line ${opened.line})` : `${file}: </${name}> at line ${line} closes nothing`,
        hint: 'The XML is not well formed: every element must be closed in the order it was opened.',
        location: { file, line },
      });
    }
    handler.close(name, line);
    return;
  }
  let selfClosing = false;
  let content = body;
  if (content.charCodeAt(content.length - 1) === 47) {
    selfClosing = true;
    content = content.slice(0, -1);
  }
  const ws = content.search(/\s/);
  const name = ws < 0 ? content : content.slice(0, ws);
  if (name.length === 0) {
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `${file}: malformed XML tag at line ${line}: <${body.slice(0, 40)}>`,
      hint: 'Fix the tag; XES elements look like <string key="concept:name" value="..."/>.',
      location: { file, line },
    });
  }
  const attrs: Record<string, string> = {};
  if (ws >= 0) {
    ATTR.lastIndex = ws;
    let m: RegExpExecArray | null;
    while ((m = ATTR.exec(content)) !== null) attrs[m[1]!] = decodeEntities(m[2] ?? m[3] ?? '');
  }
  handler.open(name, attrs, selfClosing);
  if (selfClosing) handler.close(name, line);
  else state.open.push({ name, line });
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the five XML entities and numeric character references. */
export function decodeEntities(v: string): string {
  if (v.indexOf('&') < 0) return v;
  return v.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, ent: string) => {
    if (ent[0] === '#') {
      const code = ent[1] === 'x' || ent[1] === 'X' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : all;
    }
    return NAMED[ent.toLowerCase()] ?? all;
  });
}
