import { describe, expect, it } from 'vitest';
import type { TaskRecord } from './schema.js';
import { stratifiedOrder, stratifiedSample, stratumOf } from './stratify.js';

const rec = (id: string, tools: string[], group?: string): TaskRecord => ({
  id,
  query: id,
  reference: '',
  calls: tools.map((tool) => ({ tool, args: {} })),
  ...(group ? { group } : {}),
});

describe('stratified order and sample', () => {
  // 60 records of tool set a→b, 30 of c, 10 of a→b in group g2.
  const records = [
    ...Array.from({ length: 60 }, (_, i) => rec(`ab${i}`, ['a', 'b'])),
    ...Array.from({ length: 30 }, (_, i) => rec(`c${i}`, ['c'])),
    ...Array.from({ length: 10 }, (_, i) => rec(`g${i}`, ['b', 'a'], 'g2')),
  ];

  it('puts records of one tool set and group in one stratum, whatever the call order', () => {
    expect(stratumOf(rec('x', ['a', 'b', 'a']))).toBe(stratumOf(rec('y', ['b', 'a'])));
    expect(stratumOf(rec('x', ['a', 'b']))).not.toBe(stratumOf(rec('y', ['a', 'b'], 'g2')));
  });

  it('keeps every prefix in proportion to the strata, and the same seed gives the same order', () => {
    const order = stratifiedOrder(records, 7);
    expect(order).toHaveLength(100);
    expect(new Set(order.map((r) => r.id)).size).toBe(100);
    const prefix = order.slice(0, 20);
    expect(prefix.filter((r) => r.id.startsWith('ab')).length).toBeGreaterThanOrEqual(11);
    expect(prefix.filter((r) => r.id.startsWith('ab')).length).toBeLessThanOrEqual(13);
    expect(prefix.filter((r) => r.id.startsWith('c')).length).toBeGreaterThanOrEqual(5);
    expect(prefix.filter((r) => r.id.startsWith('g')).length).toBeGreaterThanOrEqual(1);
    expect(stratifiedOrder(records, 7).map((r) => r.id)).toEqual(order.map((r) => r.id));
    expect(stratifiedOrder(records, 8).map((r) => r.id)).not.toEqual(order.map((r) => r.id));
  });

  it('samples at most max records, in their input order, and all of them when there are few', () => {
    const sample = stratifiedSample(records, 10, 1);
    expect(sample).toHaveLength(10);
    expect(sample.map((r) => records.indexOf(r))).toEqual(
      [...sample.map((r) => records.indexOf(r))].sort((a, b) => a - b),
    );
    expect(sample.filter((r) => r.id.startsWith('c')).length).toBeGreaterThanOrEqual(2);
    expect(stratifiedSample(records, 500, 1)).toEqual(records);
  });
});
