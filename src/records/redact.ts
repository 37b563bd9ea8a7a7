import { FlowScoutError } from '../errors/index.js';
import type { TaskRecord } from './schema.js';

/**
 * `import --redact emails,phones,ids,<regex>`: personal values replaced in the records before they
 * are written, by stable placeholders — the same value gets the same placeholder everywhere in one
 * import (`<EMAIL_1>`, `<PHONE_2>`, `<ID_3>`, `<REDACTED_1>`), so a call's argument and the tool
 * output that returned it still agree and replay still answers. "The same value" is decided after
 * normalising the way it is written: an e-mail in any case, a phone number by its digits (the last
 * ten, so `+1 555 123 4567`, `(555) 123-4567` and `555.123.4567` are one number), a card or SSN by
 * its digits. Every string of a record is redacted (query, reference, call arguments and outputs,
 * turns, group, id) except tool names and `meta`, which says where the record came from.
 *
 * - **emails**: `name@domain.tld`, URL-encoded (`ada%40example.com`) and written out to dodge
 *   scrapers with the at sign or dots in brackets (`ada [at] example [dot] com`, `ada(at)example.com`,
 *   any case); every form of one address gets its placeholder (normalised to `ada@example.com`);
 * - **phones**: an international number (`+` and 7 or more digits with spaces, dots, dashes or
 *   brackets) or a grouped national one (`555-123-4567`, `(555) 123 4567`, `555.123.4567`);
 * - **ids**: tokens made of letters and digits (with `_`, `-` or a leading `#`) holding at least
 *   one letter and three digits (`mia_garcia_4516`, `#W5490111`, `a9s8d7f6g5h4`), runs of nine or
 *   more digits, SSN-like numbers (`123-45-6789`), card numbers written in groups
 *   (`4111 1111 1111 1111`, `4111-1111-1111-1111`, `3782 822463 10005`) and IBANs written whole or
 *   in groups (`DE89 3704 0044 0532 0130 00`: its country code and check digits go with it, and it
 *   gets the placeholder of `DE89370400440532013000`); dates, times and decimal numbers are not ids;
 * - anything else in the list is a regular expression whose matches are redacted.
 */

export interface RedactRule {
  kind: string;
  placeholder: string;
  pattern: RegExp;
  /** A match this rejects is left as it is. */
  keep?: (match: string) => boolean;
  /** The form matches are compared in (the same normal form gets the same placeholder); default: as written. */
  normalize?: (match: string) => string;
}

