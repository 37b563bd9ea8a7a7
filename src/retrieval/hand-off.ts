import { createHash } from 'node:crypto';
import { adjacency, entryIds, reachable, topologicalOrder } from '../graph/graph-utils.js';
import type { ToolNode, Workflow } from '../graph/schema.js';
import { alignInOrder } from '../util/in-order-alignment.js';
import { remember } from '../util/remember.js';
import { MAX_REQUEST_PARTS, requestClauses } from '../text/clauses.js';
import type { ToolIndex } from './tool-index.js';

/**
 * The plan-to-position hand-off (docs/DESIGN.md, "Policies": a tool position serves the part of the
 * request that the preceding plan decomposed for it): which parts of the request each tool
 * position of a workflow serves. Shared by the offline policy, which calls a tool for its parts,
 * and the LLM policy, whose tool-plan prompt names them.
 *
 * The request's parts are its clauses in order (`requestClauses`: "first …, then …, finally …").
 * The tool positions are the workflow's tool nodes in topological order (ties by id), less those on
 * another branch of an exclusive choice than the asking node (a router's routes: `toolPositions`),
 * since those never run in the same execution. Parts go to
 * positions in order (a later part never goes to an earlier position), each position takes at most
 * one part except a `calls: 'many'` position that is the last one or has tool lists (below), which
 * takes any number (one call per part: a repeated step; a position without lists has no evidence
 * that several parts belong to it), and among those assignments the hand-off takes the one that
 *   1. reads the most parts (a part no position reads is a lookup nobody makes), then
 *   2. fits best: a part's fit to a position is how well the position's own tools (the `mined`
 *      tools seen there and a `tools` hint of several tools) answer the part, as a share of how
 *      well the best tool of the whole tool set does (BM25 over tool names, descriptions and the
 *      clauses past runs used each tool for), a little less the more tools it lists
 *      (`BREADTH_DISCOUNT`: a catch-all step fits everything); a position without such lists — a
 *      generic one, or one bound to a single tool — fits every part at `GENERIC_FIT`. (Fitting a
 *      bound position by its tool raised the D_val TC of G0 with routes, mean over the bundled
 *      domains and seeds 0-2, from 0.417 to 0.423, but lowered the PM4Py-style baseline's on Travel
 *      from 0.236 to 0.223, so it is not done);
 *   3. on ties, keeps parts nearest their own ordinal (the k-th part at the k-th position).
 * So a position whose tools fit a later part is not handed an earlier part it cannot serve, a
 * position that fits no part is left without one (it makes no call), and when a request has more
 * parts than positions, a repeating last position takes the rest. Where every fit is equal (generic
 * or bound positions, as in the baselines' linear workflows and G0's routes) this is the plain order:
 * the k-th part at the k-th position, the rest to a repeating last position.
 *
 * A decision depends on the query and on the layout of every tool position (ids, order, `calls`,
 * tool lists, tasks): `handOffScope` is that dependency, for the policies' memo scopes.
 */

/** Fit of any part to a position without tool lists. */
export const GENERIC_FIT = 0.5;

/**
 * How much a position's fit falls with the number of tools it lists (divided by 1 + this × ln k for k
 * tools): a step that lists many tools fits a part a little less than one whose few tools fit it as
 * well, so a catch-all step does not take the parts the steps before it were mined for. Decided on
 * D_val over seven domains (docs/guides/benchmarks.md, History): 0.1; 0.05 and 0.2 gave less.
 */
export const BREADTH_DISCOUNT = 0.1;

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

/**
 * The tool nodes of a workflow in topological order (ties by id). With `nodeId`, only the positions
 * that can run in the same execution as that node: a position on another branch of an exclusive
 * choice (see `exclusiveBranches`) never competes with it for the request's parts.
 */
export function toolPositions(workflow: Workflow, nodeId?: string): ToolNode[] {
  const layout = layoutOf(workflow);
  if (nodeId === undefined) return layout.all;
  let group = layout.groups.get(nodeId);
  if (!group) {
    const branches = exclusiveBranches(workflow);
    const mine = branches.get(nodeId);
    group = !mine
      ? layout.all
      : layout.all.filter((p) => {
          const theirs = branches.get(p.id);
          return !theirs || [...mine].every(([choice, value]) => !theirs.has(choice) || theirs.get(choice) === value);
        });
    layout.groups.set(nodeId, group);
  }
  return group;
}

