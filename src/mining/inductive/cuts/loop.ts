import type { Dfg } from '../dfg.js';
import { SubLogBuilder, type SubLog } from '../sublog.js';
import { groupIndex, type Cut } from '../types.js';
import { componentOrder, UnionFind } from '../union-find.js';

/**
 * Loop cut (Leemans' thesis, LoopCut p.190; docs/DESIGN.md, "Matching PM4Py" §2). Needs at least one edge.
 * - The do group starts as all start ∪ end activities; the connected components of the rest
 *   (edges among non-start/end vertices only) are the redo candidates.
 * - A component entered from a start activity that is not also an end activity joins do; so does
 *   one that leads into an end activity that is not also a start activity.
 * - Start completeness: a redo group with an edge into some start activity must have edges into all
 *   of them, or it joins do. End completeness is the mirror image.
 * A cut exists if a redo group is left; it may have several (`*( do, r1, r2, … )`).
 */
export const loopCut: Cut = {
  name: 'loop',
  operator: 'loop',
  holds(dfg: Dfg): number[][] | null {
    if (dfg.edgeCount === 0) return null;
    const { n, edges, start, end } = dfg;
    const isStart = (a: number) => start[a]! > 0;
    const isEnd = (a: number) => end[a]! > 0;
    const inDo = (a: number) => isStart(a) || isEnd(a);
    const uf = new UnionFind(n);
    const rest: number[] = [];
    for (let a = 0; a < n; a++) {
      if (!dfg.vertex[a] || inDo(a)) continue;
      rest.push(a);
      for (let b = 0; b < n; b++) if (edges[a * n + b]! > 0 && !inDo(b)) uf.union(a, b);
    }
    // Redo order decides projection ties and is printed; see `componentOrder` (xor.ts).
    const comps = componentOrder(uf.classes(rest));
    // group[a]: 0 = do, c+1 = redo component c.
    const group = new Int32Array(n).fill(-1);
    for (let a = 0; a < n; a++) if (dfg.vertex[a] && inDo(a)) group[a] = 0;
    comps.forEach((c, i) => c.forEach((a) => (group[a] = i + 1)));
    const alive = comps.map(() => true);
    const toDo = (a: number) => {
      const g = group[a]!;
      if (g > 0 && alive[g - 1]) alive[g - 1] = false;
    };
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        if (!(edges[a * n + b]! > 0)) continue;
        if (isStart(a) && !isEnd(a)) toDo(b);
        if (isEnd(b) && !isStart(b)) toDo(a);
      }
    }
    const starts: number[] = [];
    const ends: number[] = [];
    for (let a = 0; a < n; a++) {
      if (isStart(a)) starts.push(a);
      if (isEnd(a)) ends.push(a);
    }
    const has = (a: number, b: number) => edges[a * n + b]! > 0;
    comps.forEach((c, i) => {
      if (!alive[i]) return;
      const startIncomplete = c.some((a) => starts.some((s) => has(a, s)) && starts.some((s) => !has(a, s)));
      const endIncomplete = c.some((a) => ends.some((e) => has(e, a)) && ends.some((e) => !has(e, a)));
      if (startIncomplete || endIncomplete) alive[i] = false;
    });
    const doGroup: number[] = [];
    for (let a = 0; a < n; a++) if (group[a] === 0 || (group[a]! > 0 && !alive[group[a]! - 1])) doGroup.push(a);
    const redo = comps.filter((_, i) => alive[i]);
    return redo.length > 0 && doGroup.length > 0 ? [doGroup, ...redo] : null;
  },
  /**
   * Each trace is split into maximal runs of do events and of redo events. Do runs go to the do
   * sublog; a redo run goes to the redo group sharing most distinct activities with it (a tie goes
   * to the higher index). Events of no group (possible on IMf's filtered DFG) are dropped without
   * ending a run. Every trace adds its last do run, even when empty.
   */
  project(log: SubLog, dfg: Dfg, groups: number[][]): SubLog[] {
    const of = groupIndex(dfg, groups);
    const k = groups.length;
    const doLog = new SubLogBuilder();
    const redoLogs = groups.slice(1).map(() => new SubLogBuilder());
    const flushRedo = (run: number[], count: number) => {
      const overlap = new Int32Array(k);
      for (const a of new Set(run)) overlap[of[a]!]!++;
      let best = 1;
      for (let g = 2; g < k; g++) if (overlap[g]! >= overlap[best]!) best = g;
      redoLogs[best - 1]!.add(Int32Array.from(run), count);
    };
    for (let v = 0; v < log.traces.length; v++) {
      const t = log.traces[v]!;
      const count = log.counts[v]!;
      let doRun: number[] = [];
      let redoRun: number[] = [];
      for (let i = 0; i < t.length; i++) {
        const a = t[i]!;
        const g = of[a]!;
        if (g === 0) {
          doRun.push(a);
          if (redoRun.length > 0) {
            flushRedo(redoRun, count);
            redoRun = [];
          }
        } else if (g > 0) {
          redoRun.push(a);
          if (doRun.length > 0) {
            doLog.add(Int32Array.from(doRun), count);
            doRun = [];
          }
        }
      }
      // PM4Py crashes on a trace ending inside a redo run (end activities are in do, so it cannot
      // happen); we assign such a run like any other.
      if (redoRun.length > 0) flushRedo(redoRun, count);
      doLog.add(Int32Array.from(doRun), count);
    }
    return [doLog.build(), ...redoLogs.map((b) => b.build())];
  },
};
