import type { EventLog } from '../event-log/event-log.js';
import { innerSkeletons, scale, type StepSlot, type Skeleton } from './skeleton.js';

/**
 * Fits the log onto a skeleton, so that what the steps say comes from the runs themselves (an
 * exclusive choice in the tree says nothing about how often each alternative ran):
 * - each run's calls are assigned left to right to the first step at or after the previous
 *   call's step that holds the called tool (wrapping to an earlier one for a loop back; greedy on
 *   purpose, docs/DESIGN.md, "One in-order alignment");
 * - a step's `support` is the share of runs with a call there (inside a parallel branch:
 *   relative to the runs that reach the parallel slot; inside a choice's option: to the runs that
 *   took the option), `many` says some run called it twice or more, and tool weights are the calls
 *   assigned there;
 * - a choice keeps the options some run took, with `shares` (of the runs reaching the choice), and
 *   says `none` when some runs passed it by; with one option left its steps take the choice's place.
 * Parallel branches are first ordered by where their tools sit in the runs (mean relative index),
 * since the tree leaves their order open. Returns a new skeleton.
 */
export function fitLog(shape: Skeleton, log: EventLog): Skeleton {
  const names = log.activities;
  const meanAt = meanRelativePosition(log);
  const ordered = orderBranches(shape, meanAt);
  const flat: StepSlot[] = [];
  const enclosing: number[][] = []; // per flattened step: the parallel slots and choices around it
  let blocks = 0;
  const flatten = (seq: Skeleton, outer: number[]) => {
    for (const s of seq) {
      if (s.kind === 'step') {
        flat.push(s);
        enclosing.push(outer);
      } else if (s.kind === 'parallel') {
        const id = blocks++;
        for (const b of s.branches) flatten(b, [...outer, id]);
      } else {
        // A choice, then each of its options: a block of its own.
        const id = blocks++;
        for (const o of s.options) flatten(o, [...outer, id, blocks++]);
      }
    }
  };
  flatten(ordered, []);
  const where = new Map<string, number[]>();
  flat.forEach((f, i) => {
    for (const t of f.tools.keys()) {
      const list = where.get(t) ?? [];
      list.push(i);
      where.set(t, list);
    }
  });
  const reach = new Float64Array(flat.length);
  const many = new Uint8Array(flat.length);
  const calls = flat.map(() => new Map<string, number>());
  const blockReach = new Float64Array(blocks);
  let total = 0;
  const hits = new Int32Array(flat.length);
  for (const v of log.variants) {
    total += v.count;
    hits.fill(0);
    let at = 0;
    for (const id of v.trace) {
      const tool = names[id]!;
      const spots = where.get(tool);
      if (!spots) continue;
      const idx = spots.find((s) => s >= at) ?? spots[0]!;
      hits[idx]!++;
      calls[idx]!.set(tool, (calls[idx]!.get(tool) ?? 0) + v.count);
      at = idx;
    }
    const touched = new Set<number>();
    for (let i = 0; i < flat.length; i++) {
      if (hits[i]! === 0) continue;
      reach[i]! += v.count;
      if (hits[i]! > 1) many[i] = 1;
      for (const p of enclosing[i]!) touched.add(p);
    }
    for (const p of touched) blockReach[p]! += v.count;
  }
  total ||= 1;
  let k = 0;
  let bk = 0;
  const rebuild = (seq: Skeleton, base: number): Skeleton =>
    seq.flatMap((s): Skeleton => {
      if (s.kind === 'step') {
        const i = k++;
        const tools = new Map([...s.tools.keys()].map((t) => [t, calls[i]!.get(t) ?? 0]));
        return [{ ...s, tools, support: base > 0 ? Math.min(1, reach[i]! / base) : 0, many: many[i] === 1 }];
      }
      const id = bk++;
      const own = blockReach[id] ?? 0;
      const support = Math.min(1, own / (base || 1));
      if (s.kind === 'parallel') return [{ ...s, support, branches: s.branches.map((b) => rebuild(b, own)) }];
      // A choice keeps the options some run took, each with its share of the choice's runs and its
      // steps relative to the runs that took it; with one left it is that option's steps.
      const taken: Array<{ option: Skeleton; share: number }> = [];
      for (const o of s.options) {
        const took = blockReach[bk++] ?? 0;
        const option = rebuild(o, took);
        if (took > 0) taken.push({ option, share: own > 0 ? Math.min(1, took / own) : 0 });
      }
      if (taken.length >= 2)
        return [
          {
            ...s,
            support,
            options: taken.map((t) => t.option),
            shares: taken.map((t) => t.share),
            none: s.none || support < 1 - 1e-9,
          },
        ];
      return taken.length === 1 ? scale(taken[0]!.option, support) : [];
    });
  return rebuild(ordered, total);
}

/** Mean of index/(length−1) over all calls of each tool (0.5 for single-call runs). */
function meanRelativePosition(log: EventLog): Map<string, number> {
  const sum = new Map<string, number>();
  const n = new Map<string, number>();
  for (const v of log.variants) {
    const len = v.trace.length;
    v.trace.forEach((id, i) => {
      const t = log.activities[id]!;
      const rel = len > 1 ? i / (len - 1) : 0.5;
      sum.set(t, (sum.get(t) ?? 0) + rel * v.count);
      n.set(t, (n.get(t) ?? 0) + v.count);
    });
  }
  const out = new Map<string, number>();
  for (const [t, s] of sum) out.set(t, s / n.get(t)!);
  return out;
}

/** Orders every parallel slot's branches by the mean relative position of their tools. */
function orderBranches(shape: Skeleton, meanAt: Map<string, number>): Skeleton {
  const at = (seq: Skeleton): number => {
    const xs: number[] = [];
    const walk = (q: Skeleton) =>
      q.forEach((s) =>
        s.kind === 'step'
          ? s.tools.forEach((_, t) => meanAt.has(t) && xs.push(meanAt.get(t)!))
          : innerSkeletons(s).forEach(walk),
      );
    walk(seq);
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 1;
  };
  return shape.map((s) => {
    if (s.kind === 'step') return s;
    if (s.kind === 'choice') return { ...s, options: s.options.map((o) => orderBranches(o, meanAt)) };
    const branches = s.branches.map((b) => orderBranches(b, meanAt));
    const keyed = branches.map((b) => ({ b, k: at(b) }));
    keyed.sort((x, y) => x.k - y.k);
    return { ...s, branches: keyed.map((x) => x.b) };
  });
}
