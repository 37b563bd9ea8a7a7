/**
 * A tool output as structured data. Tools answer with objects, with JSON text (MCP, most HTTP tools)
 * or with the text of a Python literal (`{'id': 7, 'ok': True}`, what ToolBench-style tools and many
 * recorded logs hold), often cut off after a few thousand characters. Bindings walk a JSON path into
 * the output, so the text is read into the value it holds: JSON first, else a small reader of Python
 * literals that keeps what stands before a cut (an unfinished item is dropped, open lists and objects
 * are closed). No library reads Python literals in JavaScript, hence this reader; it is kept to
 * literals (no expressions) and bounded in depth and size.
 */
import { terms } from '../text/words.js';
import { remember } from '../util/remember.js';

/** Longest text read (longer outputs are read as text only). */
const MAX_TEXT = 400_000;
/** Deepest nesting read. */
const MAX_DEPTH = 64;

const memo = new Map<string, unknown>();
const MEMO_SIZE = 256;

/** The structured value an output holds: objects and arrays as they are, text read as JSON or a Python literal, else undefined. */
export function readOutput(output: unknown): unknown {
  if (output === null || output === undefined) return undefined;
  if (typeof output !== 'string') return output;
  const text = output.trim();
  if (text.length === 0 || text.length > MAX_TEXT || !/^[[{(]/.test(text)) return undefined;
  return remember(memo, text, MEMO_SIZE, () => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return new LiteralReader(text).read();
    }
  });
}

/** Thrown where the text ends inside a value: the caller keeps what it has read. */
class Cut extends Error {}

class LiteralReader {
  private i = 0;
  constructor(private readonly s: string) {}

  read(): unknown {
    try {
      return this.value(0);
    } catch (e) {
      if (e instanceof Cut) return undefined;
      return undefined;
    }
  }

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
    if (this.i >= this.s.length) throw new Cut();
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Error('too deep');
    this.ws();
    const c = this.s[this.i]!;
    if (c === '{') return this.container(depth, '}', true);
    if (c === '[' || c === '(') return this.container(depth, c === '[' ? ']' : ')', false);
    if (c === "'" || c === '"') return this.string(c);
    const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|True|False|None|true|false|null|nan|inf)/.exec(
      this.s.slice(this.i, this.i + 40),
    );
    if (!m) throw new Error(`unexpected '${c}'`);
    this.i += m[0].length;
    const t = m[0];
    if (t === 'True' || t === 'true') return true;
    if (t === 'False' || t === 'false') return false;
    if (t === 'None' || t === 'null' || t === 'nan' || t === 'inf') return null;
    return Number(t);
  }

  /** A list, tuple or dict; at a cut, what was read so far (the unfinished item dropped). */
  private container(depth: number, close: string, dict: boolean): unknown {
    this.i++;
    const list: unknown[] = [];
    const obj: Record<string, unknown> = {};
    const done = () => (dict ? obj : list);
    for (;;) {
      try {
        this.ws();
        if (this.s[this.i] === close) {
          this.i++;
          return done();
        }
        if (dict) {
          const key = this.value(depth + 1);
          this.ws();
          if (this.s[this.i] !== ':') throw new Error('expected :');
          this.i++;
          const v = this.value(depth + 1);
          obj[String(key)] = v;
        } else list.push(this.value(depth + 1));
        this.ws();
        if (this.s[this.i] === ',') this.i++;
        else if (this.s[this.i] !== close) throw new Error(`expected , or ${close}`);
      } catch (e) {
        if (e instanceof Cut) {
          // The text ends here: keep the finished items, and tell the outer containers to stop too.
          this.i = this.s.length;
          return done();
        }
        throw e;
      }
    }
  }

  private string(quote: string): string {
    let out = '';
    this.i++;
    for (;;) {
      if (this.i >= this.s.length) throw new Cut();
      const c = this.s[this.i++]!;
      if (c === quote) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      if (this.i >= this.s.length) throw new Cut();
      const e = this.s[this.i++]!;
      if (e === 'n') out += '\n';
      else if (e === 't') out += '\t';
      else if (e === 'u' || e === 'x') {
        const len = e === 'u' ? 4 : 2;
        const hex = this.s.slice(this.i, this.i + len);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length < len) throw new Cut();
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += len;
      } else out += e;
    }
  }
}