/** What the hand-off reads of a workflow, computed once per workflow object (a run asks for it at every tool node). */
interface Layout {
  all: ToolNode[];
  /** Short hash of every position's layout (ids, order, calls, tool lists, tasks). */
  hash: string;
  groups: Map<string, ToolNode[]>;
  scopes: Map<string, string>;
  /** `exclusiveBranches`, once asked for. */
  branches?: Map<string, Map<string, string>>;
}

function layoutHash(positions: readonly ToolNode[]): string {
  const rows = positions.map((p) => [p.id, p.calls ?? 'one', p.tools ?? null, p.mined ?? null, p.task]);
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16);
}

const layoutCache = new WeakMap<Workflow, Layout>();

function layoutOf(workflow: Workflow): Layout {
  const hit = layoutCache.get(workflow);
  if (hit) return hit;
  const order = topologicalOrder(adjacency(workflow)) ?? workflow.nodes.map((n) => n.id);
  const byId = new Map(workflow.nodes.map((n) => [n.id, n]));
  const all = order.map((id) => byId.get(id)).filter((n): n is ToolNode => n?.kind === 'tool');
  const layout: Layout = { all, hash: layoutHash(all), groups: new Map(), scopes: new Map() };
  layoutCache.set(workflow, layout);
  return layout;
}

/**
 * The exclusive choices a node lies on: for every node, the (choice, value) pairs whose edge it
 * cannot run without. A choice is a node's set of out-edges guarded by `eq` on one field (a router:
 * `route eq 'r1'`, `route eq 'r2'`, …); a node depends on a value when it is unreachable from the
 * entry once the edges of that value are removed. Two nodes that depend on different values of one choice never
 * run in the same execution. Judge gates (`truthy` / `falsy`) are not choices here: a gated position
 * and the positions after it do run together.
 */
export function exclusiveBranches(workflow: Workflow): Map<string, Map<string, string>> {
  const layout = layoutOf(workflow);
  return (layout.branches ??= branchesOf(workflow));
}

function branchesOf(workflow: Workflow): Map<string, Map<string, string>> {
  const adj = adjacency(workflow);
  const entries = entryIds(adj);
  const out = new Map<string, Map<string, string>>();
  const choices = new Map<string, typeof workflow.edges>();
  for (const e of workflow.edges) {
    if (e.when?.kind !== 'field' || e.when.op !== 'eq') continue;
    const key = `${e.from}.${e.when.field}`;
    choices.set(key, [...(choices.get(key) ?? []), e]);
  }
  const valueOf = (e: (typeof workflow.edges)[number]) => JSON.stringify((e.when as { value?: unknown }).value);
  for (const [choice, edges] of choices) {
    const values = new Set(edges.map(valueOf));
    if (values.size < 2) continue;
    for (const value of values) {
      // Every edge of this value at once: a value may enter several nodes.
      const taken = new Set(edges.filter((e) => valueOf(e) === value));
      const without = adjacency({ nodes: workflow.nodes, edges: workflow.edges.filter((x) => !taken.has(x)) });
      const live = reachable(without, entries, 'forward');
      for (const id of adj.nodes.keys()) {
        if (live.has(id)) continue;
        const m = out.get(id) ?? new Map<string, string>();
        m.set(choice, value);
        out.set(id, m);
      }
    }
  }
  return out;
}

/**
 * What a hand-off decision reads of the workflow: the layout (a short hash) of the tool positions
 * that can run with the node (all of them, unless the workflow has exclusive choices) and the
 * node's ordinal among them.
 */
export function handOffScope(workflow: Workflow, node: ToolNode): string {
  const layout = layoutOf(workflow);
  let scope = layout.scopes.get(node.id);
  if (scope === undefined) {
    // Only the positions that can run with this node take part in its hand-off: an edit on another
    // route leaves this node's decisions (and their memo entries) as they were.
    const group = toolPositions(workflow, node.id);
    const hash = group === layout.all ? layout.hash : layoutHash(group);
    scope = `hand-off ${hash}, position ${group.findIndex((p) => p.id === node.id)}`;
    layout.scopes.set(node.id, scope);
  }
  return scope;
}

