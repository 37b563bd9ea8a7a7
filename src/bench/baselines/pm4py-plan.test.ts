import { describe, expect, it } from 'vitest';
import { parseProcessTree } from '../../mining/process-tree/parse.js';
import type { TaskRecord } from '../../records/schema.js';
import { logStatistics, planFromTree, type PlanRules } from './pm4py-plan.js';

const rec = (id: string, tools: string[]): TaskRecord => ({
  id,
  query: id,
  reference: '',
  calls: tools.map((tool) => ({ tool, args: {} })),
});

function rules(scores: Record<string, number>, records: TaskRecord[] = []): PlanRules {
  return { score: (t) => scores[t] ?? 0, ...logStatistics(records) };
}

describe('PM4Py-style plan from a process tree (no model)', () => {
  const tree = parseProcessTree(
    "->( X( 'flights', 'hotels' ), X( tau, 'reviews' ), +( 'b', 'a' ), *( 'rates', tau ) )",
  );
  const log = [rec('r1', ['flights', 'a', 'b', 'rates']), rec('r2', ['hotels', 'a', 'b'])];

  it('takes the best-matching branch of a choice, an optional part only above θ, parallel children in their usual order, and a leaf loop as calls: many', () => {
    expect(planFromTree(tree, rules({ flights: 1, hotels: 0.2, reviews: 0.6 }, log))).toEqual([
      { tool: 'flights', many: false },
      { tool: 'reviews', many: false },
      { tool: 'a', many: false },
      { tool: 'b', many: false },
      { tool: 'rates', many: true },
    ]);
    const steps = planFromTree(tree, rules({ hotels: 0.9, reviews: 0.3 }, log)).map((s) => s.tool);
    expect(steps).toEqual(['hotels', 'a', 'b', 'rates']);
  });

  it('breaks ties by how many D_opt traces use a branch, then by tree order', () => {
    const choice = parseProcessTree("X( 'x', 'y' )");
    expect(planFromTree(choice, rules({}, [rec('1', ['y']), rec('2', ['y']), rec('3', ['x'])]))).toEqual([
      { tool: 'y', many: false },
    ]);
    expect(planFromTree(choice, rules({}, []))).toEqual([{ tool: 'x', many: false }]);
  });

  it('repeats a loop over a choice while the next fresh choice still scores at least θ (at most maxLoop times)', () => {
    const flower = parseProcessTree("*( X( 'p', 'q', 'r' ), tau )");
    expect(planFromTree(flower, rules({ p: 0.9, q: 0.6, r: 0.1 })).map((s) => s.tool)).toEqual(['p', 'q']);
    expect(planFromTree(flower, { ...rules({ p: 0.9, q: 0.8, r: 0.7 }), maxLoop: 2 }).map((s) => s.tool)).toEqual([
      'p',
      'q',
    ]);
    expect(planFromTree(flower, { ...rules({ p: 0.9, q: 0.8, r: 0.7 }), maxLoop: 5 }).map((s) => s.tool)).toEqual([
      'p',
      'q',
      'r',
    ]);
  });

  it('a tree of only optional parts runs nothing for an unrelated query', () => {
    expect(planFromTree(parseProcessTree("X( tau, 'reviews' )"), rules({ reviews: 0.2 }))).toEqual([]);
  });

  it('learns frequencies and relative positions from the log', () => {
    const s = logStatistics(log);
    expect(s.frequency(new Set(['a']))).toBe(2);
    expect(s.frequency(new Set(['flights', 'hotels']))).toBe(2);
    expect(s.position(new Set(['flights']))).toBe(0);
    expect(s.position(new Set(['b']))).toBeCloseTo((2 / 3 + 1) / 2, 12);
    expect(s.position(new Set(['nowhere']))).toBeUndefined();
  });
});