/**
 * Key/value pairs of a result, in document order: each scalar leaf of the structure it holds, under
 * the key that holds it (a list's items under the list's key), at most `limit`.
 */
export function outputPairs(output: unknown, limit = 400): Array<{ key: string; value: string }> {
  const pairs: Array<{ key: string; value: string }> = [];
  const visit = (v: unknown, key: string | undefined, depth: number) => {
    if (pairs.length >= limit || depth > 8 || v === null || v === undefined) return;
    if (Array.isArray(v)) for (const x of v) visit(x, key, depth + 1);
    else if (typeof v === 'object') for (const [k, x] of Object.entries(v as object)) visit(x, k, depth + 1);
    else if (key !== undefined) pairs.push({ key, value: String(v) });
  };
  const read = readOutput(output);
  if (read !== null && typeof read === 'object') visit(read, undefined, 0);
  return pairs;
}

/**
 * What a result offers a later call: the result itself when it is one bare value (a tool that
 * answers with the id itself, `sara_doe_496`), under the empty key, then its key/value pairs.
 */
export function outputValues(output: unknown, limit?: number): Array<{ key: string; value: string }> {
  const bare =
    (typeof output === 'string' && /^\S{1,80}$/.test(output.trim())) || typeof output === 'number'
      ? [{ key: '', value: String(output).trim() }]
      : [];
  return [...bare, ...outputPairs(output, limit)];
}

/*
 * What a part of a request names among earlier results, its words and the results' text read
 * alike (`terms`: stemmed, stop words out). No rule for any tool: "return the sneaker" after five
 * orders were looked up names the order that holds sneakers, and in it the item named Sneakers.
 */

const wordsMemo = new Map<unknown, Set<string>>();

/** The words of a result's (or a list item's) text values, read once per result. */
function wordsOf(result: unknown): Set<string> {
  return remember(wordsMemo, result, 256, () => {
    const found = new Set<string>();
    for (const p of outputValues(result))
      if (p.value.length <= 200 && /\p{L}/u.test(p.value)) for (const w of terms(p.value)) found.add(w);
    return found;
  });
}

/** Of several results, those holding a word of `words` that not every one of them holds. */
export function namedResults(results: readonly unknown[], words: ReadonlySet<string>): Set<number> {
  const named = new Set<number>();
  if (results.length < 2) return named;
  const held = results.map(wordsOf);
  for (const w of words) {
    const holders = held.flatMap((h, i) => (h.has(w) ? [i] : []));
    if (holders.length < held.length) for (const i of holders) named.add(i);
  }
  return named;
}

/**
 * Of a result's lists of objects (any depth), the one item with a text field all of whose words
 * `words` holds, the field with most words deciding: "East Lansing" names the place East Lansing,
 * not the East Lansing Historical Marker. Undefined when no item, or more than one, is so named.
 */
export function namedItem(result: unknown, words: ReadonlySet<string>): object | undefined {
  let best: object | undefined;
  let most = 0;
  let tie = false;
  let level: unknown[] = [readOutput(result)];
  for (let depth = 0; depth < 6 && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const v of level) {
      if (v === null || typeof v !== 'object') continue;
      if (!Array.isArray(v)) next.push(...Object.values(v));
      else {
        const items = v.filter((x): x is object => x !== null && typeof x === 'object' && !Array.isArray(x));
        for (const item of items.length >= 2 ? items.slice(0, 200) : []) {
          const n = namingWords(item, words);
          if (n > most) [best, most, tie] = [item, n, false];
          else if (n > 0 && n === most && item !== best) tie = true;
        }
        next.push(...v);
      }
    }
    level = next.slice(0, 2_000);
  }
  return tie ? undefined : best;
}

/** The most words of one text field of `item` that `words` holds all of (0: none). */
function namingWords(item: object, words: ReadonlySet<string>): number {
  let most = 0;
  for (const p of outputPairs(item, 100)) {
    if (p.value.length > 80 || !/\p{L}/u.test(p.value)) continue;
    const field = terms(p.value);
    if (field.length > most && field.every((w) => words.has(w))) most = field.length;
  }
  return most;
}
