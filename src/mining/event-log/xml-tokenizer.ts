import { FlowScoutError } from '../../errors/index.js';
import { limitError, readChunks, resolveLimits, type ReaderLimits } from './read-limits.js';
import {
  AMP,
  BANG,
  bytesEqual,
  countNewlines,
  DQ,
  ENDS_NAME,
  EQ,
  GT,
  isSpace,
  LT,
  NL,
  QMARK,
  scanTagEnd,
  SLASH,
  SQ,
  startsWith,
} from './xml-bytes.js';
import { XmlTag } from './xml-tag.js';

/**
 * A small streaming XML tokenizer, enough for XES: elements with attributes; text, comments, CDATA,
 * processing instructions and DOCTYPE / entity declarations are skipped (entities are never
 * expanded). It works on the raw bytes of each chunk (gunzipping `.gz` on the fly), so nothing is
 * decoded that the reader does not ask for: a tag's attributes are byte ranges (`XmlTag`), and a
 * value becomes a string only when the reader wants it. Every scan is linear in the input: a
 * comment or a tag that spans chunks is resumed where the previous chunk left it, and each kind of
 * token has a length limit (`ReaderLimits`) past which the file is refused with a named error.
 */
export interface XmlHandler {
  /** `tag` is only valid during the call. */
  open(name: string, tag: XmlTag, selfClosing: boolean): void;
  /** `line`: where the closing tag is (for messages). */
  close(name: string, line: number): void;
}

/** Streams `file` (plain or `.gz`) through `handler`. Throws PARSE_ERROR with the line on bad XML. */
export async function tokenizeXmlFile(file: string, handler: XmlHandler, limits?: ReaderLimits): Promise<void> {
  const resolved = resolveLimits(limits);
  const scanner = new XmlScanner(file, handler, resolved);
  for await (const chunk of readChunks(file, resolved)) scanner.feed(chunk, false);
  scanner.feed(Buffer.alloc(0), true);
}

/** Tokenizes an in-memory document, whole or as the chunks a stream would give (tests, small inputs). */
export function tokenizeXml(
  input: string | Buffer | Buffer[],
  handler: XmlHandler,
  source = '(xml)',
  limits?: ReaderLimits,
): void {
  const scanner = new XmlScanner(source, handler, resolveLimits(limits));
  const chunks = typeof input === 'string' ? [Buffer.from(input, 'utf8')] : Array.isArray(input) ? input : [input];
  for (const chunk of chunks) scanner.feed(chunk, false);
  scanner.feed(Buffer.alloc(0), true);
}

const COMMENT_OPEN = Buffer.from('<!--');
const CDATA_OPEN = Buffer.from('<![CDATA[');

/** What a skipped token is, for its terminator, limit and messages. */
interface SkipKind {
  end: Buffer;
  limit: 'maxCommentBytes' | 'maxEntityBytes';
  what: string;
}
const COMMENT: SkipKind = { end: Buffer.from('-->'), limit: 'maxCommentBytes', what: 'a comment' };
const CDATA: SkipKind = { end: Buffer.from(']]>'), limit: 'maxCommentBytes', what: 'a CDATA section' };
const PI: SkipKind = { end: Buffer.from('?>'), limit: 'maxCommentBytes', what: 'a processing instruction' };
const DECL: SkipKind = { end: Buffer.from('>'), limit: 'maxEntityBytes', what: 'a DOCTYPE or entity declaration' };

const enum Mode {
  Text,
  /** Inside a start or end tag that did not end in its chunk. */
  Tag,
  /** Inside a comment, CDATA section, processing instruction or declaration. */
  Skip,
}

class XmlScanner {
  private line = 1;
  private mode = Mode.Text;
  /** A few bytes after a `<` at the end of a chunk, too few to tell what the token is. */
  private carry: Buffer | null = null;
  // Mode.Tag: the tag's bytes so far, whether the scan is inside a quoted value, where it began.
  private pieces: Buffer[] = [];
  private piecesLength = 0;
  private quote = 0;
  private tokenLine = 0;
  // Mode.Skip: what is being skipped, its length so far, the last bytes of the previous chunk.
  private skip: SkipKind = COMMENT;
  private skipped = 0;
  private tail: Buffer = Buffer.alloc(0);
  private readonly names: string[] = [];
  private readonly lines: number[] = [];
  private readonly tag = new XmlTag();
  private readonly nameCache: { bytes: Buffer; name: string }[] = [];

  constructor(
    private readonly file: string,
    private readonly handler: XmlHandler,
    private readonly limits: Required<ReaderLimits>,
  ) {}

