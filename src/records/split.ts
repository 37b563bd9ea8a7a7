import { FlowScoutError } from '../errors/index.js';
import { createRandom } from '../util/random.js';
import type { TaskRecord } from './schema.js';

/**
 * The seeded split of records into D_opt (search reward), D_val (candidate selection) and D_test
 * (docs/DESIGN.md, "Pipeline": "records ──split──► D_opt, D_val, D_test"). Deterministic from the seed;
 * `by: 'group'` keeps every group (e.g. a TRAJECT-Bench API chain) inside one part, so no chain
 * straddles optimisation and test.
 */

export type SplitRatio = readonly [number, number, number];

export interface SplitOptions {
  /** Relative sizes of opt : val : test (default 5:2:3). A 0 leaves that part empty. */
  ratio?: SplitRatio;
  seed?: number | string;
  /** Split single records (default) or whole groups (`group`, or the id when a record has none). */
  by?: 'record' | 'group';
}

/** The three parts of a seeded split: D_opt, D_val and D_test. */
export interface RecordSplit {
  opt: TaskRecord[];
  val: TaskRecord[];
  test: TaskRecord[];
}

export const DEFAULT_SPLIT_RATIO: SplitRatio = [5, 2, 3];

/**
 * Splits records. Part sizes follow the ratio (largest remainder); every part with a positive ratio
 * gets at least one record (or group) when there are enough of them. Each part keeps the input order.
 */
export function splitRecords(records: readonly TaskRecord[], opts: SplitOptions = {}): RecordSplit {
  const ratio = checkRatio(opts.ratio ?? DEFAULT_SPLIT_RATIO);
  const random = createRandom(opts.seed ?? 0);
  const order = new Map(records.map((r, i) => [r, i]));
  const units = opts.by === 'group' ? groupsOf(records) : records.map((r) => [r]);
  const positive = ratio.filter((x) => x > 0).length;
  if (opts.by === 'group' && records.length >= 3 && units.length < positive) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `a split by group needs at least ${positive} groups; these ${records.length} records form ${units.length}`,
      hint: 'Split by record instead (--by record), or give the records more distinct `group` values.',
    });
  }
  const shuffled = random.shuffle(units);
  const parts: TaskRecord[][][] = [[], [], []];
  if (opts.by === 'group') assignGroups(shuffled, ratio, records.length, parts);
  else {
    const sizes = partSizes(shuffled.length, ratio);
    let at = 0;
    sizes.forEach((size, k) => {
      parts[k] = shuffled.slice(at, at + size);
      at += size;
    });
  }
  const flat = (k: number) => parts[k]!.flat().sort((a, b) => order.get(a)! - order.get(b)!);
  return { opt: flat(0), val: flat(1), test: flat(2) };
}

/** Parses "5:2:3" (or "5,2,3", "0.5:0.2:0.3") into a ratio; INVALID_INPUT otherwise. */
export function parseSplitRatio(text: string): SplitRatio {
  const parts = text.split(/[:,/]/).map((s) => s.trim());
  const nums = parts.map(Number);
  if (parts.length !== 3 || parts.some((p) => p === '') || nums.some((n) => !Number.isFinite(n) || n < 0) || nums[0]! + nums[1]! + nums[2]! <= 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `'${text}' is not a split ratio`,
      hint: 'Give three non-negative numbers opt:val:test with a positive sum, e.g. 5:2:3.',
    });
  }
  return [nums[0]!, nums[1]!, nums[2]!];
}

function checkRatio(ratio: SplitRatio): SplitRatio {
  return parseSplitRatio(ratio.join(':'));
}

/** Sizes summing to n by largest remainder, then at least 1 for each positive part when n allows. */
export function partSizes(n: number, ratio: SplitRatio): [number, number, number] {
  const total = ratio[0] + ratio[1] + ratio[2];
  const exact = ratio.map((r) => (n * r) / total);
  const sizes = exact.map(Math.floor) as [number, number, number];
  const byRemainder = [0, 1, 2].sort((a, b) => exact[b]! - sizes[b]! - (exact[a]! - sizes[a]!) || a - b);
  for (let left = n - sizes[0] - sizes[1] - sizes[2], i = 0; left > 0; left--, i++) sizes[byRemainder[i % 3]!]!++;
  const positive = [0, 1, 2].filter((k) => ratio[k]! > 0);
  if (n >= positive.length) {
    for (const k of positive) {
      if (sizes[k] === 0) {
        const donor = [0, 1, 2].reduce((best, j) => (sizes[j]! > sizes[best]! ? j : best), 0);
        sizes[donor] = sizes[donor]! - 1;
        sizes[k] = sizes[k]! + 1;
      }
    }
  }
  return sizes;
}

function groupsOf(records: readonly TaskRecord[]): TaskRecord[][] {
  const groups = new Map<string, TaskRecord[]>();
  for (const r of records) {
    const key = r.group ?? `\u0000${r.id}`;
    const list = groups.get(key) ?? [];
    list.push(r);
    groups.set(key, list);
  }
  return [...groups.values()];
}

/** Greedy: each group goes to the positive part furthest below its target; then no positive part stays empty. */
function assignGroups(groups: TaskRecord[][], ratio: SplitRatio, n: number, parts: TaskRecord[][][]): void {
  const total = ratio[0] + ratio[1] + ratio[2];
  const target = ratio.map((r) => (n * r) / total);
  const filled = [0, 0, 0];
  const positive = [0, 1, 2].filter((k) => ratio[k]! > 0);
  for (const group of groups) {
    const k = positive.reduce((best, j) => (target[j]! - filled[j]! > target[best]! - filled[best]! ? j : best), positive[0]!);
    parts[k]!.push(group);
    filled[k]! += group.length;
  }
  for (const k of positive) {
    if (parts[k]!.length > 0) continue;
    const donor = positive.reduce((best, j) => (parts[j]!.length > parts[best]!.length ? j : best), positive[0]!);
    const smallest = parts[donor]!.reduce((si, g, i, all) => (g.length < all[si]!.length ? i : si), 0);
    parts[k]!.push(...parts[donor]!.splice(smallest, 1));
  }
}

/** Fewer records than this in a split part make its scores too noisy to compare (the warning below). */
export const SMALL_SPLIT_PART = 5;

/** A one-line warning when a part of the split has fewer than 5 records, saying what to do; else undefined. */
export function splitWarning(split: { readonly opt: readonly unknown[]; readonly val: readonly unknown[]; readonly test: readonly unknown[] }): string | undefined {
  const parts: Array<[string, number]> = [['D_opt', split.opt.length], ['D_val', split.val.length], ['D_test', split.test.length]];
  const small = parts.filter(([, n]) => n < SMALL_SPLIT_PART);
  if (small.length === 0) return undefined;
  return `the split leaves fewer than ${SMALL_SPLIT_PART} records in ${small.map(([name, n]) => `${name} (${n})`).join(', ')}; scores on so few records say little. Import more runs, or --keep-failed at import to keep records with failed calls.`;
}
