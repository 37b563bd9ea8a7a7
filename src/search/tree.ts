import type { EditPlan } from '../graph/edits/edit-schema.js';
import { withTaskParts } from '../graph/neutral-tasks.js';
import type { Workflow } from '../graph/schema.js';
import type { CandidateRow } from '../store/types.js';
import type { Feedback } from '../evaluate/feedback-types.js';

/**
 * The search tree (docs/DESIGN.md, "Search"): every candidate of a run with its statistics. A candidate
 * is a tree node: the workflow, its parent, the edit plan that made it, its D_opt reward and
 * feedback (cached for its own expansion), its D_val score (for picking the best only), and the MCTS
 * statistics C (visits), W (total reward) and Q = W / C.
 *
 * Failed candidates (no valid plan, an invalid workflow, a crash) keep their error, reward 0 and no
 * D_val score; duplicates (a workflow equal, by canonical hash, to an earlier candidate) keep a
 * pointer to it and reuse its scores and feedback. Neither is ever expanded.
 */

/** One candidate (a search-tree node); see the module comment. */
export interface Candidate extends Omit<CandidateRow, 'workflow' | 'plan' | 'feedback'> {
  children: string[];
  workflow?: Workflow;
  plan?: EditPlan;
  feedback?: Feedback;
}

/**
 * Every edit between G0 and a candidate, each with the candidate it made: `G0 → c1 (hints: …) → c4
 * (calls one …)`; `G0` for the root. A candidate's own summary names only its last edit.
 */
export function describeEditPath(tree: SearchTree, id: string): string {
  return ['G0', ...tree.pathTo(id).map((c) => `${c.id} (${c.summary ?? 'no summary'})`)].join(' → ');
}

/** The stateful tree: candidates by id, in creation order. */
export class SearchTree {
  readonly nodes = new Map<string, Candidate>();
  private readonly byHash = new Map<string, string>();

  get root(): Candidate {
    const first = this.nodes.values().next().value;
    if (!first) throw new Error('the search tree has no root yet');
    return first;
  }

  get size(): number {
    return this.nodes.size;
  }

  /** The next candidate id: c0 for the root, then c1, c2, … in creation order. */
  nextId(): string {
    return `c${this.nodes.size}`;
  }

  add(c: Candidate): Candidate {
    if (this.nodes.has(c.id)) throw new Error(`candidate '${c.id}' exists`);
    this.nodes.set(c.id, c);
    if (c.parent !== null) this.get(c.parent).children.push(c.id);
    if (c.hash && !c.duplicateOf && !c.error && !this.byHash.has(c.hash)) this.byHash.set(c.hash, c.id);
    return c;
  }

  get(id: string): Candidate {
    const c = this.nodes.get(id);
    if (!c) throw new Error(`no candidate '${id}'`);
    return c;
  }

  /** The evaluated candidate with this workflow hash, if any. */
  byWorkflowHash(hash: string): Candidate | undefined {
    const id = this.byHash.get(hash);
    return id ? this.get(id) : undefined;
  }

  /** Whether a candidate may be expanded (it has a workflow and its own evaluation). */
  expandable(id: string): boolean {
    const c = this.get(id);
    return Boolean(c.workflow && c.feedback && !c.error && !c.duplicateOf);
  }

  /** The candidates from the root's child down to `id` (empty for the root): one edit plan each, in the order applied. */
  pathTo(id: string): Candidate[] {
    const path: Candidate[] = [];
    for (let c = this.get(id); c.parent !== null; c = this.get(c.parent)) path.unshift(c);
    return path;
  }

  /** The candidate with the highest D_val score (ties: created first). */
  best(): Candidate {
    let best = this.root;
    for (const c of this.nodes.values()) {
      if (c.valScore !== undefined && (best.valScore === undefined || c.valScore > best.valScore)) best = c;
    }
    return best;
  }

  /** Rebuilds a tree from stored rows (a resumed run). */
  static fromRows(rows: readonly CandidateRow[]): SearchTree {
    const tree = new SearchTree();
    for (const r of [...rows].sort((a, b) => a.seq - b.seq)) tree.add(fromRow(r));
    return tree;
  }
}

/** A candidate as a store row. */
export function toRow(c: Candidate): CandidateRow {
  const { children: _children, ...rest } = c;
  return rest as CandidateRow;
}

function fromRow(r: CandidateRow): Candidate {
  return {
    ...(r as Omit<CandidateRow, 'workflow' | 'plan' | 'feedback'>),
    children: [],
    // A run stored before tool steps carried `taskPart` gets it, as a workflow file does when read.
    ...(r.workflow ? { workflow: withTaskParts(r.workflow as Workflow) } : {}),
    ...(r.plan ? { plan: r.plan as EditPlan } : {}),
    ...(r.feedback ? { feedback: r.feedback as Feedback } : {}),
  } as Candidate;
}
