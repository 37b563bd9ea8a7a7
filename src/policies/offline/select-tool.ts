import { adjacency, topologicalOrder } from '../../graph/graph-utils.js';
import type { ToolNode, Workflow } from '../../graph/schema.js';
import type { ToolDescriptor } from '../../tools/types.js';
import type { CueModel } from './cue-model.js';
import { requestClauses } from './text.js';
import type { ToolIndex } from './tool-index.js';

/**
 * Which tool a tool node calls under the offline policy (DESIGN.md, "Offline policy"). The score of
 * a candidate adds up, each part normalised to [0, 1]:
 * - BM25 of the node's task plus the query clause at the node's position (the k-th tool node in
 *   topological order reads the k-th request clause of "first …, then …, finally …", see
 *   `requestClauses`), weight 1;
 * - BM25 of the whole query, weight 0.5;
 * - the node's `mined` tools, a soft prior, weight 0.3;
 * - learned from the records: how often the tool followed the tool called just before (or opened a
 *   log), weight 0.6, and how often it was used at all, weight 0.2.
 * Ties go to the candidate listed first.
 */

export interface SelectionInput {
  node: ToolNode;
  workflow: Workflow;
  query: string;
  candidates: readonly ToolDescriptor[];
  /** The tool called most recently upstream (undefined at the start). */
  previousTool: string | undefined;
}

/** The node's index among the workflow's tool nodes in topological order, and their number. */
export function toolPosition(workflow: Workflow, nodeId: string): { index: number; count: number } {
  const order = topologicalOrder(adjacency(workflow)) ?? workflow.nodes.map((n) => n.id);
  const kinds = new Map(workflow.nodes.map((n) => [n.id, n.kind]));
  const toolIds = order.filter((id) => kinds.get(id) === 'tool');
  return { index: Math.max(0, toolIds.indexOf(nodeId)), count: toolIds.length };
}

/** The query clause meant for the node's position (the k-th request clause, or the proportional one when the counts differ). */
export function clauseFor(query: string, workflow: Workflow, nodeId: string): string | undefined {
  const { index, count } = toolPosition(workflow, nodeId);
  const clauses = requestClauses(query, count);
  if (count <= 1 || clauses.length < 2) return undefined;
  // Same position when the counts agree, else the proportional position (as the learning side aligns).
  return clauses[clauses.length === count ? index : Math.round((index * (clauses.length - 1)) / (count - 1))];
}

/** Weight of how often the records used a tool (breaks ties between near-duplicate APIs). */
const POPULARITY = 0.2;

function normalise(list: Array<{ name: string; score: number }>): Map<string, number> {
  const max = Math.max(0, ...list.map((x) => x.score));
  return new Map(list.map((x) => [x.name, max > 0 ? x.score / max : 0]));
}

/** Candidates ranked by score, best first. */
export function rankTools(input: SelectionInput, index: ToolIndex, model: CueModel): Array<{ name: string; score: number }> {
  const names = input.candidates.map((c) => c.name);
  if (names.length <= 1) return names.map((name) => ({ name, score: 1 }));
  const clause = clauseFor(input.query, input.workflow, input.node.id);
  const focused = normalise(index.rank(`${input.node.task} ${clause ?? ''}`, names));
  const whole = normalise(index.rank(input.query, names));
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
      0.5 * (whole.get(name) ?? 0) +
      (mined.has(name) ? 0.3 : 0) +
      (followTotal > 0 ? (0.6 * (follows.get(name) ?? 0)) / followTotal : 0) +
      (maxUses > 0 ? (POPULARITY * (model.tools.get(name)?.uses ?? 0)) / maxUses : 0),
  }));
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.map(({ name, score }) => ({ name, score }));
}

/** Spans of the query clauses that speak about `tool` at this node: the node's positional clause and the clause where the tool ranks best. */
export function focusSpans(query: string, workflow: Workflow, nodeId: string, tool: string, candidates: readonly string[], index: ToolIndex): Array<[number, number]> {
  const clauses = requestClauses(query, toolPosition(workflow, nodeId).count);
  if (clauses.length < 2) return [];
  const chosen = new Set<string>();
  const positional = clauseFor(query, workflow, nodeId);
  if (positional) chosen.add(positional);
  let best: { clause: string; share: number } | undefined;
  for (const clause of clauses) {
    const ranked = index.rank(clause, candidates);
    const top = ranked[0]?.score ?? 0;
    const mine = ranked.find((r) => r.name === tool)?.score ?? 0;
    const share = top > 0 ? mine / top : 0;
    if (share > 0 && (!best || share > best.share)) best = { clause, share };
  }
  if (best) chosen.add(best.clause);
  const spans: Array<[number, number]> = [];
  for (const c of chosen) {
    const at = query.indexOf(c);
    if (at >= 0) spans.push([at, at + c.length]);
  }
  return spans;
}
