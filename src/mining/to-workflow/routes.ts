import { REQUEST_LINE } from '../../graph/prompt-templates.js';
import type { ChoiceOption, Choices, Edge, Guard, ToolNode, WorkflowNode } from '../../graph/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { TaskRecord } from '../../records/schema.js';
import { eventLogFromTraces } from '../event-log/event-log.js';
import { discoverProcessTree } from '../inductive/discover.js';
import { compactSkeleton, medianCaseLength } from './compact.js';
import { fitLog } from './fit-log.js';
import { innerSkeletons, stepTools, treeToSkeleton, type Skeleton } from './skeleton.js';
import { firstSentence, toolsAbout } from './tasks.js';
import { knownWord, toolWords } from '../../dataflow/customers.js';
import { isStopWord } from '../../text/words.js';

/**
 * Routes: the recurring request types of a log as branches of G0 (docs/DESIGN.md, "Mining": routes).
 *
 * A log of tool-using runs is often a mixture of tasks: each TRAJECT-Bench domain is the union of
 * 27–40 API chains, and an agent's own logs mix whatever its users asked. One skeleton over the
 * mixture has generic steps, so the skeleton says little about which tools a request needs. A
 * variant (the runs that made exactly the same sequence of tool calls) is the mixture's unit, but
 * most variants of a real log are one run each: a route per variant memorizes the log. So variants
 * are grouped into families — a variant joins the family of a more frequent one when its tools are a
 * prefix of that one's (or the other way round) or when the two share most of their distinct tools —
 * and only a family with several runs (`minRuns`) becomes a route, at most `maxRoutes` of them, the
 * most runs first. Every other request goes to the mined skeleton.
 *
 * G0 gets a router in front: a `judge` LLM node (`route`) whose JSON answer `route` names a route
 * (`route_1`, …) or `other`. Each route is a small sub-skeleton of its family, mined by the same
 * inductive miner over the family's runs (`familySteps`; a step some runs skip may make no call),
 * entered by a guarded edge (`route eq 'route_k'`); `other` enters the
 * skeleton. The router's `choices` describe each route by its tool sequence, a description made from
 * its tools' descriptions and keywords that recur in its requests and set them apart from the other
 * requests (never a past request: a workflow carries no record text); its prompt shows them to a
 * model (`{{choices}}`, graph/node-prompt.ts), and the offline policy picks the route whose tools,
 * in order, answer the request's parts from the field itself (policies/offline/llm-rules.ts; the
 * keywords are for a model's router). Steps on different
 * routes never compete for the request's parts (policies/hand-off.ts).
 */

/** The runs that made one sequence of tool calls, and what they were asked. */
export interface RouteVariant {
  /** The tools called, in order. */
  tools: string[];
  /** The requests of the runs, in log order. */
  requests: string[];
  /** Words of the values the runs passed as arguments (a keyword is never one: it would be a record's data, not its request type). */
  argWords?: string[];
}

/** A family of variants: the route's tools (its most frequent variant's), and every member's requests. */
export interface RouteFamily {
  tools: string[];
  requests: string[];
  /** Words of the argument values of its runs (see `RouteVariant.argWords`). */
  argWords?: string[];
  /** How many variants were merged into it. */
  variants: number;
  /** Its sub-skeleton: per step, the tools its runs called there (most runs first); the last step also takes the steps beyond. */
  steps?: Array<{ tools: string[]; optional: boolean }>;
}

/**
 * A family's sub-skeleton, mined as G0's skeleton is: the inductive miner over the family's runs,
 * the tree's skeleton fitted to those runs and compacted to their median length (skeleton.ts, fit-log.ts,
 * compact.ts), read in order — parallel branches one after another — as steps, each with the tools
 * its runs called there (most calls first). A step some of the family's runs skip, or a repeated
 * one, may make no call.
 */
export function familySteps(
  members: ReadonlyArray<{ tools: readonly string[]; runs: number }>,
): Array<{ tools: string[]; optional: boolean }> {
  const traces = members.flatMap((m) => new Array<readonly string[]>(m.runs).fill(m.tools));
  const log = eventLogFromTraces(traces);
  let shape = fitLog(treeToSkeleton(discoverProcessTree(log), { choices: false }), log);
  // A route is one request type: its choices are steps that pick their tool (no branch inside a branch).
  shape = fitLog(compactSkeleton(shape, Math.max(1, medianCaseLength(log))), log);
  const steps: Array<{ tools: string[]; optional: boolean }> = [];
  const read = (seq: Skeleton, reach: number) => {
    for (const slot of seq) {
      if (slot.kind !== 'step') {
        // Parallel branches, or a choice's options (each then a step some runs skip), one after another.
        for (const b of innerSkeletons(slot)) read(b, reach * slot.support);
        continue;
      }
      const tools = stepTools(slot);
      if (tools.length > 0) steps.push({ tools, optional: reach * slot.support < 1 - 1e-9 || slot.many });
    }
  };
  read(shape, 1);
  return steps.length > 0 ? steps : [{ tools: [...new Set(members.flatMap((m) => m.tools))], optional: true }];
}

