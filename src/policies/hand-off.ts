import { createHash } from 'node:crypto';
import { adjacency, topologicalOrder } from '../graph/graph-utils.js';
import type { ToolNode, Workflow } from '../graph/schema.js';
import { requestClauses } from './offline/text.js';
import type { ToolIndex } from './offline/tool-index.js';

/**
 * The plan-to-position hand-off (docs/DESIGN.md, "Policies": a tool position serves the part of the
 * request that the preceding plan decomposed for it): which parts of the request each tool
 * position of a workflow serves. Shared by the offline policy, which calls a tool for its parts,
 * and the LLM policy, whose tool-plan prompt names them.
 *
 * The request's parts are its clauses in order (`requestClauses`: "first …, then …, finally …").
 * The tool positions are the workflow's tool nodes in topological order (ties by id). Parts go to
 * positions in order (a later part never goes to an earlier position), each position takes at most
 * one part except a `calls: 'many'` position that is the last one or has tool lists (below), which
 * takes any number (one call per part: a repeated step; a position without lists has no evidence
 * that several parts belong to it), and among those assignments the hand-off takes the one that
 *   1. reads the most parts (a part no position reads is a lookup nobody makes), then
 *   2. fits best: a part's fit to a position is how well the position's own tools (the `mined`
 *      tools seen there and a `tools` hint of several tools) answer the part, as a share of how
 *      well the best tool of the whole tool set does (BM25 over tool names, descriptions and the
 *      clauses past runs used each tool for); a position without such lists — a generic one, or one
 *      bound to a single tool, which has no choice to inform — fits every part at `GENERIC_FIT`;
 *   3. on ties, keeps parts nearest their own ordinal (the k-th part at the k-th position).
 * So a position whose tools fit a later part is not handed an earlier part it cannot serve, a
 * position that fits no part is left without one (it makes no call), and when a request has more
 * parts than positions, a repeating last position takes the rest. Where every fit is equal (generic
 * or bound positions, as in the baselines' linear workflows) this is the plain order: the k-th part
 * at the k-th position, the rest to a repeating last position.
 *
 * A decision depends on the query and on the layout of every tool position (ids, order, `calls`,
 * tool lists, tasks): `handOffScope` is that dependency, for the policies' memo scopes.
 */

/** Fit of any part to a position without tool lists. */
export const GENERIC_FIT = 0.5;

/** How a position's part fits, in [0, 1]. */
export type PartFit = (part: string, position: ToolNode) => number;

export interface HandOff {
  /** The request's parts. */
  parts: string[];
  /** The tool positions in order. */
  positions: ToolNode[];
  /** Part indices per position id (in order; empty: the position serves no part). */
  byPosition: Map<string, number[]>;
}

/** The tool nodes of a workflow in topological order (ties by id). */
export function toolPositions(workflow: Workflow): ToolNode[] {
  const order = topologicalOrder(adjacency(workflow)) ?? workflow.nodes.map((n) => n.id);
  const byId = new Map(workflow.nodes.map((n) => [n.id, n]));
  return order.map((id) => byId.get(id)).filter((n): n is ToolNode => n?.kind === 'tool');
}

/** What a hand-off decision reads of the workflow: every tool position's layout (a short hash) and the node's ordinal. */
export function handOffScope(workflow: Workflow, node: ToolNode): string {
  const positions = toolPositions(workflow);
  const layout = positions.map((p) => [p.id, p.calls ?? 'one', p.tools ?? null, p.mined ?? null, p.task]);
  const hash = createHash('sha256').update(JSON.stringify(layout)).digest('hex').slice(0, 16);
  return `hand-off ${hash}, position ${positions.findIndex((p) => p.id === node.id)}`;
}

/**
 * A fit from a tool index: the best score among the position's listed tools as a share of the best
 * score among `all` tools (0 when the part matches no tool; `GENERIC_FIT` for a generic position).
 */
export function indexFit(index: ToolIndex, all: readonly string[]): PartFit {
  const cache = new Map<string, Map<string, number>>();
  return (part, position) => {
    const listed = listedTools(position);
    if (listed.length === 0) return GENERIC_FIT;
    let scores = cache.get(part);
    if (!scores) {
      scores = new Map(index.rank(part, all).map((r) => [r.name, r.score]));
      cache.set(part, scores);
    }
    const top = Math.max(0, ...scores.values());
    if (top <= 0) return 0;
    return Math.max(0, ...listed.map((t) => scores!.get(t) ?? 0)) / top;
  };
}

/** The tools that inform a position's fit: its `mined` tools and a `tools` hint of several tools. */
export function listedTools(position: ToolNode): string[] {
  const hinted = (position.tools ?? []).length > 1 ? position.tools! : [];
  return [...new Set([...hinted, ...(position.mined ?? [])])];
}

const TIE = 1e-3;

/** The hand-off of `query` over the workflow's tool positions (see the module comment). */
export function handOff(query: string, workflow: Workflow, fit: PartFit): HandOff {
  const parts = requestClauses(query);
  const positions = toolPositions(workflow);
  const m = parts.length;
  const n = positions.length;
  const byPosition = new Map<string, number[]>(positions.map((p) => [p.id, []]));
  if (m === 0 || n === 0) return { parts, positions, byPosition };
  const fits = parts.map((part) => positions.map((p) => fit(part, p)));
  // Several parts: a repeating last position, or a repeating position whose tool lists fit them.
  const many = positions.map((p, j) => p.calls === 'many' && (j === n - 1 || listedTools(p).length > 0));
  // best[i][j][u]: best value for parts i.. with positions j.., u = 1 when position j already took a part.
  const best: number[][][] = Array.from({ length: m + 1 }, () => Array.from({ length: n + 1 }, () => [0, 0]));
  const choice: string[][][] = Array.from({ length: m + 1 }, () => Array.from({ length: n + 1 }, () => ['', '']));
  for (let i = m; i >= 0; i--) {
    for (let j = n; j >= 0; j--) {
      for (const u of [1, 0]) {
        if (i === m || j === n) {
          best[i]![j]![u] = 0;
          continue;
        }
        let value = best[i + 1]![j]![u]!; // part i unread
        let pick = 'skip';
        const next = best[i]![j + 1]![0]!; // move on to the next position
        if (next > value) [value, pick] = [next, 'next'];
        if (u === 0 || many[j]) {
          const take = 1 + fits[i]![j]! - TIE * Math.abs(i - j) + best[i + 1]![j]![1]!;
          if (take > value + 1e-12) [value, pick] = [take, 'take'];
        }
        best[i]![j]![u] = value;
        choice[i]![j]![u] = pick;
      }
    }
  }
  let i = 0;
  let j = 0;
  let u = 0;
  while (i < m && j < n) {
    const pick = choice[i]![j]![u]!;
    if (pick === 'take') {
      byPosition.get(positions[j]!.id)!.push(i);
      i++;
      u = 1;
    } else if (pick === 'next') {
      j++;
      u = 0;
    } else i++;
  }
  return { parts, positions, byPosition };
}

/** The parts the position `nodeId` serves (none when it serves none or is not a tool position). */
export function partsFor(h: HandOff, nodeId: string): string[] {
  return (h.byPosition.get(nodeId) ?? []).map((k) => h.parts[k]!);
}
