import { describe, expect, it } from 'vitest';
import type { FieldGuard } from '../graph/schema.js';
import { evaluateGuard, readField } from './guards.js';

const ok = (output: unknown) => ({ kind: 'llm' as const, status: 'ok' as const, output });
const field = (f: string, op: FieldGuard['op'], value?: FieldGuard['value']): FieldGuard => ({
  kind: 'field',
  field: f,
  op,
  ...(value !== undefined ? { value } : {}),
});

describe('evaluateGuard', () => {
  it('compares fields, tolerating a model that answers "true" or "3" as strings', () => {
    expect(evaluateGuard(field('go', 'eq', true), ok({ go: true }))).toBe(true);
    expect(evaluateGuard(field('go', 'eq', true), ok({ go: 'True ' }))).toBe(true);
    expect(evaluateGuard(field('go', 'eq', true), ok({ go: false }))).toBe(false);
    expect(evaluateGuard(field('n', 'gt', 2), ok({ n: '3' }))).toBe(true);
    expect(evaluateGuard(field('n', 'lte', 2), ok({ n: 3 }))).toBe(false);
    expect(evaluateGuard(field('kind', 'in', ['a', 'b']), ok({ kind: 'b' }))).toBe(true);
    expect(evaluateGuard(field('kind', 'not_in', ['a', 'b']), ok({ kind: 'c' }))).toBe(true);
    expect(evaluateGuard(field('a.b', 'eq', 1), ok({ a: { b: 1 } }))).toBe(true);
  });

  it('treats missing fields as undefined and failed sources as holding no guard', () => {
    expect(evaluateGuard(field('x', 'exists'), ok({}))).toBe(false);
    expect(evaluateGuard(field('x', 'falsy'), ok({}))).toBe(true);
    expect(evaluateGuard(field('x', 'ne', 1), ok({}))).toBe(true);
    expect(evaluateGuard(field('x', 'gt', 1), ok({}))).toBe(false);
    expect(evaluateGuard(field('list', 'truthy'), ok({ list: [] }))).toBe(false);
    expect(evaluateGuard(field('s', 'truthy'), ok({ s: 'no' }))).toBe(false);
    for (const op of ['ne', 'falsy', 'not_in'] as const) {
      expect(
        evaluateGuard(field('x', op, op === 'not_in' ? ['a'] : op === 'ne' ? 1 : undefined), {
          kind: 'llm',
          status: 'error',
        }),
      ).toBe(false);
    }
  });

  it('tests a tool node status; no guard always holds', () => {
    expect(evaluateGuard({ kind: 'status', status: 'error' }, { kind: 'tool', status: 'error' })).toBe(true);
    expect(evaluateGuard({ kind: 'status', status: 'ok' }, { kind: 'tool', status: 'error' })).toBe(false);
    expect(evaluateGuard(undefined, { kind: 'tool', status: 'error' })).toBe(true);
  });

  it('reads only own properties along a dotted path', () => {
    expect(readField({ a: { b: 2 } }, 'a.b')).toBe(2);
    expect(readField({ a: 1 }, 'a.b')).toBeUndefined();
    expect(readField({}, 'constructor')).toBeUndefined();
  });
});
