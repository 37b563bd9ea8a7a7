import { describe, expect, it } from 'vitest';
import type { TaskRecord } from './schema.js';
import {
  describeSplitBy,
  nearDuplicateWarning,
  parseSplitRatio,
  partSizes,
  requestKey,
  resolveSplitBy,
  splitRecords,
  toolCoverage,
} from './split.js';

const rec = (id: string, group?: string): TaskRecord => ({
  id,
  query: `q ${id}`,
  reference: '',
  calls: [],
  ...(group ? { group } : {}),
});
const many = (n: number, groupSize = 0) =>
  Array.from({ length: n }, (_, i) => rec(`r${i}`, groupSize ? `g${Math.floor(i / groupSize)}` : undefined));
const ids = (rs: TaskRecord[]) => rs.map((r) => r.id);

describe('splitRecords', () => {
  it('splits 5:2:3 by default, is deterministic from the seed, and loses nothing', () => {
    const records = many(20);
    const a = splitRecords(records, { seed: 1 });
    expect([a.opt.length, a.val.length, a.test.length]).toEqual([10, 4, 6]);
    expect(splitRecords(records, { seed: 1 })).toEqual(a);
    expect(splitRecords(records, { seed: 2 })).not.toEqual(a);
    expect([...ids(a.opt), ...ids(a.val), ...ids(a.test)].sort()).toEqual(ids(records).sort());
    // Parts keep the input order.
    expect(ids(a.opt)).toEqual([...ids(a.opt)].sort((x, y) => Number(x.slice(1)) - Number(y.slice(1))));
  });

  it('never leaves a part empty with 3 or more records', () => {
    for (let n = 3; n <= 8; n++) {
      for (const seed of [0, 1, 2]) {
        const s = splitRecords(many(n), { seed, ratio: [8, 1, 1] });
        expect(s.opt.length && s.val.length && s.test.length, `n=${n}`).toBeGreaterThan(0);
      }
    }
  });

  it('keeps every group in one part', () => {
    const records = many(40, 5); // 8 groups of 5
    const s = splitRecords(records, { seed: 3, by: 'group' });
    const partOf = new Map<string, string>();
    for (const [name, part] of Object.entries(s)) {
      for (const r of part) {
        expect(partOf.get(r.group!) ?? name).toBe(name);
        partOf.set(r.group!, name);
      }
    }
    expect(s.opt.length + s.val.length + s.test.length).toBe(40);
    expect(Math.min(s.opt.length, s.val.length, s.test.length)).toBeGreaterThan(0);
    expect(s.opt.length).toBeGreaterThanOrEqual(15);
  });

  it('refuses a grouped split with fewer groups than parts', () => {
    expect(() => splitRecords(many(6, 3), { by: 'group' })).toThrow(/needs at least 3 groups; these 6 records form 2/);
  });

  it('allows a 0 share', () => {
    const s = splitRecords(many(10), { ratio: [7, 3, 0] });
    expect([s.opt.length, s.val.length, s.test.length]).toEqual([7, 3, 0]);
  });
});

describe('parseSplitRatio and partSizes', () => {
  it('parses ratios and rejects nonsense', () => {
    expect(parseSplitRatio('5:2:3')).toEqual([5, 2, 3]);
    expect(parseSplitRatio('0.6, 0.2, 0.2')).toEqual([0.6, 0.2, 0.2]);
    expect(() => parseSplitRatio('5:5')).toThrow(/not a split ratio/);
    expect(() => parseSplitRatio('0:0:0')).toThrow(/not a split ratio/);
    expect(() => parseSplitRatio('a:b:c')).toThrow(/not a split ratio/);
  });
  it('rounds by largest remainder', () => {
    expect(partSizes(7, [5, 2, 3])).toEqual([4, 1, 2]);
    expect(partSizes(3, [5, 2, 3])).toEqual([1, 1, 1]);
    expect(partSizes(1, [5, 2, 3])).toEqual([1, 0, 0]);
  });
});

describe('split units and near-identical requests', () => {
  const rec = (id: string, query: string, group?: string): TaskRecord => ({
    id,
    query,
    reference: 'r',
    calls: [],
    ...(group ? { group } : {}),
  });

  it('splits by group when records have groups (auto), refuses group without groups, and describes the choice', () => {
    const grouped = [rec('a', 'q', 'g1'), rec('b', 'q', 'g2')];
    const plain = [rec('a', 'q'), rec('b', 'q')];
    expect(resolveSplitBy(grouped, 'auto')).toBe('group');
    expect(resolveSplitBy(plain, 'auto')).toBe('record');
    expect(resolveSplitBy(grouped, 'record')).toBe('record');
    expect(() => resolveSplitBy(plain, 'group', 'records.jsonl')).toThrow(
      /--split-by group: no record in records\.jsonl has a group/,
    );
    expect(describeSplitBy(grouped, 'group', 'auto')).toBe(
      'by group (2 groups of 2 records, each in one part; --split-by record splits single records)',
    );
    expect(describeSplitBy(plain, 'record', 'auto')).toBe('by record (the records have no groups)');
  });

  it('warns when requests that differ only in numbers and ids land in different parts, and not when grouped', () => {
    expect(requestKey('Cancel order #W5490111 for user mia_4516, 2 items!')).toBe('cancel order for user items');
    const records = Array.from({ length: 20 }, (_, i) =>
      rec(
        `r${i}`,
        i < 10 ? `Weather in city ${i} on day ${i + 1}?` : `Distinct request number word ${'abcdefghij'[i - 10]}`,
      ),
    );
    const warning = nearDuplicateWarning(records);
    expect(warning).toMatch(
      /^warning: 1 request repeated with only numbers or ids changed \(10 records, e\.g\. "Weather in city \d on day \d+\?"\) fall in different parts/,
    );
    expect(nearDuplicateWarning(records.map((r, i) => ({ ...r, group: `g${i % 5}` })))).toBeUndefined();
    expect(nearDuplicateWarning(records.slice(10))).toBeUndefined();
  });
});

describe('tool coverage of a held-out part', () => {
  const calling = (id: string, ...tools: string[]): TaskRecord => ({
    id,
    query: `q ${id}`,
    reference: '',
    calls: tools.map((tool) => ({ tool, args: {} })),
  });

  it("counts the held-out calls whose tool a learned record calls (a chain's tools never seen are not covered)", () => {
    const learned = [calling('a', 'geocode', 'nearby'), calling('b', 'geocode')];
    const held = [calling('c', 'geocode', 'timezone'), calling('d', 'nearby', 'elevation', 'timezone')];
    expect(toolCoverage(learned, held)).toEqual({ calls: 5, seen: 2 });
    expect(toolCoverage([], held)).toEqual({ calls: 5, seen: 0 });
    expect(toolCoverage(learned, [])).toEqual({ calls: 0, seen: 0 });
  });
});
