import { readOutput } from './output-value.js';

/**
 * Where an argument value stands: written in the request, found in an earlier call's output, or
 * neither (a constant, a default, a value made up from several). Read the same way by the
 * argument-source counts of an evaluation and by the learning of bindings.
 */

export type ValueSource = 'request' | 'upstream' | 'neither';

/** An earlier call as a later one can read it. */
export interface EarlierCall {
  tool: string;
  output?: unknown;
}

/** A value as text for comparing (trimmed, lower-case); undefined for objects, arrays and empty values. */
export function valueText(value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return undefined;
  const t = value.trim().toLowerCase();
  return t.length > 0 ? t : undefined;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `text` holds the value as a whole token (not inside a longer word or number). */
export function holdsValue(text: string, value: unknown): boolean {
  const v = valueText(value);
  if (v === undefined) return false;
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRe(v)}(?=$|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

/** Every leaf of a structured value with its JSON path (`a.b[0].c`), at most `limit`, depth-first in document order. */
export function leaves(value: unknown, limit = 2_000): Array<{ path: string; value: unknown }> {
  const out: Array<{ path: string; value: unknown }> = [];
  const walk = (v: unknown, path: string, depth: number) => {
    if (out.length >= limit || depth > 12 || v === null || v === undefined) return;
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1));
    else if (typeof v === 'object')
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (!/^[^.[\]]+$/.test(k)) continue;
        walk(x, path ? `${path}.${k}` : k, depth + 1);
      }
    else out.push({ path, value: v });
  };
  walk(value, '', 0);
  return out;
}

/** Two scalar values alike for an argument: equal as trimmed, case-folded text, or as numbers. */
export function sameValue(a: unknown, b: unknown): boolean {
  const x = valueText(a);
  const y = valueText(b);
  if (x === undefined || y === undefined) return false;
  if (x === y) return true;
  const nx = Number(x);
  const ny = Number(y);
  return x !== '' && y !== '' && Number.isFinite(nx) && Number.isFinite(ny) && nx === ny;
}

const leafMemo = new WeakMap<object, { leaves: Array<{ path: string; value: unknown }>; texts: Set<string> }>();
function memoLeaves(read: unknown) {
  if (read === null || typeof read !== 'object') {
    const l = leaves(read);
    return { leaves: l, texts: new Set(l.map((x) => valueText(x.value)!).filter(Boolean)) };
  }
  let hit = leafMemo.get(read);
  if (!hit) {
    const l = leaves(read);
    leafMemo.set(read, (hit = { leaves: l, texts: new Set(l.map((x) => valueText(x.value)!).filter(Boolean)) }));
  }
  return hit;
}
/** The leaves of a structured output, read once per output object. */
export const leavesOf = (read: unknown) => memoLeaves(read).leaves;
const leafTexts = (read: unknown) => memoLeaves(read).texts;

/** Whether an earlier call's output holds the value: as a leaf of the structure it holds, else within its text. */
export function outputHolds(output: unknown, value: unknown): boolean {
  const v = valueText(value);
  if (v === undefined) return false;
  const read = readOutput(output);
  if (read !== undefined && leafTexts(read).has(v)) return true;
  if (read !== undefined && Number.isFinite(Number(v)) && leavesOf(read).some((l) => sameValue(l.value, value)))
    return true;
  const text = typeof output === 'string' ? output : read !== undefined ? JSON.stringify(read) : undefined;
  return text !== undefined && v.length >= 3 && holdsValue(text, value);
}

/** Where an argument value stands for a call made after `earlier` in a run answering `query`. */
export function valueSource(value: unknown, query: string, earlier: readonly EarlierCall[]): ValueSource {
  if (holdsValue(query, value)) return 'request';
  return earlier.some((c) => c.output !== undefined && outputHolds(c.output, value)) ? 'upstream' : 'neither';
}
