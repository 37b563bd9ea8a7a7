import { isLeaf, isOperatorNode, isTau, type ProcessTree } from '../../mining/process-tree/schema.js';
import type { TaskRecord } from '../../records/schema.js';

/**
 * The PM4Py-style baseline's reading of a process tree (docs/DESIGN.md, "Baselines and ablations": the
 * mined model with concrete tools bound, no planning or synthesis). The tree is the inductive
 * miner's tree over D_opt's tool names — not the abstracted G0 — and every activity *is* its tool.
 * The tree says what may run; these fixed rules, with no model and no reasoning, say what runs for a
 * query. Choices depend only on the query, so the whole path is fixed before the first call:
 *
 * - `->` (sequence): the children in order.
 * - `X` (choice): the child whose tools rank highest for the query under retrieval (a child's score
 *   is the best normalised retrieval score of its activities); a `tau` child scores the threshold
 *   θ (default 0.5), so an optional part runs only when the query matches one of its tools at least
 *   half as well as the best tool of the domain. Ties go to the child whose activities occur in more
 *   D_opt traces, then to the first child.
 * - `+` (parallel): every child, ordered by where their activities sit on average in D_opt's traces
 *   (relative position 0..1; unseen children 0.5), ties in tree order.
 * - `*` (loop): a leaf body runs once as a `calls: 'many'` step (the execution policy issues one
 *   call per value it finds, as G0 maps a loop to `calls: 'many'`, docs/DESIGN.md, "Mining"). Any other body runs once, then
 *   again (at most `maxLoop` times in all) while its next choice — among activities not yet run in
 *   this loop — still scores at least θ. Redo children are not run (deciding to redo is reasoning).
 * - `tau`: nothing.
 */

export interface PlannedStep {
  tool: string;
  many: boolean;
}

export interface PlanRules {
  /** Normalised retrieval score of a tool for the query, in [0, 1]. */
  score(tool: string): number;
  /** D_opt traces that contain at least one of these activities. */
  frequency(activities: ReadonlySet<string>): number;
  /** Mean relative position (0..1) of these activities in D_opt traces; undefined when none occurs. */
  position(activities: ReadonlySet<string>): number | undefined;
  /** θ (default 0.5). */
  threshold?: number;
  /** Loop iterations at most (default 3). */
  maxLoop?: number;
}

/** The activities (tool names) under a tree node. */
export function activitiesOf(tree: ProcessTree, into = new Set<string>()): Set<string> {
  if (isLeaf(tree)) into.add(tree.label);
  else if (isOperatorNode(tree)) for (const c of tree.children) activitiesOf(c, into);
  return into;
}

/** The steps the baseline runs for one query (see the module comment). */
export function planFromTree(tree: ProcessTree, rules: PlanRules): PlannedStep[] {
  const theta = rules.threshold ?? 0.5;
  const maxLoop = Math.max(1, rules.maxLoop ?? 3);

  const walk = (t: ProcessTree, used: ReadonlySet<string>): { steps: PlannedStep[]; score: number } => {
    if (isTau(t)) return { steps: [], score: Number.NEGATIVE_INFINITY };
    if (isLeaf(t))
      return {
        steps: [{ tool: t.label, many: false }],
        score: used.has(t.label) ? Number.NEGATIVE_INFINITY : rules.score(t.label),
      };
    switch (t.op) {
      case 'seq':
        return combine(t.children.map((c) => walk(c, used)));
      case 'and': {
        const ordered = t.children
          .map((c, i) => ({ c, i, at: rules.position(activitiesOf(c)) ?? 0.5 }))
          .sort((a, b) => a.at - b.at || a.i - b.i);
        return combine(ordered.map(({ c }) => walk(c, used)));
      }
      case 'xor':
        return choose(t.children, used);
      case 'loop':
        return loop(t.children[0]!, used);
    }
  };

  const choose = (
    children: readonly ProcessTree[],
    used: ReadonlySet<string>,
  ): { steps: PlannedStep[]; score: number } => {
    let best: { steps: PlannedStep[]; score: number; freq: number; i: number } | undefined;
    children.forEach((c, i) => {
      const acts = activitiesOf(c);
      const fresh = [...acts].filter((a) => !used.has(a));
      const score = isTau(c)
        ? theta
        : fresh.length === 0
          ? Number.NEGATIVE_INFINITY
          : Math.max(...fresh.map((a) => rules.score(a)));
      const freq = isTau(c) ? -1 : rules.frequency(acts);
      if (!best || score > best.score || (score === best.score && freq > best.freq)) {
        best = { steps: isTau(c) ? [] : walk(c, used).steps, score, freq, i };
      }
    });
    return best ? { steps: best.steps, score: best.score } : { steps: [], score: Number.NEGATIVE_INFINITY };
  };

  const loop = (body: ProcessTree, used: ReadonlySet<string>): { steps: PlannedStep[]; score: number } => {
    if (isLeaf(body)) return { steps: [{ tool: body.label, many: true }], score: rules.score(body.label) };
    const seen = new Set(used);
    const steps: PlannedStep[] = [];
    let first = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < maxLoop; k++) {
      const next = walk(body, seen);
      const fresh = next.steps.filter((s) => !seen.has(s.tool));
      if (fresh.length === 0 || (k > 0 && next.score < theta)) break;
      if (k === 0) first = next.score;
      steps.push(...next.steps);
      for (const s of next.steps) seen.add(s.tool);
    }
    return { steps, score: first };
  };

  return walk(tree, new Set()).steps;
}

function combine(parts: ReadonlyArray<{ steps: PlannedStep[]; score: number }>): {
  steps: PlannedStep[];
  score: number;
} {
  return {
    steps: parts.flatMap((p) => p.steps),
    score: Math.max(Number.NEGATIVE_INFINITY, ...parts.map((p) => p.score)),
  };
}

/** `frequency` and `position` of PlanRules, learned from the D_opt records' tool-call logs. */
export function logStatistics(records: readonly TaskRecord[]): Pick<PlanRules, 'frequency' | 'position'> {
  const traces = records.map((r) => r.calls.map((c) => c.tool));
  return {
    frequency: (acts) => traces.filter((t) => t.some((a) => acts.has(a))).length,
    position: (acts) => {
      let sum = 0;
      let n = 0;
      for (const t of traces) {
        t.forEach((a, i) => {
          if (!acts.has(a)) return;
          sum += t.length > 1 ? i / (t.length - 1) : 0.5;
          n++;
        });
      }
      return n > 0 ? sum / n : undefined;
    },
  };
}
