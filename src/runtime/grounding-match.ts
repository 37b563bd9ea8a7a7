import type { PropSchema } from '../contracts/param-types.js';
import { documentedValues } from '../retrieval/param-schema.js';
import { identifierKind, type ParamContext } from '../util/identifier-shape.js';
import { keyParts } from '../util/key-parts.js';

/**
 * Whether argument values appear in the sources a run can vouch for (the rules are written down in
 * grounding.ts's module comment): whole values as token sequences, free text as phrases, object
 * keys as values wherever the schema does not name them, and — for reads — only the arguments
 * shaped like identifiers (util/identifier-shape.ts).
 */

/** An argument value that appears in no source. */
export interface UngroundedArg {
  /** The argument's path, e.g. `order_id`, `items[0].sku` or, for a key, the object holding it (`orders`). */
  path: string;
  value: unknown;
  /** Set when the value is a key of the object at `path` (a map-shaped argument). */
  key?: true;
  /** For a read: the parts of the value that look like keys and come from nowhere, when not the whole value. */
  parts?: string[];
}

/** The texts a run can vouch for, searchable as whole values and as phrases; grows as sources are added. */
export class SourceText {
  private parts: string[] = [];
  private phraseParts: string[] = [];
  private joinedCache: string | undefined;
  private phrasesCache: string | undefined;
  private wordSet: Set<string> | undefined;

  constructor(query: string) {
    this.addText(query);
  }

  /** Adds every string and number inside `value` and the keys that are data, not field names (`dataTexts`). */
  add(value: unknown): void {
    for (const t of dataTexts(value)) this.addText(t);
  }

  /** Adds one text. */
  addText(text: string): void {
    const n = normalize(text);
    if (n === '') return;
    this.parts.push(n);
    this.phraseParts.push(words(n).join(' '));
    this.joinedCache = this.phrasesCache = undefined;
    this.wordSet = undefined;
  }

  /** True when `value` occurs in a source as a whole token sequence (case and spacing ignored). */
  has(value: string | number | bigint): boolean {
    const text = normalize(String(value));
    return text !== '' && appearsIn(this.joined(), text);
  }

  /**
   * True when free text is covered by phrases of the sources, in any order: each phrase two or more
   * consecutive words of one source, word for word and in order, or one word of three or more
   * characters without a digit. A number or a short word therefore counts only beside the words
   * it stands beside in a source ("7 Harbour Road" is not grounded by "12 Harbour Road").
   */
  coversText(text: string): boolean {
    const ws = words(normalize(text));
    if (ws.length === 0) return true;
    const hay = this.phrases();
    const set = (this.wordSet ??= new Set(hay.split(' ').filter(Boolean)));
    // reach[i]: the first i words are covered.
    const reach = new Array<boolean>(ws.length + 1).fill(false);
    reach[0] = true;
    for (let i = 0; i < ws.length; i++) {
      if (!reach[i]) continue;
      const w = ws[i]!;
      if (w.length >= 3 && !/\d/.test(w) && set.has(w)) reach[i + 1] = true;
      let phrase = w;
      for (let j = i + 1; j < ws.length; j++) {
        phrase += ` ${ws[j]!}`;
        if (!hay.includes(` ${phrase} `)) break;
        reach[j + 1] = true;
      }
    }
    return reach[ws.length]!;
  }

  private joined(): string {
    return (this.joinedCache ??= ` ${this.parts.join(' \u0000 ')} `);
  }

  private phrases(): string {
    return (this.phrasesCache ??= ` ${this.phraseParts.join(' \u0000 ')} `);
  }
}

/** Which argument values must be grounded: all of them (write calls) or only those shaped like identifiers (any call). */
export type GroundingScope = 'all' | 'identifiers';

/** Where argument values may come from, for `findUngrounded`. */
export interface ArgSources {
  text: SourceText;
  /** Constants bound in the workflow for this call, normalized. */
  constants: ReadonlySet<string>;
  /** The tool's own texts (name, description, schema): the words it uses ground the key parts of a read that hold no digit. */
  documented?: SourceText;
}

