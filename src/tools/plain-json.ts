/**
 * Tool outputs end up in traces, stores and prompts, so they must be plain JSON. This turns an output
 * into plain JSON or says precisely why it cannot be (a cycle, a BigInt, a function, a symbol) and
 * where, instead of letting JSON.stringify throw later or silently drop a value.
 */

/** The JSON form of an output, or why there is none. */
export type PlainJsonResult = { ok: true; value: unknown } | { ok: false; reason: string };

/** Checks `value` and returns its JSON form (Dates become strings, `undefined` fields vanish, NaN → null). */
export function toPlainJson(value: unknown): PlainJsonResult {
  if (value === undefined) return { ok: true, value: undefined };
  // Most outputs are plain data already: one walk copies them (the same value the JSON round trip
  // below gives); anything else takes the long way, which explains what is wrong.
  const copy = plainCopy(value, 0);
  if (copy !== NOT_PLAIN) return { ok: true, value: copy };
  const problem = findProblem(value, '$', new Set());
  if (problem) return { ok: false, reason: problem };
  try {
    return { ok: true, value: JSON.parse(JSON.stringify(value)) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

const NOT_PLAIN: unique symbol = Symbol('not plain JSON');

/**
 * A fresh copy of `value` equal to `JSON.parse(JSON.stringify(value))` when `value` is data the
 * round trip keeps as it is: strings, booleans, null, finite numbers other than -0, arrays without
 * holes or undefined items, and objects whose prototype is Object's (or null) with no `toJSON` and
 * no `__proto__` key (keys whose value is undefined are left out, as JSON leaves them out).
 * `NOT_PLAIN` for anything else (Dates, class instances, Maps, NaN, BigInts, functions, cycles,
 * nesting deeper than 64), which the caller turns into JSON the long way.
 */
function plainCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_PLAIN;
    case 'object': {
      if (value === null) return null;
      if (depth > 64 || (value as { toJSON?: unknown }).toJSON !== undefined) return NOT_PLAIN;
      if (Array.isArray(value)) {
        const out: unknown[] = [];
        for (let i = 0; i < value.length; i++) {
          const v: unknown = value[i];
          if (v === undefined) return NOT_PLAIN;
          const c = plainCopy(v, depth + 1);
          if (c === NOT_PLAIN) return NOT_PLAIN;
          out.push(c);
        }
        return out;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value)) {
        const v: unknown = (value as Record<string, unknown>)[k];
        if (v === undefined) continue;
        if (k === '__proto__') return NOT_PLAIN;
        const c = plainCopy(v, depth + 1);
        if (c === NOT_PLAIN) return NOT_PLAIN;
        out[k] = c;
      }
      return out;
    }
    default:
      return NOT_PLAIN;
  }
}

function findProblem(value: unknown, path: string, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return `${path} is a BigInt (${value}n), which JSON cannot hold; return it as a string or number`;
    case 'function':
      return `${path} is a function; return data, not code`;
    case 'symbol':
      return `${path} is a symbol, which JSON cannot hold`;
    case 'object': {
      if (value === null) return undefined;
      if (ancestors.has(value)) return `${path} refers back to one of its parents (a cycle); return a tree`;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
      ancestors.add(value);
      try {
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            const p = findProblem(value[i], `${path}[${i}]`, ancestors);
            if (p) return p;
          }
          return undefined;
        }
        if (value instanceof Map || value instanceof Set) {
          return `${path} is a ${value instanceof Map ? 'Map' : 'Set'}, which JSON turns into {}; convert it to an object or array`;
        }
        for (const [k, v] of Object.entries(value)) {
          if (v === undefined) continue;
          const p = findProblem(
            v,
            /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`,
            ancestors,
          );
          if (p) return p;
        }
        return undefined;
      } finally {
        ancestors.delete(value);
      }
    }
    default:
      return undefined;
  }
}
