import { createHash } from 'node:crypto';
import { compareIds } from './graph-utils.js';
import type { Edge, Guard, Workflow, WorkflowNode } from './schema.js';

/**
 * Canonical form and hash of a workflow, so the search recognises identical candidates (docs/DESIGN.md,
 * "Search": every candidate is stored; memo keys use the node definitions). Two workflows hash equal
 * exactly when they behave the same: `name`, `description` and `meta` are ignored, as are key order,
 * node and edge order, the order of arrays whose order means nothing (tool hints, mined tools,
 * JSON-Schema `required`, `in`/`not_in` guard lists, a node's bindings), duplicates in those arrays,
 * and explicit defaults (`calls: 'one'`, empty hint, mined or directive lists, a binding to `model`).
 * An LLM node's `question`, `choices` and `directives` count, in their order.
 */

/** The version of the canonical form; part of the hash so a change of rules changes every hash. */
const CANONICAL_FORM = 1;

/** The canonical form of a workflow: a new object with the rules above applied. */
export function canonicalWorkflow(w: Workflow): Pick<Workflow, 'version' | 'nodes' | 'edges'> {
  const nodes = [...w.nodes].map(canonicalNode).sort((a, b) => compareIds(a.id, b.id));
  const edges = [...w.edges].map(canonicalEdge).sort(compareEdges);
  return { version: w.version, nodes, edges };
}

/** sha256 (hex) of the canonical form. */
export function workflowHash(w: Workflow): string {
  return createHash('sha256')
    .update(`flowscout-workflow/${CANONICAL_FORM}\n${stableJson(canonicalWorkflow(w))}`)
    .digest('hex');
}

function canonicalNode(n: WorkflowNode): WorkflowNode {
  if (n.kind === 'llm') {
    const output =
      n.output.type === 'json'
        ? { type: 'json' as const, schema: canonicalJsonSchema(n.output.schema) as typeof n.output.schema }
        : { type: 'text' as const };
    return {
      id: n.id,
      kind: 'llm',
      role: n.role,
      prompt: n.prompt,
      output,
      ...(n.model !== undefined ? { model: n.model } : {}),
      // The structured fields change what a model reads and what a policy decides. Their order
      // means something (a router's ties go to the option listed first, a later directive wins),
      // so it is kept; absent fields leave the form of older workflows as it was.
      ...(n.question !== undefined ? { question: n.question } : {}),
      ...(n.choices !== undefined ? { choices: n.choices } : {}),
      ...(n.directives !== undefined && n.directives.length > 0 ? { directives: n.directives } : {}),
    };
  }
  const out: WorkflowNode = { id: n.id, kind: 'tool', task: n.task };
  const tools = sortedSet(n.tools);
  if (tools.length > 0) out.tools = tools;
  if (n.calls === 'many') out.calls = 'many';
  if (n.optional) out.optional = true;
  if (n.retry) out.retry = { attempts: n.retry.attempts, on: n.retry.on };
  const mined = sortedSet(n.mined);
  if (mined.length > 0) out.mined = mined;
  // Bindings change the calls a node makes; their order means nothing, and a binding to `model`
  // is the default. Absent bindings leave the form (and so the hash) of unbound workflows as it was.
  const bind = (n.bind ?? [])
    .filter((b) => b.source.from !== 'model')
    .sort((a, b) => compareIds(a.tool, b.tool) || compareIds(a.param, b.param));
  if (bind.length > 0) out.bind = bind;
  // Hints change what a policy decides; their order by tool means nothing.
  const hints = [...(n.hints ?? [])].sort((a, b) => compareIds(a.tool, b.tool));
  if (hints.length > 0) out.hints = hints;
  return out;
}

function canonicalEdge(e: Edge): Edge {
  return e.when
    ? { from: e.from, to: e.to, kind: e.kind, when: canonicalGuard(e.when) }
    : { from: e.from, to: e.to, kind: e.kind };
}

function canonicalGuard(g: Guard): Guard {
  if (g.kind === 'field' && Array.isArray(g.value)) {
    const unique = new Map(g.value.map((v) => [stableJson(v), v]));
    return { ...g, value: [...unique.keys()].sort().map((k) => unique.get(k)!) };
  }
  return g;
}

/** Sorts (and dedupes) every `required` list inside a JSON Schema, at any depth. */
function canonicalJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(canonicalJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] =
      k === 'required' && Array.isArray(v) && v.every((x) => typeof x === 'string')
        ? sortedSet(v)
        : canonicalJsonSchema(v);
  }
  return out;
}

function compareEdges(a: Edge, b: Edge): number {
  return compareIds(a.from, b.from) || compareIds(a.to, b.to) || compareIds(a.kind, b.kind);
}

function sortedSet(list: readonly string[] | undefined): string[] {
  return [...new Set(list ?? [])].sort(compareIds);
}

/** JSON with object keys sorted at every depth (undefined members dropped). */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}