export interface RouteOptions {
  /** At most this many routes, the most runs first (default 8). */
  maxRoutes?: number;
  /** Runs a family needs to become a route (default: 3, or 5% of the records when that is more). */
  minRuns?: number;
  /** Keywords listed per route (default 8). */
  maxKeywords?: number;
}

/** The router's answer field, and the value for a request no route fits. */
export const ROUTE_FIELD = 'route';
export const OTHER_ROUTE = 'other';

/** The records' variants (records without calls, and variants calling a tool outside T, are left out), most frequent first. */
export function recordVariants(
  records: readonly TaskRecord[],
  descriptors: ReadonlyMap<string, ToolDescriptor>,
): RouteVariant[] {
  const byKey = new Map<string, RouteVariant>();
  for (const r of records) {
    const tools = r.calls.map((c) => c.tool);
    if (tools.length === 0 || tools.some((t) => !descriptors.has(t))) continue;
    const key = tools.join('\u0000');
    const v = byKey.get(key) ?? { tools, requests: [], argWords: [] };
    byKey.set(key, v);
    v.requests.push(r.query);
    for (const c of r.calls)
      v.argWords!.push(
        ...(JSON.stringify(Object.values(c.args ?? {}))
          .toLowerCase()
          .match(/[a-z][a-z-]*[a-z]/g) ?? []),
      );
  }
  // Stable: most runs first, then first seen.
  return [...byKey.values()]
    .map((v, i) => ({ v, i }))
    .sort((a, b) => b.v.requests.length - a.v.requests.length || a.i - b.i)
    .map(({ v }) => v);
}

const isPrefix = (a: readonly string[], b: readonly string[]) => a.length <= b.length && a.every((t, i) => b[i] === t);

/** True when two variants are one request type: one's tools a prefix of the other's, or most distinct tools shared. */
export function sameFamily(a: readonly string[], b: readonly string[]): boolean {
  if (isPrefix(a, b) || isPrefix(b, a)) return true;
  const sa = new Set(a);
  const sb = new Set(b);
  const shared = [...sa].filter((t) => sb.has(t)).length;
  return shared / (sa.size + sb.size - shared) >= 0.5;
}

/**
 * The recurring families of the variants (see the module comment): each variant joins the first
 * (most runs) family whose variants it is like, else starts one; families with at least `minRuns`
 * runs, the most runs first, at most `maxRoutes`.
 */
export function routeFamilies(variants: readonly RouteVariant[], opts: RouteOptions = {}): RouteFamily[] {
  const total = variants.reduce((n, v) => n + v.requests.length, 0);
  const minRuns = opts.minRuns ?? Math.max(3, Math.ceil(0.05 * total));
  const families: Array<RouteFamily & { members: Array<{ tools: string[]; runs: number }> }> = [];
  for (const v of variants) {
    const f = families.find((x) => sameFamily(x.tools, v.tools));
    if (f) {
      f.requests.push(...v.requests);
      f.argWords = [...(f.argWords ?? []), ...(v.argWords ?? [])];
      f.variants++;
      f.members.push({ tools: v.tools, runs: v.requests.length });
    } else
      families.push({
        tools: v.tools,
        requests: [...v.requests],
        argWords: [...(v.argWords ?? [])],
        variants: 1,
        members: [{ tools: v.tools, runs: v.requests.length }],
      });
  }
  for (const f of families) f.steps = familySteps(f.members);
  return families
    .filter((f) => f.requests.length >= minRuns)
    .sort((a, b) => b.requests.length - a.requests.length)
    .slice(0, opts.maxRoutes ?? 8);
}

/**
 * Words of a request that can be keywords: written in lower case (a capitalised word may be a name),
 * letters only, three or more, no stop word (the one list, text/read.ts), and a word of the
 * language or of the tools' texts (a name or a code written in lower case is neither: customers.ts).
 */
function keywordWords(text: string, tools: ReadonlySet<string>): Set<string> {
  return new Set(
    (text.match(/(?<![\w@.-])[a-z][a-z-]*[a-z](?![\w@-])/g) ?? []).filter(
      (w) => w.length >= 3 && !isStopWord(w) && w.split('-').every((part) => knownWord(part, tools)),
    ),
  );
}

/**
 * Keywords of each family: words in at least two of its requests and in a good share of them, the
 * most distinctive first (share in the family minus share in the other families' requests).
 */
