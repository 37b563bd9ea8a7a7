import { typesOf, type PropSchema } from '../contracts/param-types.js';
import type { ValueCandidate } from '../text/values.js';
import { isEmailAddress } from '../dataflow/value-shape.js';

/**
 * What a tool's schema says of a parameter, for any policy that fills arguments (the offline filler,
 * policies/offline/fill-args.ts, reads it): the values and the example forms its description
 * documents, whether a found text value fits it, and, without a hint, how well a kind of value suits
 * it by its name and type (the types themselves: contracts/param-types.ts).
 */

/** Words of a parameter name: `hotel_id` → hotel, id; `fromSymbol` → from, symbol. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

export function fits(value: string, prop: PropSchema | undefined): boolean {
  const types = typesOf(prop);
  if (prop?.enum && prop.enum.length > 0 && !prop.enum.some((e) => String(e).toLowerCase() === value.toLowerCase()))
    return false;
  if (!fitsExamples(value, prop)) return false;
  if (types.size === 0 || types.has('string')) return true;
  if (types.has('number') || types.has('integer')) return /^-?\d+(\.\d+)?$/.test(value);
  if (types.has('boolean')) return /^(true|false)$/i.test(value);
  return true;
}

/**
 * The example values a parameter's description gives ("such as '#W0000000'", "e.g. 'a@example.com'",
 * "each such as '1008292230'"): what any reader of the schema learns about the value's form.
 */
