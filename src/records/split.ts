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
      hint: 'Split by record instead (--split-by record), or give the records more distinct `group` values.',
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
  if (
    parts.length !== 3 ||
    parts.some((p) => p === '') ||
    nums.some((n) => !Number.isFinite(n) || n < 0) ||
    nums[0]! + nums[1]! + nums[2]! <= 0
  ) {
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
    const k = positive.reduce(
      (best, j) => (target[j]! - filled[j]! > target[best]! - filled[best]! ? j : best),
      positive[0]!,
    );
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
export function splitWarning(split: {
  readonly opt: readonly unknown[];
  readonly val: readonly unknown[];
  readonly test: readonly unknown[];
}): string | undefined {
  const parts: Array<[string, number]> = [
    ['D_opt', split.opt.length],
    ['D_val', split.val.length],
    ['D_test', split.test.length],
  ];
  const small = parts.filter(([, n]) => n < SMALL_SPLIT_PART);
  if (small.length === 0) return undefined;
  return `the split leaves fewer than ${SMALL_SPLIT_PART} records in ${small.map(([name, n]) => `${name} (${n})`).join(', ')}; scores on so few records say little. Import more runs, or --keep-failed at import to keep records with failed calls.`;
}

/** How a command splits: `auto` (the default) splits by group when the records have groups, else by record. */
export type SplitBy = 'auto' | 'record' | 'group';

/** True when at least one record has a `group`. */
export function hasGroups(records: readonly TaskRecord[]): boolean {
  return records.some((r) => r.group !== undefined);
}

/**
 * The unit a split uses: `auto` → by group when the records have groups (so a task run several
 * times never straddles optimisation and test), else by record; `group` without any group is
 * INVALID_INPUT, never a silent split by record.
 */
export function resolveSplitBy(records: readonly TaskRecord[], by: SplitBy, where?: string): 'record' | 'group' {
  const grouped = hasGroups(records);
  if (by === 'group' && !grouped) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--split-by group: no record${where ? ` in ${where}` : ''} has a group`,
      hint: 'Import the records with --group <json path> (e.g. --group task_id) so repeated tasks share a group, or split by record (--split-by record).',
      ...(where ? { location: { file: where } } : {}),
    });
  }
  if (by === 'auto') return grouped ? 'group' : 'record';
  return by;
}

/** One line saying how the records were split, for reports: `by group (12 groups; --split-by record splits single records)`. */
export function describeSplitBy(records: readonly TaskRecord[], by: 'record' | 'group', chosen: SplitBy): string {
  if (by === 'group') {
    const groups = new Set(records.map((r) => r.group ?? `\u0000${r.id}`)).size;
    return `by group (${groups} groups of ${records.length} records, each in one part${chosen === 'auto' ? '; --split-by record splits single records' : ''})`;
  }
  return `by record${chosen === 'auto' ? ' (the records have no groups)' : ''}`;
}

/** A request's words after lower-casing and dropping numbers and ids: near-identical requests share it. */
export function requestKey(query: string): string {
  return query
    .toLowerCase()
    .replace(/\S*\d\S*/g, ' ')
    .replace(/[^\p{L}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * When the records have no groups: a warning if near-identical requests (the same `requestKey`)
 * fall in different parts of the split, which lets a search see in D_opt what it is tested on.
 * Undefined when the records have groups or no such request straddles parts.
 */
export function nearDuplicateWarning(records: readonly TaskRecord[], split?: RecordSplit): string | undefined {
  if (hasGroups(records) || records.length < 2) return undefined;
  const parts = split ?? splitRecords(records, { ratio: DEFAULT_SPLIT_RATIO, seed: 0, by: 'record' });
  const where = new Map<string, { parts: Set<number>; records: number; query: string }>();
  [parts.opt, parts.val, parts.test].forEach((list, k) => {
    for (const r of list) {
      const key = requestKey(r.query);
      if (!key) continue;
      const e = where.get(key) ?? { parts: new Set<number>(), records: 0, query: r.query };
      e.parts.add(k);
      e.records++;
      where.set(key, e);
    }
  });
  const straddling = [...where.values()].filter((e) => e.parts.size > 1);
  if (straddling.length === 0) return undefined;
  const n = straddling.reduce((s, e) => s + e.records, 0);
  const example = straddling[0]!.query.replace(/\s+/g, ' ');
  return `warning: ${straddling.length} request${straddling.length === 1 ? '' : 's'} repeated with only numbers or ids changed (${n} records, e.g. "${example.length > 80 ? `${example.slice(0, 80)}…` : example}") fall in different parts of ${split ? 'the' : "a search's default"} split (D_opt, D_val, D_test), so the test part holds near-copies of what the search learns from. Import with --group <json path> (e.g. the task id) to keep each task in one part.`;
}

/** Of a record set's reference calls (`calls`), those of a tool the learned records call (`seen`). */
export interface ToolCoverage {
  calls: number;
  seen: number;
}

/**
 * How many of `held`'s reference calls are of a tool some record of `learned` calls (`seen` of
 * `calls`). A split by group can leave a tool's every call out of D_opt; what the search learns per
 * tool then serves none of its calls in D_val or D_test.
 */
export function toolCoverage(learned: readonly TaskRecord[], held: readonly TaskRecord[]): ToolCoverage {
  const tools = new Set(learned.flatMap((r) => r.calls.map((c) => c.tool)));
  let calls = 0;
  let seen = 0;
  for (const r of held)
    for (const c of r.calls) {
      calls++;
      if (tools.has(c.tool)) seen++;
    }
  return { calls, seen };
}