/**
 * Parts whose scores over all tools `indexFit` keeps (the parts of the requests in flight; a
 * hand-off fits each part of its request to every position). Without a bound it kept every part of
 * every request of a search, each with a score per tool (52 MiB by the second iteration of a
 * search on a 10,000-record log).
 */
export const PART_FIT_MEMO_SIZE = 256;

/** Every tool's score for one part of a request, and the best of them (0 when no tool matches). */
export interface PartScores {
  scores: ReadonlyMap<string, number>;
  top: number;
}

/**
 * A part's scores over `all` tools from a tool index, ranked once per part: the scores of the last
 * `memoSize` parts are kept (oldest dropped first); a ranking depends only on the part, so a dropped
 * part ranked again scores the same. The hand-off and the offline router read the same memo.
 */
export function partScores(
  index: ToolIndex,
  all: readonly string[],
  memoSize = PART_FIT_MEMO_SIZE,
): (part: string) => PartScores {
  const cache = new Map<string, PartScores>();
  return (part) =>
    remember(cache, part, memoSize, () => {
      const scores = new Map(index.rank(part, all).map((r) => [r.name, r.score]));
      return { scores, top: Math.max(0, ...scores.values()) };
    });
}

/**
 * A fit from a tool index: the best score among the position's listed tools as a share of the best
 * score among `all` tools, less a little for each tool the position lists (`BREADTH_DISCOUNT`; 0 when
 * the part matches no tool; `GENERIC_FIT` for a generic position).
 */
export function indexFit(index: ToolIndex, all: readonly string[], memoSize = PART_FIT_MEMO_SIZE): PartFit {
  return fitFromScores(partScores(index, all, memoSize));
}

/** `indexFit` over scores the caller also reads (`partScores`). */
export function fitFromScores(scoresOf: (part: string) => PartScores): PartFit {
  return (part, position) => {
    const listed = listedTools(position);
    if (listed.length === 0) return GENERIC_FIT;
    const { scores, top } = scoresOf(part);
    if (top <= 0) return 0;
    const share = Math.max(0, ...listed.map((t) => scores.get(t) ?? 0)) / top;
    return share / (1 + BREADTH_DISCOUNT * Math.log(listed.length));
  };
}

/** The tools that inform a position's fit: its `mined` tools and a `tools` hint of several tools. */
export function listedTools(position: ToolNode): string[] {
  const hinted = (position.tools ?? []).length > 1 ? position.tools! : [];
  return [...new Set([...hinted, ...(position.mined ?? [])])];
}

const TIE = 1e-3;

/**
 * The hand-off of `query` over the workflow's tool positions (see the module comment); with
 * `nodeId`, over the positions that can run together with that node (`toolPositions`).
 */
export function handOff(query: string, workflow: Workflow, fit: PartFit, nodeId?: string): HandOff {
  // Parts past MAX_REQUEST_PARTS are read by no position: the work per request stays linear in its length.
  const parts = requestClauses(query).slice(0, MAX_REQUEST_PARTS);
  const positions = toolPositions(workflow, nodeId);
  const m = parts.length;
  const n = positions.length;
  const byPosition = new Map<string, number[]>(positions.map((p) => [p.id, []]));
  if (m === 0 || n === 0) return { parts, positions, byPosition };
  const fits = parts.map((part) => positions.map((p) => fit(part, p)));
  // Several parts: a repeating last position, or a repeating position whose tool lists fit them.
  const many = positions.map((p, j) => p.calls === 'many' && (j === n - 1 || listedTools(p).length > 0));
  // Each part to at most one position, in order, each pair worth 1 + the fit; on ties a part stays
  // unread and a position is left rather than paired.
  const { pairs } = alignInOrder(m, n, (i, j) => 1 + fits[i]![j]! - TIE * Math.abs(i - j), {
    many: (j) => many[j]!,
    ties: 'late',
  });
  for (const [i, j] of pairs) byPosition.get(positions[j]!.id)!.push(i);
  return { parts, positions, byPosition };
}

/** The parts the position `nodeId` serves (none when it serves none or is not a tool position). */
export function partsFor(h: HandOff, nodeId: string): string[] {
  return (h.byPosition.get(nodeId) ?? []).map((k) => h.parts[k]!);
}
