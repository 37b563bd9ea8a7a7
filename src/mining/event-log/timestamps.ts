/**
 * Timestamps only order the events of a case (PM4Py sorts each case by timestamp; docs/DESIGN.md, "Matching PM4Py" §0), so
 * they are parsed to one comparable number: microseconds since the epoch, UTC. Offsets are applied
 * (`+01:00` and `Z`), a timestamp without an offset counts as UTC, fractions keep microseconds
 * (receipt.csv has them). Unparseable values (the "?" of the partial-order logs) give NaN.
 *
 * The usual ISO 8601 shapes are read character by character with the day's epoch value cached
 * (a log has far fewer distinct days than events); anything else goes through the general pattern
 * and `Date.parse`, with the same result the pattern alone would give.
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Epoch microseconds of a timestamp string or number, or NaN. Numbers are taken as they are. */
export function parseTimestamp(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  if (typeof value !== 'string') return Number.NaN;
  const fast = parseIsoFast(value);
  return fast === undefined ? parseTimestampSlow(value) : fast;
}

function parseTimestampSlow(value: string): number {
  const s = value.trim();
  const m = ISO.exec(s);
  if (!m) {
    const ms = Date.parse(s);
    return Number.isNaN(ms) ? Number.NaN : ms * 1000;
  }
  const [, y, mo, d, h, mi, sec, frac, tz] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(sec ?? 0));
  if (Number.isNaN(ms)) return Number.NaN;
  if (tz && tz.toUpperCase() !== 'Z') {
    const sign = tz[0] === '-' ? -1 : 1;
    const digits = tz.slice(1).replace(':', '');
    const offsetMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0);
    ms -= sign * offsetMin * 60_000;
  }
  const micros = frac ? Number(`${frac}000000`.slice(0, 6)) : 0;
  return ms * 1000 + micros;
}

const dayCache = new Map<number, number>();

/** `Date.UTC(y, mo - 1, d)`, cached. */
function dayMs(y: number, mo: number, d: number): number {
  const key = (y * 100 + mo) * 100 + d;
  let ms = dayCache.get(key);
  if (ms === undefined) {
    if (dayCache.size > 100_000) dayCache.clear();
    ms = Date.UTC(y, mo - 1, d);
    dayCache.set(key, ms);
  }
  return ms;
}

/** Scratch bytes for `parseIsoFast`: a timestamp in the shapes it reads is at most this long. */
const scratch = new Uint8Array(64);

/**
 * `YYYY-MM-DD`, optionally `[T ]HH:MM[:SS[.fraction]]` and `Z` / `±HH[[:]MM]`, with nothing around
 * it; undefined for any other shape (the caller falls back to the general pattern). Equal to what the
 * pattern gives: `Date.UTC(y, m, d, h, mi, s)` is the day's value plus the time of day, exactly.
 * The string's characters are copied into scratch bytes and read by the one byte parser.
 */
function parseIsoFast(s: string): number | undefined {
  const n = s.length;
  if (n < 10 || n > scratch.length) return undefined;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) return undefined;
    scratch[i] = c;
  }
  return parseIsoBytes(scratch, 0, n);
}

/** Two digits at `i` of `s`, before `n`, or -1. */
function twoBytes(s: Uint8Array, i: number, n: number): number {
  if (i + 2 > n) return -1;
  const a = s[i]! - 48;
  const b = s[i + 1]! - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * Epoch microseconds of the UTF-8 timestamp in `buf[from..to)`, or NaN: the same value
 * `parseTimestamp` gives for the decoded string, read from the bytes in the usual shapes.
 */
export function parseTimestampBytes(buf: Buffer, from: number, to: number): number {
  const fast = parseIsoBytes(buf, from, to);
  return fast === undefined ? parseTimestamp(buf.toString('utf8', from, to)) : fast;
}

/** `parseIsoFast` on the bytes `s[from..n)`, for readers that do not decode the value to a string. */
function parseIsoBytes(s: Uint8Array, from: number, n: number): number | undefined {
  if (n - from < 10 || s[from + 4] !== 45 || s[from + 7] !== 45) return undefined;
  const y1 = twoBytes(s, from, n);
  const y2 = twoBytes(s, from + 2, n);
  const mo = twoBytes(s, from + 5, n);
  const d = twoBytes(s, from + 8, n);
  if (y1 < 0 || y2 < 0 || mo < 0 || d < 0) return undefined;
  let ms = dayMs(y1 * 100 + y2, mo, d);
  let i = from + 10;
  let micros = 0;
  if (i < n) {
    const sep = s[i]!;
    if (sep === 84 || sep === 116 || sep === 32) {
      // T, t or a space, then HH:MM
      if (n < i + 6 || s[i + 3] !== 58) return undefined;
      const h = twoBytes(s, i + 1, n);
      const mi = twoBytes(s, i + 4, n);
      if (h < 0 || mi < 0) return undefined;
      let sec = 0;
      i += 6;
      if (i < n && s[i] === 58) {
        sec = twoBytes(s, i + 1, n);
        if (sec < 0) return undefined;
        i += 3;
        const dot = s[i]!;
        if (i < n && (dot === 46 || dot === 44)) {
          i++;
          const start = i;
          let digits = 0;
          while (i < n) {
            const c = s[i]! - 48;
            if (c < 0 || c > 9) break;
            if (digits < 6) micros = micros * 10 + c;
            digits++;
            i++;
          }
          if (i === start) return undefined;
          for (let k = Math.min(digits, 6); k < 6; k++) micros *= 10;
        }
      }
      ms += ((h * 60 + mi) * 60 + sec) * 1000;
    }
  }
  if (i < n) {
    const c = s[i]!;
    if (c === 90 || c === 122) {
      // Z
      i++;
    } else if (c === 43 || c === 45) {
      const oh = twoBytes(s, i + 1, n);
      if (oh < 0) return undefined;
      i += 3;
      let om = 0;
      if (i < n) {
        if (s[i] === 58) i++;
        om = twoBytes(s, i, n);
        if (om < 0) return undefined;
        i += 2;
      }
      ms -= (c === 45 ? -1 : 1) * (oh * 60 + om) * 60_000;
    } else return undefined;
  }
  if (i !== n || Number.isNaN(ms)) return undefined;
  return ms * 1000 + micros;
}
