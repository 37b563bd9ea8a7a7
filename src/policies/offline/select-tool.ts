import { adjacency, topologicalOrder } from '../../graph/graph-utils.js';
import type { ToolNode, Workflow } from '../../graph/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { CueModel } from './cue-model.js';
import { requestClauses } from './text.js';
import type { ToolIndex } from './tool-index.js';

/**
 * Which part of the request a tool node serves, and which tool it calls for it, under the offline
 * policy (DESIGN.md, "Offline policy").
 *
 * **Parts.** The request's clauses ("first …, then …, finally …", `requestClauses`) are read in
 * order by the workflow's tool positions (topological order, ties by id): the k-th position reads
 * the k-th clause, the first one no earlier position was given, so every clause is read once while
 * there are positions for it. A position past the last clause has nothing left to look up. The last
 * position with `calls: 'many'` reads every clause still unread, one call per clause (a repeated
 * step, as ReAct takes one step per clause). What a decision reads of the layout — the position's
 * ordinal, and whether it is that last `many` position — is the policy's memo scope (`slotScope`).
 *
 * **Tools.** Scored per candidate, each part normalised to [0, 1]:
 * - BM25 of the clause, weight 1 (of the node's task and the whole request when it has no clause);
 * - BM25 of the node's task, weight 0.3 when there is a clause (a task names the tool a position
 *   was made for; the clause says what this request asks there);
 * - the sequence prior learned from D_opt: the share of the tool among the tools that followed the
 *   tool called just before (or opened a log), weight 0.6 — it decides between tools the clause fits
 *   about equally, and cannot overturn a clause preference larger than 0.6 of the top clause score
 *   (measured on D_val with the index learned from D_opt: top-1 accuracy per clause 0.83–0.89 by the
 *   clause alone, 0.89–0.94 with this prior; the whole request as a prior lowered it);
 * - the node's `mined` tools, weight 0.1, and how often the records used the tool, weight 0.1.
 * The whole request is not a prior when there is a clause: it pulls every position towards the
 * request's dominant tool.
 * Ties go to the candidate listed first.
 */

/** Where a tool node sits among the workflow's tool positions. */
export interface ToolSlot {
  /** Its ordinal among the tool nodes in topological order (0-based). */
  index: number;
  /** How many tool nodes the workflow has. */
  count: number;
  /** True for the last tool node. */
  last: boolean;
}

/** The node's slot (index 0 of 1 when it is not a tool node of the workflow). */
export function toolSlot(workflow: Workflow, nodeId: string): ToolSlot {
  const order = topologicalOrder(adjacency(workflow)) ?? workflow.nodes.map((n) => n.id);
  const kinds = new Map(workflow.nodes.map((n) => [n.id, n.kind]));
  const toolIds = order.filter((id) => kinds.get(id) === 'tool');
  const index = toolIds.indexOf(nodeId);
  if (index < 0) return { index: 0, count: 1, last: true };
  return { index, count: toolIds.length, last: index === toolIds.length - 1 };
}

/** True when the node reads every clause from its own on (the last position, `calls: 'many'`). */
function readsRest(node: ToolNode, slot: ToolSlot): boolean {
  return slot.last && node.calls === 'many';
}

/** What of the workflow's layout the policy's decision at `node` reads (its memo scope). */
export function slotScope(workflow: Workflow, node: ToolNode): string {
  const slot = toolSlot(workflow, node.id);
  return `tool position ${slot.index}${readsRest(node, slot) ? ' and the rest' : ''}`;
}

/**
 * The request clauses the node reads (see the module comment): its own, plus every later one for
 * the last `many` position; none when the request has fewer clauses than positions before it.
 */
export function slotClauses(query: string, workflow: Workflow, node: ToolNode): string[] {
  const slot = toolSlot(workflow, node.id);
  const clauses = requestClauses(query);
  if (slot.index >= clauses.length) return [];
  return readsRest(node, slot) ? clauses.slice(slot.index) : [clauses[slot.index]!];
}

export interface SelectionInput {
  node: ToolNode;
  query: string;
  /** The clause the node serves (undefined: the node's task and the whole request decide). */
  clause: string | undefined;
  candidates: readonly ToolDescriptor[];
  /** The tool called most recently upstream (undefined at the start). */
  previousTool: string | undefined;
}

/** The weights of the ranking (see the module comment). */
export const RANK_WEIGHTS = { task: 0.3, follows: 0.6, mined: 0.1, popularity: 0.1, wholeWithoutClause: 0.5 };

function normalise(list: ReadonlyArray<{ name: string; score: number }>): Map<string, number> {
  const max = Math.max(0, ...list.map((x) => x.score));
  return new Map(list.map((x) => [x.name, max > 0 ? x.score / max : 0]));
}

/** Candidates ranked by score, best first. */
export function rankTools(input: SelectionInput, index: ToolIndex, model: CueModel): Array<{ name: string; score: number }> {
  const names = input.candidates.map((c) => c.name);
  if (names.length <= 1) return names.map((name) => ({ name, score: 1 }));
  const w = RANK_WEIGHTS;
  const hasClause = input.clause !== undefined;
  const focused = normalise(index.rank(hasClause ? input.clause! : input.node.task, names));
  const task = hasClause ? normalise(index.rank(input.node.task, names)) : new Map<string, number>();
  const whole = hasClause ? new Map<string, number>() : normalise(index.rank(input.query, names));
  const mined = new Set(input.node.mined ?? []);
  const prevKey = input.previousTool ?? '^';
  const follows = new Map<string, number>();
  let followTotal = 0;
  for (const name of names) {
    const n = model.tools.get(name)?.previous.get(prevKey) ?? 0;
    follows.set(name, n);
    followTotal += n;
  }
  const maxUses = Math.max(0, ...names.map((n) => model.tools.get(n)?.uses ?? 0));
  const scored = names.map((name, i) => ({
    name,
    i,
    score:
      (focused.get(name) ?? 0) +
      w.task * (task.get(name) ?? 0) +
      w.wholeWithoutClause * (whole.get(name) ?? 0) +
      (mined.has(name) ? w.mined : 0) +
      (followTotal > 0 ? (w.follows * (follows.get(name) ?? 0)) / followTotal : 0) +
      (maxUses > 0 ? (w.popularity * (model.tools.get(name)?.uses ?? 0)) / maxUses : 0),
  }));
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.map(({ name, score }) => ({ name, score }));
}

/** Spans of the query clauses that speak about `tool` for this call: the call's clause and the clause where the tool ranks best. */
export function focusSpans(query: string, clause: string | undefined, tool: string, candidates: readonly string[], index: ToolIndex): Array<[number, number]> {
  const clauses = requestClauses(query);
  if (clauses.length < 2) return [];
  const chosen = new Set<string>();
  if (clause) chosen.add(clause);
  let best: { clause: string; share: number } | undefined;
  for (const c of clauses) {
    const ranked = index.rank(c, candidates);
    const top = ranked[0]?.score ?? 0;
    const mine = ranked.find((r) => r.name === tool)?.score ?? 0;
    const share = top > 0 ? mine / top : 0;
    if (share > 0 && (!best || share > best.share)) best = { clause: c, share };
  }
  if (best) chosen.add(best.clause);
  const spans: Array<[number, number]> = [];
  for (const c of chosen) {
    const at = query.indexOf(c);
    if (at >= 0) spans.push([at, at + c.length]);
  }
  return spans;
}