export function documentedExamples(prop: PropSchema | undefined): string[] {
  const text = typeof prop?.description === 'string' ? prop.description : '';
  const out: string[] = [];
  for (const m of text.matchAll(
    /\b(?:such as|e\.g\.,?|for example,?|for instance,?|like)\s*((?:[`'"][^`'"]{1,60}[`'"](?:,?\s*(?:or|and)?\s*)?)+)/gi,
  ))
    for (const q of m[1]!.matchAll(/[`'"]([^`'"]{1,60})[`'"]/g)) out.push(q[1]!);
  return out;
}

/**
 * A one-token value's form: runs of digits (d), of letters (a) or of both (x), split by the other
 * characters (`_`, `.`, `-` included: '256GB' is x, '#W0000000' is #x). Words joined by one
 * separator count as one run of letters, so an id made of a name takes a name of any length
 * ('sara_doe_496' and 'mary_ann_lee_12' are both a_d).
 */
function form(value: string): { sig: string; digits: number[] } {
  const sig: string[] = [];
  const digits: number[] = [];
  for (const m of value.matchAll(/([A-Za-z0-9]+)|([^A-Za-z0-9])/g)) {
    if (m[2] !== undefined) {
      sig.push(m[2]);
      continue;
    }
    const run = m[1]!;
    const hasDigit = /\d/.test(run);
    const hasLetter = /[A-Za-z]/.test(run);
    sig.push(hasDigit && hasLetter ? 'x' : hasDigit ? 'd' : 'a');
    if (hasDigit && !hasLetter) digits.push(run.replace(/\D/g, '').length);
  }
  return { sig: sig.join('').replace(/a(?:([_.-])a)(?:\1a)*/g, 'a'), digits };
}

/**
 * Whether a value has the form of the parameter's documented examples: an e-mail for an e-mail
 * example; for a one-token example with digits (an id, a code, a zip), the same runs of letters and
 * digits between the same separators, digit runs about as long; for a letters-only example, no
 * digits. Examples written as several words (an address, an expression) only say, when each has
 * digits, that the value has some; a parameter without examples takes any form.
 */
export function fitsExamples(value: string, prop: PropSchema | undefined): boolean {
  const examples = documentedExamples(prop).filter((e) => e.trim() !== '');
  if (examples.length === 0) return true;
  const v = value.trim();
  // Examples of several words (an address, an expression): only that they all have digits says something.
  if (examples.some((e) => /\s/.test(e.trim()))) return !examples.every((e) => /\d/.test(e)) || /\d/.test(v);
  return examples.some((e) => {
    if (isEmailAddress(e)) return isEmailAddress(v);
    if (!/\d/.test(e)) return !/\d/.test(v);
    if (/\s/.test(v)) return false;
    const a = form(e);
    const b = form(v);
    if (a.sig !== b.sig) return false;
    return a.digits.every((n, i) => Math.abs(n - b.digits[i]!) <= Math.max(1, Math.floor(n / 4)));
  });
}

/**
 * Without a hint: how well a kind of value suits a parameter, from its type alone. Lists of parameter
 * names (`symbol`, `city`, …) paid only on the domains they were written for and were dropped
 * (docs/guides/benchmarks.md, "History").
 */
export function kindPrior(prop: PropSchema | undefined, kind: ValueCandidate['kind']): number {
  const types = typesOf(prop);
  if ((types.has('number') || types.has('integer')) && !types.has('string')) return kind === 'number' ? 0.7 : 0.1;
  return {
    quoted: 0.6,
    proper: 0.5,
    code: 0.4,
    id: 0.4,
    known: 0.5,
    output: 0.3,
    date: 0.3,
    coord: 0.2,
    number: 0.2,
  }[kind];
}

const PROSE = new Set(
  'thought summary text message content note notes comment comments body expression explanation instructions reasoning'.split(
    ' ',
  ),
);

/** A string parameter named for prose or a formula (`summary`, `message`, `thought`, `expression`), with no enum. */
export function takesProse(nameWordsOf: readonly string[], prop: PropSchema | undefined): boolean {
  const types = typesOf(prop);
  return (types.size === 0 || types.has('string')) && !prop?.enum?.length && nameWordsOf.some((w) => PROSE.has(w));
}

/** A default written in prose: "Default is metric.", "default value is 200", "(default: 10)", "default 72". */
const DEFAULT_IN_PROSE =
  /\bdefaults?(?: value)?(?:\s+(?:is|to)\s+|\s*[:=]\s*|\s+(?=\d))\*?([A-Za-z0-9_/-]+(?:\.\d+)?)\*?(?=[\s.,;)]|$)/gi;
/** One item of a list of values in a description, the whole line: its quoted head, then what explains it. */
const LIST_ITEM = /^[ \t]*[-*][ \t]+`([^`\s]{1,40})`[ \t]*[:—–-][^\n]*$/gm;
/** Words a prose default is not (a description saying there is none, or going on with a sentence). */
const NOT_A_DEFAULT = new Set(['null', 'none', 'empty', 'the', 'a', 'an', 'not', 'set', 'no', 'as']);

/**
 * The values a parameter's schema names: its `enum`, its `default`, and the values its description
 * quotes (`1min`, 'i'), writes as `name=value` or states as its default in prose ("Default is
 * metric."). What the tool's documentation says, which any model reading the schema sees.
 */
export function documentedValues(name: string, prop: PropSchema | undefined): string[] {
  if (!prop) return [];
  const out = new Set<string>();
  const add = (v: unknown) => {
    if ((typeof v === 'string' || typeof v === 'number') && String(v).trim() !== '') out.add(String(v));
  };
  for (const e of prop.enum ?? []) add(e);
  add(prop.default);
  let text = typeof prop.description === 'string' ? prop.description : '';
  // A list of values, one per line ("- `us`: Imperial units (`°F`, `in`)"): the values are the
  // items' heads; what the items quote after the head (units, other values) is no value of the parameter.
  const items = [...text.matchAll(LIST_ITEM)];
  if (items.length >= 2) {
    for (const m of items) add(m[1]);
    text = text.replace(LIST_ITEM, '');
  }
  for (const m of text.matchAll(/([`'"])([^`'"\s]{1,40})\1/g)) add(m[2]);
  for (const m of text.matchAll(new RegExp(`\\b${name}=([A-Za-z0-9_./-]{1,40})`, 'g'))) add(m[1]);
  for (const m of text.matchAll(DEFAULT_IN_PROSE)) if (!NOT_A_DEFAULT.has(m[1]!.toLowerCase())) add(m[1]);
  return [...out];
}
