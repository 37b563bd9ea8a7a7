import { FlowScoutError } from '../errors/index.js';
import { adjacency, entryIds, exitIds, findCycles, reachable } from './graph-utils.js';
import { nodeProblems, type ToolNames } from './node-checks.js';
import { withTaskParts } from './neutral-tasks.js';
import { describeNode, listNames, problemsFromZod, type Problem } from './problems.js';
import { WorkflowSchema, type Workflow } from './schema.js';

export type { ToolNames } from './node-checks.js';

/** A schema-checked workflow, or the schema problems. */
export type ParseResult = { ok: true; workflow: Workflow } | { ok: false; problems: Problem[] };

/**
 * Checks the shape of untrusted data against the IR schema (no graph rules). A workflow written
 * before tool steps carried `taskPart` gets it where a step's task is the search's neutral task
 * (`withTaskParts`), so every reader of a file sees the field.
 */
export function parseWorkflow(input: unknown): ParseResult {
  const parsed = WorkflowSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) return { ok: false, problems: problemsFromZod(parsed.error) };
  return { ok: true, workflow: withTaskParts(parsed.data) };
}

/**
 * Valid(G, T) of docs/DESIGN.md, "The workflow IR": the schema, unique ids, edges naming nodes, acyclic, one `plan` entry and
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
    else
      push(
        'duplicate-id',
        `$.nodes[${i}].id`,
        `duplicate node id '${n.id}' (first used at $.nodes[${prev}]); give every node its own id`,
      );
  });
  const nodeList = [...firstIndex.keys()];

  // Edges name nodes; no duplicate (from, to) pairs.
  const seenEdges = new Map<string, number>();
  w.edges.forEach((e, i) => {
    for (const end of ['from', 'to'] as const) {
      if (!firstIndex.has(e[end])) {
        push(
          'missing-node',
          `$.edges[${i}].${end}`,
          `edge ${end === 'from' ? 'source' : 'target'} '${e[end]}' is not a node; add a node with that id or use one of: ${listNames(nodeList)}`,
        );
      }
    }
    const key = `${e.from}\u0000${e.to}`;
    const prev = seenEdges.get(key);
    if (prev !== undefined)
      push(
        'duplicate-edge',
        `$.edges[${i}]`,
        `edge ${e.from} → ${e.to} repeats $.edges[${prev}]; keep one (an edge is live or dead as a whole)`,
      );
    else seenEdges.set(key, i);
  });

  const adj = adjacency(w);

  // Acyclic.
  for (const cycle of findCycles(adj)) {
    // Point at the cycle's edge that comes last in the document: usually the one most recently added.
    let i = -1;
    for (let k = 0; k + 1 < cycle.length; k++) {
      i = Math.max(
        i,
        w.edges.findIndex((e) => e.from === cycle[k] && e.to === cycle[k + 1]),
      );
    }
    push(
      'cycle',
      i >= 0 ? `$.edges[${i}]` : '$.edges',
      `the graph has a cycle: ${cycle.join(' → ')}; workflows are acyclic, so remove one of these edges (for repetition use a tool node's "retry" or "calls": "many")`,
    );
  }

  // One entry (a plan node), one exit (a synthesize node).
  const entries = entryIds(adj);
  const exits = exitIds(adj);
  if (w.nodes.length === 0) {
    push(
      'no-entry',
      '$.nodes',
      'the workflow has no nodes; it needs at least a plan node (entry) and a synthesize node (exit)',
    );
  } else {
    if (entries.length === 0)
      push(
        'no-entry',
        '$.edges',
        'every node has an incoming edge, so there is no entry; the entry is the one llm "plan" node with no incoming edges',
      );
    if (entries.length > 1) {
      const plans = entries.filter(isRole(adj, 'plan'));
      const keep =
        plans.length === 1 ? `keep '${plans[0]}' as the only entry` : 'keep exactly one entry, an llm "plan" node,';
      push(
        'multiple-entries',
        '$.nodes',
        `${entries.length} nodes have no incoming edges (${listNames(entries)}); ${keep} and add edges into the others from it or from a node after it`,
      );
    }
    if (exits.length === 0)
      push(
        'no-exit',
        '$.edges',
        'every node has an outgoing edge, so there is no exit; the exit is the one llm "synthesize" node with no outgoing edges',
      );
    if (exits.length > 1) {
      const synths = exits.filter(isRole(adj, 'synthesize'));
      const keep =
        synths.length === 1
          ? `keep '${synths[0]}' as the only exit`
          : 'keep exactly one exit, an llm "synthesize" node,';
      push(
        'multiple-exits',
        '$.nodes',
        `${exits.length} nodes have no outgoing edges (${listNames(exits)}); ${keep} and add edges from the others to it or to a node before it`,
      );
    }
  }
  if (entries.length === 1 && !isRole(adj, 'plan')(entries[0]!)) {
    const id = entries[0]!;
    push(
      'entry-role',
      `$.nodes[${firstIndex.get(id)}]`,
      `entry node '${id}' is ${describeNode(adj.nodes.get(id)!)}; the entry must be an llm node with role "plan" (add a plan node with an edge into '${id}')`,
    );
  }
  if (exits.length === 1 && !isRole(adj, 'synthesize')(exits[0]!)) {
    const id = exits[0]!;
    push(
      'exit-role',
      `$.nodes[${firstIndex.get(id)}]`,
      `exit node '${id}' is ${describeNode(adj.nodes.get(id)!)}; the exit must be an llm node with role "synthesize" (add a synthesize node with an edge from '${id}')`,
    );
  }

  // Every node on an entry→exit path (only meaningful when entry and exit exist).
  if (entries.length > 0 && exits.length > 0) {
    const plans = entries.filter(isRole(adj, 'plan'));
    const synths = exits.filter(isRole(adj, 'synthesize'));
    const fromEntry = reachable(adj, plans.length > 0 ? plans : entries, 'forward');
    const toExit = reachable(adj, synths.length > 0 ? synths : exits, 'backward');
    for (const id of nodeList) {
      const i = firstIndex.get(id);
      if (entries.includes(id) || exits.includes(id)) continue;
      if (!fromEntry.has(id))
        push(
          'unreachable',
          `$.nodes[${i}]`,
          `node '${id}' cannot be reached from the entry; add an edge into it from the plan node or a node after it, or remove it`,
        );
      else if (!toExit.has(id))
        push(
          'dead-end',
          `$.nodes[${i}]`,
          `node '${id}' has no path to the exit; add an edge from it towards the synthesize node, or remove it`,
        );
    }
  }

  problems.push(...nodeProblems(w, adj, tools));
  return problems;
}

function isRole(adj: ReturnType<typeof adjacency>, role: 'plan' | 'synthesize') {
  return (id: string) => {
    const n = adj.nodes.get(id)!;
    return n.kind === 'llm' && n.role === role;
  };
}
