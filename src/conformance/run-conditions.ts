import { FlowScoutError } from '../errors/index.js';
import type { PreparedWorkflow } from '../graph/prepare.js';
import type { Edge, FieldGuard, GuardLiteral } from '../graph/schema.js';
import { evaluateGuard } from '../runtime/guards.js';

/**
 * When each node of a workflow runs, as a set of *scenarios*. A scenario fixes the outcome of every
 * branch point: the status (`ok` / `error`) of each tool node a status guard reads, and the value of
 * each field that a field guard reads, chosen among values that tell its guards apart. A node runs
 * in a scenario when one of its in-edges is live there (docs/DESIGN.md, "Execution"): its source
 * runs and its guard holds. Sets of scenarios are bitsets, so "can these two nodes run in the same
 * run" is an AND and "does this node run whenever that one does" a subset test.
 *
 * A field whose guards are all `eq` / `in` is assumed to take one of the values they test (a judge
 * answers one of its routes); otherwise it may also take a value none of them names, or be missing.
 */
export const MAX_SCENARIOS = 1 << 16;

export type Scenarios = Uint32Array;

export interface RunConditions {
  scenarioCount: number;
  /** Every scenario. */
  all: Scenarios;
  /** Per node id: the scenarios in which it runs. */
  runs: ReadonlyMap<string, Scenarios>;
  /** The scenarios in which every branch point on `field` answers `value`. */
  where(field: string, value: GuardLiteral): Scenarios;
}

interface BranchPoint {
  /** The field its guards read (none for status guards). */
  field?: string;
  /** Outcomes, each the output (or status) of the source that the edges' guards read. */
  outcomes: { status: 'ok' | 'error'; output?: unknown }[];
  edges: Edge[];
}

/** The scenarios each node runs in. Throws INVALID_WORKFLOW when the branch points have too many combined outcomes. */
export function runConditions(prepared: PreparedWorkflow): RunConditions {
  const points = branchPoints(prepared);
  let count = 1;
  for (const p of points) {
    count *= p.outcomes.length;
    if (count > MAX_SCENARIOS) {
      throw new FlowScoutError({
        code: 'INVALID_WORKFLOW',
        message: `the workflow's ${points.length} branch points have more than ${MAX_SCENARIOS} combined outcomes, too many to derive its process tree`,
        hint: 'Check it against the process tree of its runs instead (flowscout mine <runs> --format tree, then --tree).',
      });
    }
  }
  const words = Math.ceil(count / 32);
  const set = (pred: (scenario: number) => boolean): Scenarios => {
    const s = new Uint32Array(words);
    for (let i = 0; i < count; i++) if (pred(i)) s[i >>> 5]! |= 1 << (i & 31);
    return s;
  };
  const all = set(() => true);
  // Which scenarios let each guarded edge through: the outcome of its branch point in that scenario.
  const live = new Map<Edge, Scenarios>();
  const radixes: number[] = [];
  let radix = 1;
  for (const p of points) {
    const r = radix;
    radixes.push(r);
    const k = p.outcomes.length;
    for (const e of p.edges) {
      const passes = p.outcomes.map((o) => evaluateGuard(e.when, { kind: 'llm', ...o }));
      live.set(
        e,
        set((scenario) => passes[Math.floor(scenario / r) % k]!),
      );
    }
    radix *= k;
  }
  const runs = new Map<string, Scenarios>();
  for (const id of prepared.order) {
    const incoming = prepared.adjacency.in.get(id)!;
    if (incoming.length === 0) {
      runs.set(id, all);
      continue;
    }
    const s = new Uint32Array(words);
    for (const e of incoming) {
      const from = runs.get(e.from)!;
      const pass = live.get(e) ?? all;
      for (let w = 0; w < words; w++) s[w]! |= from[w]! & pass[w]!;
    }
    runs.set(id, s);
  }
  const where = (field: string, value: GuardLiteral): Scenarios => {
    let out = all;
    points.forEach((p, i) => {
      if (p.field !== field) return;
      const k = p.outcomes.length;
      const answers = p.outcomes.map((o) => readPath(o.output, field) === value);
      out = and(
        out,
        set((scenario) => answers[Math.floor(scenario / radixes[i]!) % k]!),
      );
    });
    return out;
  };
  return { scenarioCount: count, all, runs, where };
}

