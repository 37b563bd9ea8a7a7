import { FlowScoutError } from '../errors/index.js';
import { adjacency, entryIds, exitIds, findCycles, reachable } from './graph-utils.js';
import { problemsFromZod, type Problem } from './problems.js';
import { WorkflowSchema, type FieldGuard, type JsonObjectSchema, type Workflow } from './schema.js';

/** The tools T a workflow is checked against: names, or anything with a `name`. */
export type ToolNames = Iterable<string | { name: string }>;

export type ParseResult = { ok: true; workflow: Workflow } | { ok: false; problems: Problem[] };

/** Checks the shape of untrusted data against the IR schema (no graph rules). */
export function parseWorkflow(input: unknown): ParseResult {
  const parsed = WorkflowSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problems: problemsFromZod(parsed.error) };
  return { ok: true, workflow: parsed.data };
}

/**
 * Valid(G, T) of DESIGN.md: the schema, unique ids, edges naming nodes, acyclic, one `plan` entry and
 * one `synthesize` exit, every node on an entry→exit path, tool hints in T, guards reading declared
 * fields, retry attempts in 1..5. Returns every problem found (empty when valid); schema problems
 * are reported alone because the graph rules need a well-formed document.
 */
export function validateWorkflow(input: unknown, tools?: ToolNames): Problem[] {
  const parsed = parseWorkflow(input);
  if (!parsed.ok) return parsed.problems;
  return graphProblems(parsed.workflow, tools);
}

/** Parses and validates, throwing INVALID_WORKFLOW with every problem when the workflow is not valid. */
export function assertValidWorkflow(input: unknown, tools?: ToolNames, source?: string): Workflow {
  const parsed = parseWorkflow(input);
  const problems = parsed.ok ? graphProblems(parsed.workflow, tools) : parsed.problems;
  if (problems.length > 0 || !parsed.ok) {
    throw new FlowScoutError({
      code: 'INVALID_WORKFLOW',
      message: `${source ? `${source}: ` : ''}the workflow is not valid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`,
      hint: 'Fix the problems listed above; `flowscout validate <file>` prints them again.',
      details: problems,
    });
  }
  return parsed.workflow;
}