/**
 * Every argument value of `args` (in `scope`) that appears in none of the sources (empty: grounded).
 * `sources` may be a function: it is called once, and only when a value needs looking up (a read
 * whose arguments hold no identifier needs none).
 */
export function findUngrounded(
  args: Record<string, unknown>,
  sources: ArgSources | (() => ArgSources),
  inputSchema: Record<string, unknown> | undefined,
  scope: GroundingScope,
): UngroundedArg[] {
  const search = new UngroundedSearch(sources, scope);
  const props = asSchema(inputSchema?.properties);
  for (const k of Object.keys(args))
    search.visit(args[k], k, k, asSchema(props?.[k]) ?? valueSchemaOf(inputSchema, k), 0);
  return search.out;
}

/** One `findUngrounded` walk (a class rather than closures: every planned call makes one). */
class UngroundedSearch {
  readonly out: UngroundedArg[] = [];
  private resolved: ArgSources | undefined;

  constructor(
    private readonly sources: ArgSources | (() => ArgSources),
    private readonly scope: GroundingScope,
  ) {}

  private src(): ArgSources {
    const sources = this.sources;
    return (this.resolved ??= typeof sources === 'function' ? sources() : sources);
  }

  private grounded(value: string | number | bigint, free: boolean): boolean {
    const text = normalize(String(value));
    if (text === '') return true;
    const src = this.src();
    if (src.constants.has(text) || src.text.has(text)) return true;
    return free && typeof value === 'string' && text.split(' ').length >= 3 && src.text.coversText(text);
  }

  /**
   * A key part of a read's value: in a source or a constant, or, for a word without digits (a code,
   * a name), in the tool's own texts. An id its description gives as an example (`e.g. 1001`) is a
   * form, not a value to pass.
   */
  private groundedPart(part: string): boolean {
    const src = this.src();
    if (src.constants.has(normalize(part)) || src.text.has(part)) return true;
    return !/\d/.test(part) && src.documented?.has(part) === true;
  }

  private leaf(value: unknown, path: string, name: string | undefined, schema: Schema | undefined, key: boolean): void {
    if (value === null || value === undefined || typeof value === 'boolean') return;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') return;
    if (!key && schemaAllows(schema, value)) return;
    if (this.scope === 'identifiers') {
      if (!key && name !== undefined && documents(schema, name, value)) return;
      const param: ParamContext = {};
      if (name !== undefined) param.name = name;
      if (schema) param.schema = schema;
      // Judged by what the value is: the whole of it, or each token that looks like a key.
      const parts = keyParts(value, param);
      if (parts.length === 0 || this.grounded(value, !key)) return;
      const missing = parts.filter((p) => !this.groundedPart(p));
      if (missing.length === 0) return;
      const whole = missing.length === 1 && missing[0] === String(value).trim();
      this.out.push({ path, value, ...(key ? { key: true as const } : {}), ...(whole ? {} : { parts: missing }) });
      return;
    }
    if (this.grounded(value, !key)) return;
    this.out.push(key ? { path, value, key: true } : { path, value });
  }

  visit(value: unknown, path: string, name: string | undefined, schema: Schema | undefined, depth: number): void {
    if (depth > 64) return;
    if (Array.isArray(value)) {
      if (schemaAllows(schema, value)) return;
      const items = asSchema(schema?.items);
      for (let i = 0; i < value.length; i++) this.visit(value[i], `${path}[${i}]`, name, items, depth + 1);
      return;
    }
    if (value !== null && typeof value === 'object') {
      if (schemaAllows(schema, value)) return;
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const named = asSchema(asSchema(schema?.properties)?.[k]);
        // A key the schema does not name is data (a map-shaped argument); with no schema, an
        // identifier-shaped key is taken as data too.
        if (!named && (schema !== undefined || identifierKind(k, { name: 'id' }) !== undefined))
          this.leaf(k, path, 'id', undefined, true);
        this.visit(v, path ? `${path}.${k}` : k, k, named ?? valueSchemaOf(schema, k), depth + 1);
      }
      return;
    }
    this.leaf(value, path, name, schema, false);
  }
}

