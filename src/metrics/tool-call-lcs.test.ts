import { describe, expect, it } from 'vitest';
import type { CallKey } from '../records/schema.js';
import { meanTc, toolCallCorrectness } from './tool-call-lcs.js';

const A = (args: Record<string, unknown> = { x: 1 }): CallKey => ({ tool: 'a', args });
const B: CallKey = { tool: 'b', args: { y: 2 } };
const C: CallKey = { tool: 'c', args: {} };
const D: CallKey = { tool: 'd', args: { z: 'q' } };

// Every expected TC below is computed by hand from TC = |LCS| / max(K, K̂).
describe('toolCallCorrectness (paper Eq. 2-3)', () => {
  it('identical logs: LCS 3 of 3 → 1', () => {
    const r = toolCallCorrectness([A(), B, C], [A(), B, C]);
    expect(r).toMatchObject({
      tc: 1,
      lcs: 3,
      k: 3,
      kHat: 3,
      matched: [
        [0, 0],
        [1, 1],
        [2, 2],
      ],
      missing: [],
      extra: [],
      wrongArgs: [],
    });
  });

  it('reordered calls: [a,b,c] vs [c,a,b] → LCS (a,b) = 2, TC = 2/3', () => {
    const r = toolCallCorrectness([A(), B, C], [C, A(), B]);
    expect(r.tc).toBeCloseTo(2 / 3, 12);
    expect(r).toMatchObject({
      matched: [
        [0, 1],
        [1, 2],
      ],
      missing: [2],
      extra: [0],
      wrongArgs: [],
    });
    expect(r.reordered).toEqual([{ reference: 2, predicted: 0, tool: 'c' }]);
  });

  it('one missing: [a,b,c] vs [a,c] → 2 / max(3,2) = 2/3', () => {
    const r = toolCallCorrectness([A(), B, C], [A(), C]);
    expect(r.tc).toBeCloseTo(2 / 3, 12);
    expect(r).toMatchObject({ missing: [1], extra: [] });
  });

  it('one extra: [a,b] vs [a,d,b] → 2 / max(2,3) = 2/3', () => {
    const r = toolCallCorrectness([A(), B], [A(), D, B]);
    expect(r.tc).toBeCloseTo(2 / 3, 12);
    expect(r).toMatchObject({
      missing: [],
      extra: [1],
      matched: [
        [0, 0],
        [1, 2],
      ],
    });
  });

  it('repeated identical calls count each occurrence: [a,a,a] vs [a] → 1/3; [a,a] vs [a,a,a] → 2/3', () => {
    const once = toolCallCorrectness([A(), A(), A()], [A()]);
    expect(once.tc).toBeCloseTo(1 / 3, 12);
    expect(once).toMatchObject({ matched: [[0, 0]], missing: [1, 2] });
    expect(toolCallCorrectness([A(), A()], [A(), A(), A()]).tc).toBeCloseTo(2 / 3, 12);
  });

  it('same tool with a wrong argument: no match for that call (1/2) and a wrongArgs entry naming the key', () => {
    const r = toolCallCorrectness([A({ city: 'Paris', days: 2 }), B], [A({ city: 'Rome', days: 2 }), B]);
    expect(r.tc).toBe(0.5);
    expect(r.wrongArgs).toEqual([{ reference: 0, predicted: 0, tool: 'a', keys: ['city'] }]);
    expect(r).toMatchObject({ missing: [0], extra: [0] });
  });

  it('wrongArgs also names keys only one side has', () => {
    const r = toolCallCorrectness([A({ city: 'Paris' })], [A({ city: 'Paris', units: 'metric' })]);
    expect(r.tc).toBe(0);
    expect(r.wrongArgs[0]!.keys).toEqual(['units']);
  });

  it('numeric-string coercion: "5" equals 5 for a NUMBER parameter with the schema (1), not without (0)', () => {
    const schemas = { a: { type: 'object', properties: { days: { type: 'number' } } } };
    expect(toolCallCorrectness([A({ days: 5 })], [A({ days: '5' })], { schemas }).tc).toBe(1);
    const noSchema = toolCallCorrectness([A({ days: 5 })], [A({ days: '5' })]);
    expect(noSchema.tc).toBe(0);
    expect(noSchema.wrongArgs[0]!.keys).toEqual(['days']);
  });

  it('both empty → 1', () => {
    expect(toolCallCorrectness([], []).tc).toBe(1);
  });

  it('exactly one empty → 0', () => {
    expect(toolCallCorrectness([A()], []).tc).toBe(0);
    expect(toolCallCorrectness([], [A(), B]).tc).toBe(0);
    expect(toolCallCorrectness([], [A()]).extra).toEqual([0]);
  });

  it('Finish pseudo-calls are not calls; indices still refer to the logs as given', () => {
    const finish: CallKey = { tool: 'Finish', args: { return_type: 'give_answer' } };
    const r = toolCallCorrectness([A(), B], [A(), finish, B, finish]);
    expect(r).toMatchObject({
      tc: 1,
      kHat: 2,
      matched: [
        [0, 0],
        [1, 2],
      ],
    });
    expect(toolCallCorrectness([], [finish]).tc).toBe(1);
  });

  it('argument key order and surrounding spaces do not matter', () => {
    expect(toolCallCorrectness([A({ p: 'x', q: 1 })], [A({ q: 1, p: ' x ' })]).tc).toBe(1);
  });
});

describe('meanTc', () => {
  it('averages TC over queries', () => {
    expect(meanTc([{ tc: 1 }, { tc: 0.5 }, 0])).toBe(0.5);
    expect(meanTc([])).toBe(0);
  });
});

describe('graded TC and calls beyond the reference', () => {
  const q = (tool: string, args: Record<string, unknown>) => ({ tool, args });

  it('credits a call of the right tool with the share of the argument keys it got right', () => {
    const ref = [q('weather', { city: 'Oslo', units: 'metric' }), q('quote', { symbol: 'ACME' })];
    const made = [q('weather', { city: 'Oslo', units: 'imperial' }), q('quote', { symbol: 'ACME' }), q('news', {})];
    const r = toolCallCorrectness(ref, made);
    expect(r.tc).toBeCloseTo(1 / 3);
    expect(r.gradedTc).toBeCloseTo((0.5 + 1) / 3);
    expect(r.beyond).toBe(1);
  });

  it('counts a key only one call sets as wrong, and an empty reference as 1 only when nothing was called', () => {
    const r = toolCallCorrectness([q('weather', { city: 'Oslo' })], [q('weather', { city: 'Oslo', days: 3 })]);
    expect(r.gradedTc).toBeCloseTo(0.5);
    expect(toolCallCorrectness([], []).gradedTc).toBe(1);
    const called = toolCallCorrectness([], [q('weather', { city: 'Oslo' })]);
    expect([called.tc, called.gradedTc, called.beyond]).toEqual([0, 0, 1]);
  });
});