export function familyKeywords(
  families: readonly RouteFamily[],
  maxKeywords = 8,
  tools: ReadonlySet<string> = new Set(),
): string[][] {
  // A word the runs passed as (part of) an argument value is data (a name, a code, a user's id), not a request type.
  const data = new Set(families.flatMap((f) => f.argWords ?? []));
  const docs = families.map((f) =>
    f.requests.map((q) => new Set([...keywordWords(q, tools)].filter((w) => !data.has(w)))),
  );
  const total = docs.reduce((n, d) => n + d.length, 0);
  return docs.map((mine, i) => {
    const df = new Map<string, number>();
    for (const d of mine) for (const w of d) df.set(w, (df.get(w) ?? 0) + 1);
    const rest = total - mine.length;
    const scored: Array<{ w: string; score: number }> = [];
    for (const [w, n] of df) {
      if (n < 2 || n < 0.25 * mine.length) continue;
      let elsewhere = 0;
      docs.forEach((d, j) => {
        if (j !== i) for (const x of d) if (x.has(w)) elsewhere++;
      });
      const score = n / mine.length - (rest > 0 ? elsewhere / rest : 0);
      if (score > 0.1) scored.push({ w, score });
    }
    return scored
      .sort((a, b) => b.score - a.score || a.w.localeCompare(b.w))
      .slice(0, maxKeywords)
      .map((x) => x.w);
  });
}

/** The router's choices: per route its value, tools, description and keywords; `other` when none fits. */
export function routeChoices(
  families: readonly RouteFamily[],
  descriptors: ReadonlyMap<string, ToolDescriptor>,
  maxKeywords?: number,
): Choices {
  const keywords = familyKeywords(families, maxKeywords, toolWords([...descriptors.values()]));
  const options = families.map((f, i): ChoiceOption => ({
    value: routeId(i),
    tools: f.tools,
    about: toolsAbout(f.tools, descriptors),
    ...(keywords[i]!.length > 0 ? { asks: keywords[i]! } : {}),
  }));
  return { field: ROUTE_FIELD, options, otherwise: OTHER_ROUTE };
}

/** The router prompt: the request, then every route (`{{choices}}`: its tool sequence, description and keywords). */
export const ROUTER_PROMPT = [
  'Choose the route for this request: the route whose steps do what the request asks, in the same order; its keywords are words its requests typically use.',
  `Answer "${OTHER_ROUTE}" when no route fits this request; the general steps then handle it.`,
  '',
  REQUEST_LINE,
  '',
  'Routes:',
  '{{choices}}',
  '',
  `Reply with a JSON object and nothing else: {"${ROUTE_FIELD}": "<one of the names listed above>"}.`,
].join('\n');

export function routeId(i: number): string {
  return `route_${i + 1}`;
}

const when = (value: string): Guard => ({ kind: 'field', field: ROUTE_FIELD, op: 'eq', value });

/**
 * Puts a router in front of the mined skeleton (`nodes`, `edges` as build-graph.ts made them, from
 * `plan` to `synthesize`): `plan` → `route`; one branch of bound steps per family; `other` →
 * the skeleton. The skeleton's edges from `plan` are replaced: a node whose only way in was `plan`
 * is entered from the router under `other`, and the others keep their other in-edges (an unguarded
 * edge from `plan` would run them on every route).
 */
export function addRoutes(
  graph: { nodes: WorkflowNode[]; edges: Edge[] },
  families: readonly RouteFamily[],
  descriptors: ReadonlyMap<string, ToolDescriptor>,
  opts: RouteOptions = {},
): { nodes: WorkflowNode[]; edges: Edge[] } {
  if (families.length === 0) return graph;
  const choices = routeChoices(families, descriptors, opts.maxKeywords);
  const router: WorkflowNode = {
    id: 'route',
    kind: 'llm',
    role: 'judge',
    prompt: ROUTER_PROMPT,
    choices,
    output: {
      type: 'json',
      schema: {
        type: 'object',
        properties: {
          [ROUTE_FIELD]: {
            type: 'string',
            enum: [...choices.options.map((r) => r.value), OTHER_ROUTE],
            description: 'the route whose steps do what this request asks, or "other"',
          },
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
  families.forEach((v, i) => {
    const id = routeId(i);
    let prev: string | undefined;
    (v.steps ?? v.tools.map((t) => ({ tools: [t], optional: false }))).forEach((step, k) => {
      const tool = step.tools[0]!;
      const what = firstSentence(descriptors.get(tool)?.description ?? '', 160);
      const node: ToolNode = {
        id: `${id}_step_${k + 1}`,
        kind: 'tool',
        task: `Route ${i + 1}, step ${k + 1}: ${what || `call ${tool}`}`,
        tools: step.tools,
        ...(step.optional ? { calls: 'many' as const, optional: true } : {}),
      };
      nodes.push(node);
      edges.push(
        prev ? { from: prev, to: node.id, kind: 'data' } : { from: 'route', to: node.id, kind: 'data', when: when(id) },
      );
      edges.push({ from: node.id, to: 'synthesize', kind: 'data' });
      prev = node.id;
    });
  });
  nodes.push(...graph.nodes.slice(1));
  return { nodes, edges };
}