/** The branch points: per source, its status guards, and its field guards per field. */
function branchPoints(prepared: PreparedWorkflow): BranchPoint[] {
  const points: BranchPoint[] = [];
  for (const id of prepared.order) {
    const guarded = prepared.adjacency.out.get(id)!.filter((e) => e.when);
    const status = guarded.filter((e) => e.when!.kind === 'status');
    if (status.length > 0)
      points.push({ outcomes: [{ status: 'ok', output: {} }, { status: 'error' }], edges: status });
    const byField = new Map<string, Edge[]>();
    for (const e of guarded) {
      if (e.when!.kind !== 'field') continue;
      const list = byField.get(e.when!.field) ?? [];
      list.push(e);
      byField.set(e.when!.field, list);
    }
    for (const [field, edges] of byField) {
      const values = fieldValues(edges.map((e) => e.when as FieldGuard));
      points.push({ field, outcomes: values.map((v) => ({ status: 'ok', output: withField(field, v) })), edges });
    }
  }
  return points;
}

const MISSING = Symbol('missing');

/** Values of a field that tell its guards apart: the literals they name, and what lies between and beyond them. */
function fieldValues(guards: FieldGuard[]): (unknown | typeof MISSING)[] {
  const literals: GuardLiteral[] = [];
  for (const g of guards) {
    if (Array.isArray(g.value)) literals.push(...g.value);
    else if (g.value !== undefined) literals.push(g.value);
  }
  const values: (unknown | typeof MISSING)[] = [];
  const add = (v: unknown) => {
    if (!values.some((x) => Object.is(x, v))) values.push(v);
  };
  for (const l of literals) add(l);
  const closed = guards.every((g) => g.op === 'eq' || g.op === 'in');
  if (closed && values.length > 0) return values;
  const numbers = [...new Set(literals.filter((l): l is number => typeof l === 'number'))].sort((a, b) => a - b);
  if (numbers.length > 0) {
    add(numbers[0]! - 1);
    add(numbers[numbers.length - 1]! + 1);
    for (let i = 1; i < numbers.length; i++) add((numbers[i - 1]! + numbers[i]!) / 2);
  }
  add(true);
  add(false);
  add('\u0000a value no guard names');
  add(MISSING);
  return values;
}

function readPath(value: unknown, field: string): unknown {
  let cur = value;
  for (const part of field.split('.')) cur = (cur as Record<string, unknown> | undefined)?.[part];
  return cur;
}

function withField(field: string, value: unknown): Record<string, unknown> {
  const parts = field.split('.');
  const root: Record<string, unknown> = {};
  let cur = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const next: Record<string, unknown> = {};
    cur[parts[i]!] = next;
    cur = next;
  }
  if (value !== MISSING) cur[parts[parts.length - 1]!] = value;
  return root;
}

export function isEmpty(s: Scenarios): boolean {
  for (let w = 0; w < s.length; w++) if (s[w] !== 0) return false;
  return true;
}

export function and(a: Scenarios, b: Scenarios): Scenarios {
  const out = new Uint32Array(a.length);
  for (let w = 0; w < a.length; w++) out[w] = a[w]! & b[w]!;
  return out;
}

export function or(a: Scenarios, b: Scenarios): Scenarios {
  const out = new Uint32Array(a.length);
  for (let w = 0; w < a.length; w++) out[w] = a[w]! | b[w]!;
  return out;
}

export function intersects(a: Scenarios, b: Scenarios): boolean {
  for (let w = 0; w < a.length; w++) if ((a[w]! & b[w]!) !== 0) return true;
  return false;
}

export function equals(a: Scenarios, b: Scenarios): boolean {
  for (let w = 0; w < a.length; w++) if (a[w] !== b[w]) return false;
  return true;
}