type Schema = Record<string, unknown>;

/** The schema of the value under a key the schema does not name: a matching `patternProperties`, else `additionalProperties`. */
function valueSchemaOf(schema: Schema | undefined, key: string): Schema | undefined {
  const patterns = asSchema(schema?.patternProperties);
  if (patterns) {
    for (const [re, s] of Object.entries(patterns)) {
      try {
        if (new RegExp(re, 'u').test(key)) return asSchema(s);
      } catch {
        // an invalid pattern matches nothing
      }
    }
  }
  return asSchema(schema?.additionalProperties);
}

const DOCUMENTED = new WeakMap<Schema, ReadonlySet<string>>();

/**
 * True when the parameter's schema documents `value` (retrieval/param-schema.ts `documentedValues`:
 * its enum and default, the values its description quotes or states as its default, `1000` in
 * "radius in metres, default 1000"): what any reader of the tool's schema may pass.
 */
function documents(schema: Schema | undefined, name: string, value: string | number | bigint): boolean {
  if (!schema || typeof schema.description !== 'string') return false;
  let values = DOCUMENTED.get(schema);
  if (!values) {
    values = new Set(documentedValues(name, schema as PropSchema).map(normalize));
    DOCUMENTED.set(schema, values);
  }
  return values.has(normalize(String(value)));
}

/** Lower case, runs of whitespace as one space, trimmed. */
export function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The words (letters and digits) of a normalized text. */
function words(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * Every string and number inside `value`, and the object keys that are data: those shaped like an
 * identifier (`{"#W1001": {...}}`, `{"paypal_3024827": {...}}`). Other keys are field names — the
 * tool's vocabulary, not a record's — and ground nothing (`item_ids` does not ground the word
 * `IDs`). A string that parses as a JSON object or array is read as that JSON; any other string is
 * text, whatever it holds.
 */
export function dataTexts(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 64 || value === null || value === undefined) return out;
  if (typeof value === 'string') {
    const json = parseJsonText(value);
    if (json === undefined) out.push(value);
    else dataTexts(json, out, depth + 1);
  } else if (typeof value === 'number' || typeof value === 'bigint') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) dataTexts(v, out, depth + 1);
  else if (typeof value === 'object')
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (identifierKind(k, { name: 'id' }) !== undefined) out.push(k);
      dataTexts(v, out, depth + 1);
    }
  return out;
}

/** The JSON a string holds when it is a JSON object or array, else undefined. */
export function parseJsonText(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/** Every string and number inside `value` (object keys included; a JSON string is read as text). */
export function leafTexts(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 64 || value === null || value === undefined) return out;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) leafTexts(v, out, depth + 1);
  else if (typeof value === 'object')
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out.push(k);
      leafTexts(v, out, depth + 1);
    }
  return out;
}

/** True when `needle` occurs in `hay` with no letter or digit right before or after it. */
function appearsIn(hay: string, needle: string): boolean {
  let from = 0;
  for (;;) {
    const i = hay.indexOf(needle, from);
    if (i < 0) return false;
    const before = hay[i - 1] ?? ' ';
    const after = hay[i + needle.length] ?? ' ';
    if (!isWordChar(before) && !isWordChar(after)) return true;
    from = i + 1;
  }
}

function isWordChar(ch: string): boolean {
  return /[\p{L}\p{N}]/u.test(ch);
}

export function asSchema(v: unknown): Schema | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : undefined;
}

/** Values the schema itself lists: enum members, a const, the default. */
function schemaAllows(schema: Schema | undefined, value: unknown): boolean {
  if (!schema || (!('enum' in schema) && !('const' in schema) && !('default' in schema))) return false;
  const same = (x: unknown) =>
    x === value || (typeof x === 'object' && typeof value === 'object' && JSON.stringify(x) === JSON.stringify(value));
  if (Array.isArray(schema.enum) && schema.enum.some(same)) return true;
  if ('const' in schema && same(schema.const)) return true;
  return 'default' in schema && same(schema.default);
}