  feed(chunk: Buffer, final: boolean): void {
    let buf = chunk;
    if (this.carry) {
      buf = Buffer.concat([this.carry, chunk]);
      this.carry = null;
    }
    let i = 0;
    if (this.mode === Mode.Tag) {
      i = this.continueTag(buf);
      if (i < 0) return this.endCheck(final);
    } else if (this.mode === Mode.Skip) {
      i = this.continueSkip(buf, 0);
      if (i < 0) return this.endCheck(final);
    }
    const len = buf.length;
    for (;;) {
      // Between tags there is only a little white space in a log: a plain loop beats indexOf here.
      let lt = i;
      let newlines = 0;
      while (lt < len) {
        const c = buf[lt]!;
        if (c === LT) break;
        if (c === NL) newlines++;
        lt++;
      }
      this.line += newlines;
      if (lt >= len) break;
      if (!final && len - lt < CDATA_OPEN.length) {
        this.carry = Buffer.from(buf.subarray(lt));
        return;
      }
      const next = buf[lt + 1];
      if (next === BANG || next === QMARK) {
        const kind =
          next === QMARK
            ? PI
            : startsWith(buf, lt, COMMENT_OPEN)
              ? COMMENT
              : startsWith(buf, lt, CDATA_OPEN)
                ? CDATA
                : DECL;
        const from = lt + (kind === COMMENT ? 4 : kind === CDATA ? 9 : 2);
        this.mode = Mode.Skip;
        this.skip = kind;
        this.skipped = 0;
        this.tail = Buffer.alloc(0);
        this.tokenLine = this.line;
        i = this.continueSkip(buf, Math.min(from, len));
        if (i < 0) return this.endCheck(final);
        continue;
      }
      const end = this.parseTag(buf, lt, len);
      if (end < 0) {
        // The tag goes on in the next chunk: keep its bytes and resume the scan for its end there.
        this.mode = Mode.Tag;
        this.tokenLine = this.line;
        this.pieces = [buf.subarray(lt)];
        this.piecesLength = len - lt;
        this.quote = 0;
        this.checkTagLength(this.piecesLength);
        scanTagEnd(buf, lt + 1, this);
        return this.endCheck(final);
      }
      i = end;
    }
    this.endCheck(final);
  }

  /** At the end of the input, nothing may be left open inside a token or an element. */
  private endCheck(final: boolean): void {
    if (!final) return;
    if (this.mode !== Mode.Text || this.carry) {
      throw new FlowScoutError({
        code: 'PARSE_ERROR',
        message: `${this.file} ends inside an XML tag (line ${this.mode !== Mode.Text ? this.tokenLine : this.line})`,
        hint: 'The file is truncated or not XML; check that it is a complete XES file.',
        location: { file: this.file, line: this.mode !== Mode.Text ? this.tokenLine : this.line },
      });
    }
    const unclosed = this.names.length;
    if (unclosed > 0) {
      const name = this.names[unclosed - 1]!;
      const line = this.lines[unclosed - 1]!;
      throw new FlowScoutError({
        code: 'PARSE_ERROR',
        message: `${this.file} ends before <${name}> (opened on line ${line}) is closed`,
        hint: 'The file looks truncated; check that it is the complete XES file (it ends with </log>).',
        location: { file: this.file, line },
      });
    }
  }

  /** Mode.Tag: looks for the tag's end in `buf`; returns the index after it, or -1 (all of `buf` taken). */
  private continueTag(buf: Buffer): number {
    const gt = scanTagEnd(buf, 0, this);
    if (gt < 0) {
      this.pieces.push(buf);
      this.piecesLength += buf.length;
      this.checkTagLength(this.piecesLength);
      return -1;
    }
    this.pieces.push(buf.subarray(0, gt + 1));
    const whole = Buffer.concat(this.pieces, this.piecesLength + gt + 1);
    this.pieces = [];
    this.checkTagLength(whole.length);
    this.mode = Mode.Text;
    this.line = this.tokenLine;
    if (this.parseTag(whole, 0, whole.length) < 0) this.malformed(whole, 0);
    return gt + 1;
  }

  private checkTagLength(n: number): void {
    if (n > this.limits.maxTokenBytes)
      throw limitError(this.file, 'maxTokenBytes', this.limits.maxTokenBytes, 'a tag', this.tokenLine);
  }

