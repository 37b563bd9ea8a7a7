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
  const problem = findProblem(value, '$', new Set());
  if (problem) return { ok: false, reason: problem };
  try {
    return { ok: true, value: JSON.parse(JSON.stringify(value)) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
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
