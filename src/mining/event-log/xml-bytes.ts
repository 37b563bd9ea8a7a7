/**
 * The byte-level pieces of the streaming XML tokenizer (xml-tokenizer.ts): the bytes it looks for,
 * comparisons over a chunk without decoding it, the scan for a tag's end across chunks, and the
 * decoding of XML's entities and character references.
 */

export const LT = 0x3c;
export const GT = 0x3e;
export const SLASH = 0x2f;
export const BANG = 0x21;
export const QMARK = 0x3f;
export const NL = 0x0a;
export const DQ = 0x22;
export const SQ = 0x27;
export const EQ = 0x3d;
export const AMP = 0x26;

export const isSpace = (c: number) => c === 0x20 || c === NL || c === 0x09 || c === 0x0d;
/** Bytes that end an element or attribute name: white space, `=`, `>`, `/` and quotes (one table lookup). */
export const ENDS_NAME = new Uint8Array(256);
for (const c of [0x20, NL, 0x09, 0x0d, EQ, GT, SLASH, DQ, SQ]) ENDS_NAME[c] = 1;

/** Whether `buf[s, e)` holds exactly `bytes`. */
export function bytesEqual(buf: Buffer, s: number, e: number, bytes: Uint8Array): boolean {
  if (e - s !== bytes.length) return false;
  for (let k = 0; k < bytes.length; k++) if (buf[s + k] !== bytes[k]) return false;
  return true;
}

/** Index of the `>` ending a tag, from `from`, tracking quotes across calls; -1 when `buf` ends first. */
export function scanTagEnd(
  buf: Buffer,
  from: number,
  state: { getQuote(): number; setQuote(q: number): void },
): number {
  let quote = state.getQuote();
  let j = from;
  const len = buf.length;
  while (j < len) {
    if (quote) {
      const q = buf.indexOf(quote, j);
      if (q < 0) {
        j = len;
        break;
      }
      quote = 0;
      j = q + 1;
      continue;
    }
    const c = buf[j]!;
    if (c === GT) {
      state.setQuote(0);
      return j;
    }
    if (c === DQ || c === SQ) quote = c;
    j++;
  }
  state.setQuote(quote);
  return -1;
}

/** Whether `buf` holds `prefix` at `at`. */
export function startsWith(buf: Buffer, at: number, prefix: Buffer): boolean {
  if (buf.length - at < prefix.length) return false;
  for (let k = 0; k < prefix.length; k++) if (buf[at + k] !== prefix[k]) return false;
  return true;
}

/** Line breaks in `buf[from, to)`. */
export function countNewlines(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let j = from; j < to; j++) if (buf[j] === NL) n++;
  return n;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the five XML entities and numeric character references. */
export function decodeEntities(v: string): string {
  if (v.indexOf('&') < 0) return v;
  return v.replace(/&(#x[0-9a-f]{1,8}|#\d{1,10}|[a-z]{1,8});/gi, (all, ent: string) => {
    if (ent[0] === '#') {
      const code = ent[1] === 'x' || ent[1] === 'X' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return NAMED[ent.toLowerCase()] ?? all;
  });
}