function graphProblems(w: Workflow, tools: ToolNames | undefined): Problem[] {
  const problems: Problem[] = [];
  const push = (code: Problem['code'], path: string, message: string) => problems.push({ code, path, message });

  // Unique ids.
  const firstIndex = new Map<string, number>();
  w.nodes.forEach((n, i) => {
    const prev = firstIndex.get(n.id);
    if (prev === undefined) firstIndex.set(n.id, i);
    else push('duplicate-id', `$.nodes[${i}].id`, `duplicate node id '${n.id}' (first used at $.nodes[${prev}]); give every node its own id`);
  });
  const nodeList = [...firstIndex.keys()];

  // Edges name nodes; no duplicate (from, to) pairs.
  const seenEdges = new Map<string, number>();
  w.edges.forEach((e, i) => {
    for (const end of ['from', 'to'] as const) {
      if (!firstIndex.has(e[end])) {
        push('missing-node', `$.edges[${i}].${end}`, `edge ${end === 'from' ? 'source' : 'target'} '${e[end]}' is not a node; nodes are: ${listNames(nodeList)}`);
      }
    }
    const key = `${e.from}\u0000${e.to}`;
    const prev = seenEdges.get(key);
    if (prev !== undefined) push('duplicate-edge', `$.edges[${i}]`, `edge ${e.from} → ${e.to} repeats $.edges[${prev}]; keep one (an edge is live or dead as a whole)`);
    else seenEdges.set(key, i);
  });

  const adj = adjacency(w);

  // Acyclic.
  for (const cycle of findCycles(adj)) {
    const i = w.edges.findIndex((e) => e.from === cycle[cycle.length - 2] && e.to === cycle[cycle.length - 1]);
    push('cycle', i >= 0 ? `$.edges[${i}]` : '$.edges', `the graph has a cycle: ${cycle.join(' → ')}; workflows are acyclic, so remove one of these edges (use a tool node's "retry" or calls: "many" for repetition)`);
  }

  // One entry (a plan node), one exit (a synthesize node).
  const entries = entryIds(adj);
  const exits = exitIds(adj);
  if (w.nodes.length === 0) {
    push('no-entry', '$.nodes', 'the workflow has no nodes; it needs at least a plan node (entry) and a synthesize node (exit)');
  } else {
    if (entries.length === 0) push('no-entry', '$.edges', 'no node is without in-edges, so there is no entry; the entry is the one plan node with no incoming edges');
    if (entries.length > 1) push('multiple-entries', '$.nodes', `${entries.length} nodes have no incoming edges (${listNames(entries)}); keep exactly one entry, an llm "plan" node, and connect the others after it`);
    if (exits.length === 0) push('no-exit', '$.edges', 'every node has an outgoing edge, so there is no exit; the exit is the one synthesize node with no outgoing edges');
    if (exits.length > 1) push('multiple-exits', '$.nodes', `${exits.length} nodes have no outgoing edges (${listNames(exits)}); keep exactly one exit, an llm "synthesize" node, and connect the others to it`);
  }
  for (const id of entries) {
    const n = adj.nodes.get(id)!;
    if (n.kind !== 'llm' || n.role !== 'plan') {
      push('entry-role', `$.nodes[${firstIndex.get(id)}]`, `entry node '${id}' is ${describeNode(n)}; the entry must be an llm node with role "plan"`);
    }
  }
  for (const id of exits) {
    const n = adj.nodes.get(id)!;
    if (n.kind !== 'llm' || n.role !== 'synthesize') {
      push('exit-role', `$.nodes[${firstIndex.get(id)}]`, `exit node '${id}' is ${describeNode(n)}; the exit must be an llm node with role "synthesize"`);
    }
  }

  // Every node on an entry→exit path (only meaningful when entry and exit exist).
  if (entries.length > 0 && exits.length > 0) {
    const fromEntry = reachable(adj, entries.filter(isPlan(adj)).length > 0 ? entries.filter(isPlan(adj)) : entries, 'forward');
    const toExit = reachable(adj, exits.filter(isSynth(adj)).length > 0 ? exits.filter(isSynth(adj)) : exits, 'backward');
    for (const id of nodeList) {
      const i = firstIndex.get(id);
      if (entries.includes(id) || exits.includes(id)) continue;
      if (!fromEntry.has(id)) push('unreachable', `$.nodes[${i}]`, `node '${id}' cannot be reached from the entry; add an edge into it from the plan node or a node after it, or remove it`);
      else if (!toExit.has(id)) push('dead-end', `$.nodes[${i}]`, `node '${id}' has no path to the exit; add an edge from it towards the synthesize node, or remove it`);
    }
  }

  // Tool hints exist in T.
  if (tools !== undefined) {
    const available = new Set<string>();
    for (const t of tools) available.add(typeof t === 'string' ? t : t.name);
    w.nodes.forEach((n, i) => {
      if (n.kind !== 'tool') return;
      n.tools?.forEach((name, j) => {
        if (!available.has(name)) {
          push('unknown-tool', `$.nodes[${i}].tools[${j}]`, `tool '${name}' used by node '${n.id}' is not available; ${suggest(name, available)}`);
        }
      });
    });
  }

  // Guards read something their source declares.
  w.edges.forEach((e, i) => {
    if (!e.when) return;
    const src = adj.nodes.get(e.from);
    if (!src) return;
    const path = `$.edges[${i}].when`;
    if (e.when.kind === 'status') {
      if (src.kind !== 'tool') push('guard-source', path, `a status guard reads a tool node's status, but '${src.id}' is ${describeNode(src)}; use a field guard on its JSON output instead`);
      return;
    }
    if (src.kind !== 'llm') {
      push('guard-source', path, `a field guard reads an llm node's JSON output, but '${src.id}' is a tool node; use {"kind": "status", "status": "ok" | "error"}`);
      return;
    }
    if (src.output.type !== 'json') {
      push('guard-field', `${path}.field`, `guard reads field '${e.when.field}' but node '${src.id}' has text output; give it output {"type": "json", "schema": …} declaring '${e.when.field}'`);
      return;
    }
    if (!declaresField(src.output.schema, e.when)) {
      push('guard-field', `${path}.field`, `guard reads field '${e.when.field}' which node '${src.id}' does not declare; declared fields: ${listNames(declaredFields(src.output.schema))}`);
    }
  });

  // Retry attempts 1..5.
  w.nodes.forEach((n, i) => {
    if (n.kind === 'tool' && n.retry && (n.retry.attempts < 1 || n.retry.attempts > 5)) {
      push('retry-range', `$.nodes[${i}].retry.attempts`, `retry attempts must be between 1 and 5 (got ${n.retry.attempts})`);
    }
  });

  return problems;
}

function isPlan(adj: ReturnType<typeof adjacency>) {
  return (id: string) => {
    const n = adj.nodes.get(id)!;
    return n.kind === 'llm' && n.role === 'plan';
  };
}

function isSynth(adj: ReturnType<typeof adjacency>) {
  return (id: string) => {
    const n = adj.nodes.get(id)!;
    return n.kind === 'llm' && n.role === 'synthesize';
  };
}

function declaresField(schema: JsonObjectSchema, guard: FieldGuard): boolean {
  let props: Record<string, unknown> | undefined = schema.properties;
  const parts = guard.field.split('.');
  for (let k = 0; k < parts.length; k++) {
    const p = props?.[parts[k]!] as { properties?: Record<string, unknown> } | undefined;
    if (!p) return false;
    if (k === parts.length - 1) return true;
    props = p.properties;
  }
  return false;
}

function declaredFields(schema: JsonObjectSchema): string[] {
  return Object.keys(schema.properties);
}

function describeNode(n: { kind: string; role?: string }): string {
  return n.kind === 'llm' ? `an llm node with role "${n.role}"` : 'a tool node';
}

function listNames(names: string[]): string {
  if (names.length === 0) return '(none)';
  const shown = names.slice(0, 12).join(', ');
  return names.length > 12 ? `${shown}, … and ${names.length - 12} more` : shown;
}

function suggest(name: string, available: Set<string>): string {
  if (available.size === 0) return 'no tools are loaded; pass --tools';
  const ranked = [...available].sort((a, b) => distance(name, a) - distance(name, b) || (a < b ? -1 : 1));
  const close = ranked.filter((a) => distance(name, a) <= Math.max(3, Math.floor(name.length / 3))).slice(0, 3);
  const prefix = close.length > 0 ? `did you mean ${close.map((c) => `'${c}'`).join(' or ')}? ` : '';
  return `${prefix}available: ${listNames([...available].sort())}`;
}

/** Levenshtein distance, for "did you mean" suggestions. */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}
