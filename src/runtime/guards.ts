import type { FieldGuard, Guard, GuardLiteral } from '../graph/schema.js';

/**
 * Guard evaluation (docs/DESIGN.md, "Execution"): "an edge is live when its source ran and its guard
 * holds". A guard is data, never code: a field guard compares a field of the source LLM node's JSON
 * output with a literal; a status guard tests the source tool node's status. Pure functions, shared
 * by the interpreter and by compiled modules.
 *
 * Rules for sources that did not produce what the guard reads:
 * - a field guard on a source whose status is `error` (or whose output is not an object) is false
 *   for every op: a failed judge routes into none of its guarded branches;
 * - on an object output, a missing field is `undefined`: `exists` and `truthy` are false, `falsy`
 *   and `ne`/`not_in` are true, ordering comparisons are false.
 */

/** What a guard reads of its source node. */
export interface GuardSource {
  kind: 'llm' | 'tool';
  status: 'ok' | 'error';
  output?: unknown;
}

/** True when `guard` holds for the source's result (no guard: always true). */
export function evaluateGuard(guard: Guard | undefined, source: GuardSource): boolean {
  if (!guard) return true;
  if (guard.kind === 'status') return source.status === guard.status;
  if (source.status !== 'ok' || !isObject(source.output)) return false;
  return compareField(guard, readField(source.output, guard.field));
}

/** Reads a dotted path (`a.b.c`) from a JSON object; `undefined` when any step is missing. */
export function readField(value: unknown, field: string): unknown {
  let cur: unknown = value;
  for (const part of field.split('.')) {
    if (!isObject(cur) || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
    cur = cur[part];
  }
  return cur;
}

function compareField(guard: FieldGuard, actual: unknown): boolean {
  const expected = guard.value;
  switch (guard.op) {
    case 'exists':
      return actual !== undefined && actual !== null;
    case 'truthy':
      return isTruthy(actual);
    case 'falsy':
      return !isTruthy(actual);
    case 'eq':
      return looseEqual(actual, expected as GuardLiteral);
    case 'ne':
      return !looseEqual(actual, expected as GuardLiteral);
    case 'in':
      return Array.isArray(expected) && expected.some((v) => looseEqual(actual, v));
    case 'not_in':
      return Array.isArray(expected) && !expected.some((v) => looseEqual(actual, v));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return order(guard.op, actual, expected as GuardLiteral);
  }
}

/**
 * Equality between a model's JSON value and a literal. Models often answer `"true"` or `"3"` where a
 * schema says boolean or number, so a string equal to the literal's JSON text also matches; strings
 * are compared trimmed and case-insensitively for booleans only.
 */
export function looseEqual(actual: unknown, expected: GuardLiteral): boolean {
  if (actual === expected) return true;
  if (actual === undefined) return false;
  if (typeof actual === 'string' && typeof expected === 'string') return actual.trim() === expected.trim();
  if (typeof actual === 'string' && typeof expected === 'boolean')
    return actual.trim().toLowerCase() === String(expected);
  if (typeof actual === 'string' && typeof expected === 'number')
    return actual.trim() !== '' && Number(actual.trim()) === expected;
  if (typeof actual === 'number' && typeof expected === 'string')
    return expected.trim() !== '' && Number(expected.trim()) === actual;
  return false;
}

function order(op: 'gt' | 'gte' | 'lt' | 'lte', actual: unknown, expected: GuardLiteral): boolean {
  let a: number | string | undefined;
  let b: number | string | undefined;
  const an = toNumber(actual);
  const bn = toNumber(expected);
  if (an !== undefined && bn !== undefined) [a, b] = [an, bn];
  else if (typeof actual === 'string' && typeof expected === 'string') [a, b] = [actual, expected];
  else return false;
  switch (op) {
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
    case 'lt':
      return a < b;
    case 'lte':
      return a <= b;
  }
}

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v.trim()))) return Number(v.trim());
  return undefined;
}

function isTruthy(v: unknown): boolean {
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    return s !== '' && s !== 'false' && s !== '0' && s !== 'no' && s !== 'null';
  }
  if (Array.isArray(v)) return v.length > 0;
  return Boolean(v);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