  /** Mode.Skip: finds the end of the skipped token from `from`; returns the index after it, or -1. */
  private continueSkip(buf: Buffer, from: number): number {
    const term = this.skip.end;
    let end = -1;
    if (this.tail.length > 0) {
      // The terminator may start in the previous chunk: look across the seam.
      const probe = Buffer.concat([this.tail, buf.subarray(from, from + term.length - 1)]);
      const at = probe.indexOf(term);
      if (at >= 0) end = from + at + term.length - this.tail.length;
    }
    if (end < 0) {
      const at = buf.indexOf(term, from);
      if (at >= 0) end = at + term.length;
    }
    const limit = this.limits[this.skip.limit];
    if (end < 0) {
      this.skipped += buf.length - from;
      this.line += countNewlines(buf, from, buf.length);
      if (this.skipped > limit) throw limitError(this.file, this.skip.limit, limit, this.skip.what, this.tokenLine);
      if (term.length > 1) {
        const joined = Buffer.concat([this.tail, buf.subarray(Math.max(from, buf.length - (term.length - 1)))]);
        this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - (term.length - 1))));
      }
      return -1;
    }
    this.skipped += end - from;
    if (this.skipped > limit) throw limitError(this.file, this.skip.limit, limit, this.skip.what, this.tokenLine);
    this.line += countNewlines(buf, from, end);
    this.mode = Mode.Text;
    this.tail = Buffer.alloc(0);
    return end;
  }

  /**
   * Parses the tag starting at `buf[lt] === '<'` and calls the handler; returns the index after its
   * `>`, or -1 when `buf` ends first. Quoted values may hold `>`; a quote anywhere opens a quoted
   * run up to the same quote (as `scanTagEnd` counts them).
   */
  private parseTag(buf: Buffer, lt: number, len: number): number {
    let j = lt + 1;
    const closing = buf[j] === SLASH;
    if (closing) j++;
    const ns = j;
    while (j < len) {
      const c = buf[j]!;
      if (ENDS_NAME[c] === 1 && c !== EQ) break;
      j++;
    }
    if (j >= len) return -1;
    const ne = j;
    const tag = this.tag;
    tag.reset(buf);
    let newlines = 0;
    let gt = -1;
    while (j < len) {
      const c = buf[j]!;
      if (c === GT) {
        gt = j;
        break;
      }
      if (isSpace(c)) {
        if (c === NL) newlines++;
        j++;
        continue;
      }
      if (c === DQ || c === SQ) {
        let q = j + 1;
        while (q < len && buf[q] !== c) {
          if (buf[q] === NL) newlines++;
          q++;
        }
        if (q >= len) return -1;
        j = q + 1;
        continue;
      }
      if (c === SLASH || c === EQ) {
        j++;
        continue;
      }
      // An attribute: name, optional spaces, '=', optional spaces, quoted value.
      const as = j;
      while (j < len) {
        const d = buf[j]!;
        if (ENDS_NAME[d] === 1) break;
        j++;
      }
      const ae = j;
      let k = j;
      while (k < len && isSpace(buf[k]!)) k++;
      if (k < len && buf[k] === EQ) {
        k++;
        while (k < len && isSpace(buf[k]!)) k++;
        const q = buf[k];
        if (q === DQ || q === SQ) {
          newlines += countNewlines(buf, j, k);
          let ve = k + 1;
          let ref = false;
          while (ve < len) {
            const v = buf[ve]!;
            if (v === q) break;
            if (v === NL) newlines++;
            else if (v === AMP) ref = true;
            ve++;
          }
          if (ve >= len) return -1;
          if (!closing) tag.push(as, ae, k + 1, ve, ref);
          j = ve + 1;
          continue;
        }
      }
      newlines += countNewlines(buf, j, k);
      j = k;
    }
    if (gt < 0) return -1;
    const line = this.line;
    if (!closing && gt - lt > this.limits.maxTokenBytes)
      throw limitError(this.file, 'maxTokenBytes', this.limits.maxTokenBytes, 'a tag', line);
    if (ns === ne) this.malformed(buf, lt);
    const name = this.internName(buf, ns, ne);
    if (closing) {
      const open = this.names.length - 1;
      if (open < 0 || this.names[open] !== name) {
        throw new FlowScoutError({
          code: 'PARSE_ERROR',
          message:
            open >= 0
              ? `${this.file}: </${name}> at line ${line} closes <${this.names[open]}> (opened on line ${this.lines[open]})`
              : `${this.file}: </${name}> at line ${line} closes nothing`,
          hint: 'The XML is not well formed: every element must be closed in the order it was opened.',
          location: { file: this.file, line },
        });
      }
      this.names.pop();
      this.lines.pop();
      this.handler.close(name, line);
    } else {
      const selfClosing = buf[gt - 1] === SLASH && gt - 1 >= ne;
      this.handler.open(name, tag, selfClosing);
      if (selfClosing) this.handler.close(name, line);
      else {
        this.names.push(name);
        this.lines.push(line);
      }
    }
    this.line += newlines;
    return gt + 1;
  }

  private malformed(buf: Buffer, lt: number): never {
    const text = buf.toString('utf8', lt + 1, Math.min(buf.length, lt + 41));
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `${this.file}: malformed XML tag at line ${this.line}: <${text}>`,
      hint: 'Fix the tag; XES elements look like <string key="concept:name" value="..."/>.',
      location: { file: this.file, line: this.line },
    });
  }

  /** Element names repeat (a few kinds in a whole log): decode each once. */
  private internName(buf: Buffer, s: number, e: number): string {
    const cache = this.nameCache;
    for (let k = 0; k < cache.length; k++) if (bytesEqual(buf, s, e, cache[k]!.bytes)) return cache[k]!.name;
    const name = buf.toString('utf8', s, e);
    if (cache.length < 64) cache.push({ bytes: Buffer.from(buf.subarray(s, e)), name });
    return name;
  }

  /** @internal for scanTagEnd */
  getQuote(): number {
    return this.quote;
  }
  /** @internal for scanTagEnd */
  setQuote(q: number): void {
    this.quote = q;
  }
}
