import { routeTableLines } from '../../graph/route-table.js';
import type { Edge, Guard, ToolNode, WorkflowNode } from '../../graph/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { TaskRecord } from '../../records/schema.js';
import { firstSentence } from './tasks.js';

/**
 * Routes: the recurring variants of a log as branches of G0 (docs/DESIGN.md, "Mining": routes).
 *
 * A log of tool-using runs is often a mixture of tasks: each TRAJECT-Bench domain is the union of
 * 27–40 API chains, and an agent's own logs mix whatever its users asked. One skeleton over the
 * mixture has generic positions (a position where the runs used 23 different tools), so the skeleton
 * says little about which tools a request needs. A variant (the runs that made exactly the same
 * sequence of tool calls) is the mixture's unit: when a new request is like the requests of a
 * variant, the variant's sequence is the workflow for it.
 *
 * So G0 gets a router in front: a `judge` LLM node (`route`) whose JSON answer `route` names a
 * variant (`route_1`, …) or `other`. Each variant is a branch of positions bound to its tools in its
 * order, entered by a guarded edge (`route eq 'route_k'`); `other` enters the mined skeleton. The
 * router's prompt lists every route with its tool sequence and the past requests that made it; a
 * model picks the route whose requests are like this one, and the offline policy picks the route
 * whose past requests share the most words with it, or `other` when none shares enough
 * (policies/offline/llm-rules.ts). Positions on different routes never compete for the request's
 * parts (the hand-off looks only at positions that can run together: policies/hand-off.ts).
 */

/** The runs that made one sequence of tool calls, and what they were asked. */
export interface RouteVariant {
  /** The tools called, in order. */
  tools: string[];
  /** The requests of the runs, in log order. */
  requests: string[];
}

export interface RouteOptions {
  /** At most this many routes, the most frequent variants first (default 48). */
  maxRoutes?: number;
  /** At most this many past requests listed per route (default 4). */
  maxExamples?: number;
}

/** The router's answer field, and the value for a request no route fits. */
export const ROUTE_FIELD = 'route';
export const OTHER_ROUTE = 'other';

/** The records' variants (records without calls, and variants calling a tool outside T, are left out), most frequent first. */
export function recordVariants(records: readonly TaskRecord[], descriptors: ReadonlyMap<string, ToolDescriptor>, opts: RouteOptions = {}): RouteVariant[] {
  const byKey = new Map<string, RouteVariant>();
  for (const r of records) {
    const tools = r.calls.map((c) => c.tool);
    if (tools.length === 0 || tools.some((t) => !descriptors.has(t))) continue;
    const key = tools.join('\u0000');
    const v = byKey.get(key) ?? { tools, requests: [] };
    byKey.set(key, v);
    v.requests.push(r.query);
  }
  // Stable: most runs first, then first seen.
  return [...byKey.values()]
    .map((v, i) => ({ v, i }))
    .sort((a, b) => b.v.requests.length - a.v.requests.length || a.i - b.i)
    .slice(0, opts.maxRoutes ?? 48)
    .map(({ v }) => v);
}

/** The router prompt: the request, then every route with its tool sequence and past requests. */
export function routerPrompt(variants: readonly RouteVariant[], maxExamples: number): string {
  const lines = [
    'Choose the route for this request: the route whose past requests ask for the same kind of lookups, in the same order.',
    `Answer "${OTHER_ROUTE}" when no route's past requests are like this request; the general steps then handle it.`,
    '',
    'Request: {{query}}',
    '',
    'Routes:',
  ];
  lines.push(...routeTableLines(variants.map((v, i) => ({ value: routeId(i), tools: v.tools, requests: v.requests.slice(0, maxExamples) }))));
  lines.push(`- ${OTHER_ROUTE}: none of the routes above.`, '', `Reply with a JSON object and nothing else: {"${ROUTE_FIELD}": "<one of ${variants.map((_, i) => routeId(i)).join(', ')}, ${OTHER_ROUTE}>"}.`);
  return lines.join('\n');
}

export function routeId(i: number): string {
  return `route_${i + 1}`;
}

const when = (value: string): Guard => ({ kind: 'field', field: ROUTE_FIELD, op: 'eq', value });

/**
 * Puts a router in front of the mined skeleton (`nodes`, `edges` as build-graph.ts made them, from
 * `plan` to `synthesize`): `plan` → `route`; one branch of bound positions per variant; `other` →
 * the skeleton. The skeleton's edges from `plan` are replaced: a node whose only way in was `plan`
 * is entered from the router under `other`, and the others keep their other in-edges (an unguarded
 * edge from `plan` would run them on every route).
 */
export function addRoutes(
  graph: { nodes: WorkflowNode[]; edges: Edge[] },
  variants: readonly RouteVariant[],
  descriptors: ReadonlyMap<string, ToolDescriptor>,
  opts: RouteOptions = {},
): { nodes: WorkflowNode[]; edges: Edge[] } {
  if (variants.length === 0) return graph;
  const router: WorkflowNode = {
    id: 'route',
    kind: 'llm',
    role: 'judge',
    prompt: routerPrompt(variants, opts.maxExamples ?? 4),
    output: {
      type: 'json',
      schema: {
        type: 'object',
        properties: {
          [ROUTE_FIELD]: { type: 'string', enum: [...variants.map((_, i) => routeId(i)), OTHER_ROUTE], description: 'the route whose past requests are like this request, or "other"' },
        },
        required: [ROUTE_FIELD],
      },
    },
  };
  const fromPlan = graph.edges.filter((e) => e.from === 'plan');
  const kept = graph.edges.filter((e) => e.from !== 'plan');
  const edges: Edge[] = [{ from: 'plan', to: 'route', kind: 'data' }];
  for (const e of fromPlan) {
    const otherWayIn = kept.some((x) => x.to === e.to);
    if (!otherWayIn) edges.push({ from: 'route', to: e.to, kind: 'data', when: when(OTHER_ROUTE) });
  }
  edges.push(...kept);
  const nodes: WorkflowNode[] = [graph.nodes[0]!, router];
  variants.forEach((v, i) => {
    const id = routeId(i);
    let prev: string | undefined;
    v.tools.forEach((tool, k) => {
      const what = firstSentence(descriptors.get(tool)?.description ?? '', 160);
      const node: ToolNode = { id: `${id}_step_${k + 1}`, kind: 'tool', task: `Route ${i + 1}, step ${k + 1}: ${what || `call ${tool}`}`, tools: [tool] };
      nodes.push(node);
      edges.push(prev ? { from: prev, to: node.id, kind: 'data' } : { from: 'route', to: node.id, kind: 'data', when: when(id) });
      edges.push({ from: node.id, to: 'synthesize', kind: 'data' });
      prev = node.id;
    });
  });
  nodes.push(...graph.nodes.slice(1));
  return { nodes, edges };
}
