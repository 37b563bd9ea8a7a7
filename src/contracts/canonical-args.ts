/**
 * The one canonical form of tool-call arguments (docs/DESIGN.md, "Metrics"). TC compares calls in this
 * form and the replay cache is keyed by it, so a call that TC counts as correct is also a replay hit.
 *
 * Rules, applied recursively:
 * - object keys are sorted (code-point order);
 * - `null` and `undefined` values are dropped, so an absent optional parameter equals an explicit null;
 * - strings are trimmed;
 * - values are coerced by the parameter's JSON-Schema `type` when the schema is known:
 *   number/integer: a numeric string becomes a number (`"5"` → `5`, `" 2.50 "` → `2.5`);
 *   boolean: `"true"`/`"false"` (any case) become booleans;
 *   a type list is read by its first type when that is number, integer or boolean: a numeric string
 *   is then still the number it writes (import widens a number parameter the recorded calls also
 *   passed other text to into `["number", "string"]`, and a tool that takes text for a number reads
 *   `"5"` as 5), while a list that starts with "string" leaves both as given;
 *   string: a number or boolean becomes its string (`5` → `"5"`);
 *   array: each item by `items`; object: each property by `properties`.
 *   A value that cannot be coerced is kept as it is (so it stays unequal to the right value).
 * - without a schema nothing is coerced: `"5"` and `5` stay different.
 */

/** The subset of JSON Schema the canonical form reads. */
export interface ParamSchema {
  type?: string | string[];
  properties?: Record<string, ParamSchema>;
  items?: ParamSchema;
  [key: string]: unknown;
}

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Returns the canonical form of `args` (a new object; the input is not changed). */
export function canonicalArgs(
  args: Record<string, unknown> | undefined | null,
  schema?: ParamSchema,
): Record<string, unknown> {
  const value = canonicalValue(args ?? {}, schema ?? { type: 'object' });
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A string key for (tool, canonical args): equal keys ⇔ equal calls for TC and for replay. */
export function canonicalCallKey(
  tool: string,
  args: Record<string, unknown> | undefined | null,
  schema?: ParamSchema,
): string {
  return `${tool.trim()} ${stableStringify(canonicalArgs(args, schema))}`;
}

/** JSON with object keys sorted, so equal canonical values give equal strings. */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return JSON.stringify(String(value));
    if (typeof value === 'bigint') return value.toString();
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const keys = Object.keys(value).sort();
  const parts: string[] = [];
  for (const k of keys) {
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    parts.push(`${JSON.stringify(k)}:${stableStringify(v)}`);
  }
  return `{${parts.join(',')}}`;
}

function canonicalValue(value: unknown, schema: ParamSchema | undefined): unknown {
  if (value === null || value === undefined) return null;
  const types = schemaTypes(schema);
  if (typeof value === 'string') {
    const s = value.trim();
    const first = [...types][0];
    const numeric = (types.has('number') || types.has('integer')) && !types.has('string');
    if ((numeric || first === 'number' || first === 'integer') && NUMERIC.test(s)) return Number(s);
    if ((types.has('boolean') && !types.has('string')) || first === 'boolean') {
      const lower = s.toLowerCase();
      if (lower === 'true') return true;
      if (lower === 'false') return false;
    }
    return s;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    if (
      types.has('string') &&
      !types.has(typeof value === 'number' ? 'number' : 'boolean') &&
      !(typeof value === 'number' && types.has('integer'))
    ) {
      return String(value);
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => canonicalValue(item, schema?.items));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = canonicalValue((value as Record<string, unknown>)[key], schema?.properties?.[key]);
      if (v !== null) out[key] = v;
    }
    return out;
  }
  return String(value);
}

function schemaTypes(schema: ParamSchema | undefined): Set<string> {
  const t = schema?.type;
  if (t === undefined) return new Set();
  return new Set(Array.isArray(t) ? t : [t]);
}
