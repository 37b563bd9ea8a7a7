import { prepareWorkflow, type PreparedWorkflow } from '../graph/prepare.js';
import type { ToolNode, Workflow, WorkflowNode } from '../graph/schema.js';
import { foldProcessTree } from '../mining/process-tree/fold.js';
import { OTHER_ROUTE, ROUTE_FIELD } from '../mining/to-workflow/routes.js';
import { TAU, type ProcessTree } from '../mining/process-tree/schema.js';
import { and, equals, intersects, isEmpty, or, runConditions, type Scenarios } from './run-conditions.js';

export interface WorkflowTreeOptions {
  /** The activities a tool node that names no tools (no `tools`, no `mined`) may call: any of these. */
  anyTool?: readonly string[];
  /** Only the runs in which the router answers this route (`route eq <value>`): the tree of one route. */
  route?: string;
}

/** The routes of a routed workflow: the values its router's `route eq …` guards test, `other` left out. */
export function workflowRoutes(workflow: Workflow): string[] {
  const values = new Set<string>();
  for (const e of workflow.edges) {
    const g = e.when;
    if (g?.kind === 'field' && g.field === ROUTE_FIELD && g.op === 'eq' && typeof g.value === 'string')
      if (g.value !== OTHER_ROUTE) values.add(g.value);
  }
  return [...values];
}

/**
 * The process tree of a workflow, read from its graph (docs/guides/conformance.md, "How a workflow
 * becomes a tree"), so that runs can be aligned with any workflow — a mined G0, a routed one, one the
 * search edited:
 *
 * - a tool node is a choice among its tools (`tools`, else the `mined` tools seen there, else
 *   `anyTool`); `calls: 'many'` makes it a loop that may make no call (`*( tau, X(…) )`), a retry a
 *   loop of one or more calls (`*( X(…), tau )`); an LLM node is silent;
 * - nodes that never run in the same run (the branches of a judge, of a status guard) are an
 *   exclusive choice, with `tau` beside them when a run may take none (an optional branch);
 * - nodes in order along the edges are a sequence; nodes that run in the same run with no path
 *   between them (unguarded fan-out) are parallel.
 *
 * The graph is split recursively: first into what runs in different runs, then into a sequence of
 * groups (nodes with no path between them stay together), then into parallel parts. A part that
 * splits none of these ways (an "N": a before c, b before c and d) is read as its first nodes, in
 * parallel, before the rest, which keeps every run of the graph but one order of such a pattern.
 */
export function workflowProcessTree(workflow: unknown, opts: WorkflowTreeOptions = {}): ProcessTree {
  const prepared = prepareWorkflow(workflow);
  const conditions = runConditions(prepared);
  const reach = reachability(prepared);
  const convert = (ids: string[], ctx: Scenarios): ProcessTree => {
    const nodes = ids.filter((id) => intersects(conditions.runs.get(id)!, ctx));
    if (nodes.length === 0) return TAU;
    let any = new Uint32Array(ctx.length) as Scenarios;
    for (const id of nodes) any = or(any, and(conditions.runs.get(id)!, ctx));
    if (!equals(any, ctx)) return { op: 'xor', children: [convert(nodes, any), TAU] };
    const exclusive = components(nodes, (a, b) =>
      intersects(and(conditions.runs.get(a)!, conditions.runs.get(b)!), ctx),
    );
    if (exclusive.length > 1) {
      return {
        op: 'xor',
        children: exclusive.map((part) => {
          let when = new Uint32Array(ctx.length) as Scenarios;
          for (const id of part) when = or(when, and(conditions.runs.get(id)!, ctx));
          return convert(part, when);
        }),
      };
    }
    if (nodes.length === 1) return nodeTree(prepared.node(nodes[0]!), opts);
    const ordered = (a: string, b: string) => reach.get(a)!.has(b) || reach.get(b)!.has(a);
    const groups = components(nodes, (a, b) => !ordered(a, b));
    if (groups.length > 1) {
      groups.sort((x, y) => (reach.get(x[0]!)!.has(y[0]!) ? -1 : 1));
      return { op: 'seq', children: groups.map((g) => convert(g, ctx)) };
    }
    const parallel = components(nodes, ordered);
    if (parallel.length > 1) return { op: 'and', children: parallel.map((p) => convert(p, ctx)) };
    const first = nodes.filter((id) => !nodes.some((o) => o !== id && reach.get(o)!.has(id)));
    const rest = nodes.filter((id) => !first.includes(id));
    return { op: 'seq', children: [convert(first, ctx), convert(rest, ctx)] };
  };
  const root = opts.route === undefined ? conditions.all : conditions.where(ROUTE_FIELD, opts.route);
  return foldProcessTree(convert([...prepared.order], root));
}

/** The activities of one node: a choice among a tool node's tools, repeated as its `calls` and `retry` say. */
function nodeTree(node: WorkflowNode, opts: WorkflowTreeOptions): ProcessTree {
  if (node.kind !== 'tool') return TAU;
  const tools = toolsOf(node, opts);
  const choice: ProcessTree =
    tools.length === 0
      ? TAU
      : tools.length === 1
        ? { label: tools[0]! }
        : { op: 'xor', children: tools.map((label) => ({ label })) };
  if (node.calls === 'many') return { op: 'loop', children: [TAU, choice] };
  if (node.optional) return { op: 'xor', children: [TAU, choice] };
  if (node.retry && node.retry.attempts > 1) return { op: 'loop', children: [choice, TAU] };
  return choice;
}

function toolsOf(node: ToolNode, opts: WorkflowTreeOptions): string[] {
  const named = node.tools?.length ? node.tools : node.mined?.length ? node.mined : (opts.anyTool ?? []);
  return [...new Set(named)];
}

/** For each node, the nodes reachable from it along edges (itself excluded). */
function reachability(prepared: PreparedWorkflow): Map<string, Set<string>> {
  const reach = new Map<string, Set<string>>();
  for (let i = prepared.order.length - 1; i >= 0; i--) {
    const id = prepared.order[i]!;
    const set = new Set<string>();
    for (const e of prepared.adjacency.out.get(id)!) {
      set.add(e.to);
      for (const r of reach.get(e.to)!) set.add(r);
    }
    reach.set(id, set);
  }
  return reach;
}

/** Connected components of `ids` under `linked`, each in the order of `ids`, ordered by their first member. */
function components(ids: string[], linked: (a: string, b: string) => boolean): string[][] {
  const part = new Map<string, number>();
  const out: string[][] = [];
  for (const id of ids) {
    if (part.has(id)) continue;
    const members = [id];
    part.set(id, out.length);
    for (let k = 0; k < members.length; k++) {
      for (const other of ids) {
        if (!part.has(other) && linked(members[k]!, other)) {
          part.set(other, out.length);
          members.push(other);
        }
      }
    }
    out.push(ids.filter((x) => part.get(x) === out.length));
  }
  return out;
}