/** An at sign or a dot written out in brackets: `[at]`, `(at)`, `{dot}`, `<dot>`, spaces around allowed. */
const OUT_AT = String.raw`\s*[[({<]\s*at\s*[\])}>]\s*`;
const OUT_DOT = String.raw`\s*[[({<]\s*dot\s*[\])}>]\s*`;
const EMAIL = new RegExp(
  [
    // name@domain.tld
    String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`,
    // URL-encoded: the name starts after any other encoded byte (`q=x%20ada%40example.com`).
    String.raw`(?<=^|[^A-Za-z0-9._%+-]|%[0-9A-Fa-f]{2})[A-Za-z0-9._+-]+%40[A-Za-z0-9.-]+\.[A-Za-z]{2,}`,
    // Written out: ada [at] example [dot] com, ada(at)example.com.
    String.raw`[A-Za-z0-9._+-]+${OUT_AT}[A-Za-z0-9-]+(?:(?:${OUT_DOT}|\.)[A-Za-z0-9-]+)*(?:${OUT_DOT}|\.)[A-Za-z]{2,}\b`,
  ].join('|'),
  'gi',
);
/** An address in the one form all of its spellings share: lower case, `%40` and written-out signs read. */
const emailKey = (m: string) =>
  m.toLowerCase().replace(/%40/g, '@').replace(new RegExp(OUT_AT, 'g'), '@').replace(new RegExp(OUT_DOT, 'g'), '.');
const PHONE = /(?<![\w+])(?:\+\d[\d\s().-]{6,}\d|\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4})(?!\w)/g;
/** SSN-like numbers and card numbers in groups of 4 (or 4-6-5), with spaces or dashes. */
const GROUPED_NUMBER = String.raw`(?<![\w.,-])(?:\d{3}-\d{2}-\d{4}|\d{4}(?:([ -])\d{4}){2}\1\d{4}(?:\1?\d{1,3})?|\d{4}([ -])\d{6}\2\d{5})(?![\w-]|[.,]\d)`;
const ID_TOKEN =
  /(?<![\w@.#-])#?(?=[A-Za-z0-9_-]*[A-Za-z])(?=(?:[A-Za-z_-]*\d){3})[A-Za-z0-9][A-Za-z0-9_-]*[A-Za-z0-9](?![\w@-])|(?<![\w.,-])\d{9,}(?![\w.,-])/;
/**
 * An IBAN as it is written: country code, check digits, then up to 30 capitals and digits, whole or
 * in groups of four (capitals only, so a group never takes the next word of a sentence; a lower-case
 * IBAN written whole or with dashes is an id token).
 */
const IBAN = String.raw`(?<![\w-])[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){2,7}(?:[ -]?[A-Z0-9]{1,3})?(?![\w-])`;
const IBAN_WHOLE = new RegExp(`^${IBAN}$`, 'i');
// Ids first: an IBAN written whole (`DE89370400440532013000`) or with dashes is an id token already.
const ID = new RegExp(`${GROUPED_NUMBER}|${ID_TOKEN.source}|${IBAN}`, 'g');
/**
 * One form per value: a card, an SSN or a run of digits by its digits; an IBAN without its spaces
 * or dashes, in capitals (the same account whole or grouped).
 */
const idKey = (m: string) =>
  IBAN_WHOLE.test(m) ? m.replace(/[ -]/g, '').toUpperCase() : /^[\d\s-]+$/.test(m) ? m.replace(/\D/g, '') : m;
/**
 * An IBAN in groups (the one kind of match with spaces that starts with letters) holds at least 8
 * digits after its check digits: `AB12 CDEF GHIJ` in capitals is a phrase. A match without spaces
 * is an id token by its own rule.
 */
const enoughDigits = (m: string) =>
  !m.includes(' ') || !IBAN_WHOLE.test(m) || (m.slice(4).match(/\d/g)?.length ?? 0) >= 8;
/** A phone number's last ten digits: the same number with or without its country code, in any punctuation. */
const phoneKey = (m: string) => m.replace(/\D/g, '').slice(-10);

/** Parses `--redact`: a comma-separated list of emails, phones, ids and regular expressions. */
export function parseRedact(text: string): RedactRule[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: '--redact names nothing to redact',
      hint: 'e.g. --redact emails,phones,ids or --redact "emails,ACC-[0-9]+".',
    });
  }
  return items.map((item): RedactRule => {
    const k = item.toLowerCase();
    if (k === 'emails' || k === 'email')
      return { kind: 'emails', placeholder: 'EMAIL', pattern: EMAIL, normalize: emailKey };
    if (k === 'phones' || k === 'phone')
      return { kind: 'phones', placeholder: 'PHONE', pattern: PHONE, normalize: phoneKey };
    if (k === 'ids' || k === 'id')
      return {
        kind: 'ids',
        placeholder: 'ID',
        pattern: ID,
        keep: (m) => !/^\d{4}-\d{2}-\d{2}/.test(m) && enoughDigits(m),
        normalize: idKey,
      };
    try {
      return { kind: item, placeholder: 'REDACTED', pattern: new RegExp(item, 'g') };
    } catch (e) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `--redact: '${item}' is neither emails, phones nor ids, and not a regular expression (${e instanceof Error ? e.message : String(e)})`,
        hint: 'Use emails, phones, ids or a JavaScript regular expression, separated by commas.',
      });
    }
  });
}

/** What a redaction replaced: per kind, the matches and the distinct values. */
export interface RedactCounts {
  replacements: Record<string, number>;
  distinct: Record<string, number>;
}

/** Records with every matching value replaced by its placeholder (see the module comment). */
export function redactRecords(
  records: readonly TaskRecord[],
  rules: readonly RedactRule[],
): { records: TaskRecord[]; counts: RedactCounts } {
  const placeholders = new Map<string, string>();
  const next = new Map<string, number>();
  const counts: RedactCounts = { replacements: {}, distinct: {} };
  for (const r of rules) {
    counts.replacements[r.kind] = 0;
    counts.distinct[r.kind] = 0;
  }
  const text = (s: string): string => {
    let out = s;
    for (const rule of rules) {
      out = out.replace(
        new RegExp(
          rule.pattern.source,
          rule.pattern.flags.includes('g') ? rule.pattern.flags : `${rule.pattern.flags}g`,
        ),
        (m) => {
          if (/^<[A-Z]+_\d+>$/.test(m) || (rule.keep && !rule.keep(m))) return m;
          const key = `${rule.placeholder}\u0000${rule.normalize ? rule.normalize(m) : m}`;
          let p = placeholders.get(key);
          if (!p) {
            const n = (next.get(rule.placeholder) ?? 0) + 1;
            next.set(rule.placeholder, n);
            p = `<${rule.placeholder}_${n}>`;
            placeholders.set(key, p);
            counts.distinct[rule.kind]!++;
          }
          counts.replacements[rule.kind]!++;
          return p;
        },
      );
    }
    return out;
  };
  const value = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(value);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [text(k), value(x)]));
    return v;
  };
  const call = <C extends { args?: Record<string, unknown>; output?: unknown }>(c: C): C => ({
    ...c,
    ...(c.args !== undefined ? { args: value(c.args) } : {}),
    ...(c.output !== undefined ? { output: value(c.output) } : {}),
  });
  // Tool names, roles, statuses and meta stay as they are; every other string is redacted.
  const out = records.map((r): TaskRecord => ({
    ...r,
    id: text(r.id),
    query: text(r.query),
    reference: text(r.reference),
    calls: r.calls.map(call),
    ...(r.turns
      ? {
          turns: r.turns.map((t) => ({
            ...call(t),
            ...(t.text !== undefined ? { text: text(t.text) } : {}),
            ...(t.calls ? { calls: t.calls.map(call) } : {}),
          })),
        }
      : {}),
    ...(r.group !== undefined ? { group: text(r.group) } : {}),
  }));
  return { records: out, counts };
}

/** `redacted: 12 emails (3 distinct), 4 ids (2 distinct)` for the import summary. */
export function formatRedactCounts(c: RedactCounts): string {
  return `  ${'redacted'.padEnd(20)} ${Object.keys(c.replacements)
    .map((k) => `${c.replacements[k]} ${k} (${c.distinct[k]} distinct value${c.distinct[k] === 1 ? '' : 's'})`)
    .join(', ')}; each value replaced by the same placeholder everywhere in this import`;
}
