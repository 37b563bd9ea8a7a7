import type { TaskRecord } from '../../records/schema.js';
import { outputValues } from '../../dataflow/output-value.js';
import { stepTools, scale, skeletonTools, type StepSlot, type Skeleton } from './skeleton.js';

/**
 * Data flow between tools in the runs (docs/DESIGN.md, "Mining": parallel blocks that pass data).
 * A process tree sees only the order of calls: when some runs look up an order before the user and
 * others after (the request wrote the order id), or skip one of the two, the miner may put the two
 * lookups in parallel, and G0 would then run them side by side — the order lookup without the order
 * ids the user lookup returns. The records also hold the arguments and outputs: a tool *reads*
 * another when its calls' arguments are values that an earlier call of the other tool returned
 * (and the request did not write). A parallel block whose branches pass data becomes a sequence,
 * readers after their sources.
 */

/** Least number of a tool's calls whose argument came from another tool's output, for it to read that tool. */
const MIN_READS = 2;
/** Least share of the reader's calls (those with a call of the source before them) that took a value from it. */
const MIN_READ_SHARE = 0.5;

/** The argument values of a call that could only have been read (3+ characters; arrays item by item). */
function argValues(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(add);
    else if ((typeof v === 'string' || typeof v === 'number') && String(v).trim().length >= 3)
      out.push(String(v).trim());
  };
  Object.values(args).forEach(add);
  return out;
}

/**
 * Per tool, the tools it reads in the records: at least `MIN_READS` of its calls, and at least
 * `MIN_READ_SHARE` of its calls made after a call of the source, have an argument that the request
 * does not contain and that the source returned first — a value of its output as the filler and
 * the hints read outputs (`outputValues`: the output itself when it is one bare value, else its
 * key/value pairs), credited to the earliest call that returned it (a user id a lookup found is not
 * read from the order details that repeat it).
 * Only which tool reads which is kept, never a value.
 */
export function toolReads(records: readonly TaskRecord[]): Map<string, Set<string>> {
  const took = new Map<string, number>(); // "reader\0source" → calls that took a value from the source
  const after = new Map<string, number>(); // "reader\0source" → calls made after a call of the source
  for (const r of records) {
    const query = r.query.toLowerCase();
    const seen: Array<{ tool: string; values: Set<string> }> = [];
    for (const c of r.calls) {
      const values = argValues(c.args ?? {}).filter((v) => !query.includes(v.toLowerCase()));
      // A value came from the first earlier call that returned it.
      const from = new Set(values.flatMap((v) => seen.find((s) => s.values.has(v))?.tool ?? []));
      for (const source of new Set(seen.map((s) => s.tool))) {
        if (source === c.tool) continue;
        const key = `${c.tool}\u0000${source}`;
        after.set(key, (after.get(key) ?? 0) + 1);
        if (from.has(source)) took.set(key, (took.get(key) ?? 0) + 1);
      }
      if (c.output !== undefined && c.status !== 'error')
        seen.push({ tool: c.tool, values: new Set(outputValues(c.output).map((p) => p.value.trim())) });
    }
  }
  const reads = new Map<string, Set<string>>();
  for (const [key, n] of took) {
    if (n < MIN_READS || n < MIN_READ_SHARE * (after.get(key) ?? n)) continue;
    const [reader, source] = key.split('\u0000') as [string, string];
    reads.set(reader, (reads.get(reader) ?? new Set()).add(source));
  }
  return reads;
}

/**
 * Lays out every parallel block whose branches pass data (`toolReads`) as one sequence: a step
 * after the steps whose tools it reads, the steps of one branch in their order, otherwise the
 * earlier steps of each branch first. A step is read as its most used tool; a block whose branches
 * hold more than steps (a nested block or choice), or whose steps read each other both ways, is laid
 * out branch by branch when its branches read each other one way only, and otherwise stays parallel.
 * The steps keep their supports relative to the block's runs, scaled by the block's support
 * (fitLog recomputes them from the log).
 */
export function sequenceByReads(shape: Skeleton, reads: ReadonlyMap<string, ReadonlySet<string>>): Skeleton {
  const readsAny = (a: Iterable<string>, b: Iterable<string>) =>
    [...a].some((t) => [...b].some((u) => reads.get(t)?.has(u)));
  return shape.flatMap((slot): Skeleton => {
    if (slot.kind === 'step') return [slot];
    if (slot.kind === 'choice') return [{ ...slot, options: slot.options.map((o) => sequenceByReads(o, reads)) }];
    const branches = slot.branches.map((b) => sequenceByReads(b, reads));
    const sequenced = (order: Skeleton) => scale(order, slot.support);
    if (branches.every((b) => b.every((x) => x.kind === 'step'))) {
      const steps = branches.flatMap((b, bi) => (b as StepSlot[]).map((p, k) => ({ p, bi, k, tool: topTool(p) })));
      const after = steps.map((x) =>
        steps.flatMap((y, j) => ((y.bi === x.bi && y.k < x.k) || reads.get(x.tool)?.has(y.tool) ? [j] : [])),
      );
      if (steps.some((x, i) => after[i]!.some((j) => steps[j]!.bi !== x.bi))) {
        const order = topological(after, (i) => [steps[i]!.k, steps[i]!.bi]);
        if (order) return sequenced(order.map((i) => steps[i]!.p));
      }
    }
    const tools = branches.map((b) => skeletonTools(b));
    const before = branches.map((_, x) =>
      branches.map((_, y) => y).filter((y) => y !== x && readsAny(tools[x]!, tools[y]!)),
    );
    if (before.every((b) => b.length === 0)) return [{ ...slot, branches }];
    const order = topological(before, (x) => [x]);
    return order ? sequenced(order.flatMap((x) => branches[x]!)) : [{ ...slot, branches }];
  });
}

/** A step's most used tool. */
const topTool = (p: StepSlot): string => stepTools(p)[0] ?? '';

/**
 * An order of 0..n−1 in which every item comes after the items `after[i]` names, picking among the
 * ready items the one with the smallest `rank` (compared element by element); undefined on a cycle.
 */
function topological(after: readonly number[][], rank: (i: number) => number[]): number[] | undefined {
  const order: number[] = [];
  const placed = new Set<number>();
  while (order.length < after.length) {
    let best: number | undefined;
    for (let i = 0; i < after.length; i++) {
      if (placed.has(i) || !after[i]!.every((j) => placed.has(j))) continue;
      if (best === undefined || less(rank(i), rank(best))) best = i;
    }
    if (best === undefined) return undefined;
    order.push(best);
    placed.add(best);
  }
  return order;
}

function less(a: readonly number[], b: readonly number[]): boolean {
  for (let k = 0; k < Math.min(a.length, b.length); k++) if (a[k] !== b[k]) return a[k]! < b[k]!;
  return a.length < b.length;
}
