import type { Edge, Workflow, WorkflowNode } from '../graph/schema.js';
import { prepareWorkflow, type PreparedWorkflow } from '../graph/prepare.js';
import { edgeCommentLines, identifierNames, literal, moduleParts, nodeHeaderLines } from './code-text.js';

/**
 * Compiles a workflow into a readable, standalone TypeScript ES module (docs/DESIGN.md, "Pipeline":
 * G* is also written as a standalone TypeScript module): `export async function run(query, context)`, one function per
 * node (`node_<id>`) carrying the node's prompt or task as a comment, and every edge written out as
 * a liveness check. The module imports only the run object (observations, concurrency bound,
 * cancellation, memo, spans) and the pure `isEdgeLive` step from the FlowScout runtime, so it
 * returns the same Trace as `executeWorkflow` — the differential test holds the two together.
 * Every string from the workflow is embedded through `literal` or `commentLines` (code-text.ts).
 */

/** Where the generated code imports the runtime from, and how errors name the workflow. */
export interface CompileOptions {
  /** Module specifier the generated code imports the runtime from (default "flowscout/runtime"). */
  runtimeImport?: string;
  /** Named in validation errors (e.g. the workflow's file). */
  source?: string;
}

/** The module text for `workflow` (validated first; INVALID_WORKFLOW lists every problem). */
export function compileWorkflow(workflow: Workflow | PreparedWorkflow, opts: CompileOptions = {}): string {
  const p = prepareWorkflow(workflow, undefined, opts.source);
  const { workflow: w, adjacency: adj, order } = p;
  const promiseVar = identifierNames(order, 'r_');
  const resolvedVar = identifierNames(order, 'n_');
  const parts = moduleParts(w, adj, order);
  const { fn, inEdges, edgeIndex } = parts;
  const runtime = opts.runtimeImport ?? 'flowscout/runtime';
  const out: string[] = [];

  out.push(
    ...parts.header({ what: '', again: 'compile', nodes: 'nodes' }),
    '// Semantics (FlowScout: docs/DESIGN.md, "Execution"): an edge is live when its source ran and its guard holds;',
    '// a node runs when at least one in-edge is live and is skipped when none is; every node is started',
    '// at once and waits for its sources, so independent branches run concurrently under the bound.',
    `import { isEdgeLive, startRun, type NodeResult, type RunContext, type Trace, type Workflow, type WorkflowNode, type WorkflowRun } from ${literal(runtime)};`,
    '',
  );

  out.push(...parts.data(p.hash, 'compiled', 'Control flow is in the functions below.'), '');

  for (const id of order) out.push(...nodeFunction(adj.nodes.get(id)!, inEdges(id)), '');

  out.push(
    '/** Runs the workflow on one query and returns its trace (observations, π̂ as trace.calls, the answer). */',
    'export async function run(query: string, context: RunContext): Promise<Trace> {',
    '  const wf = startRun(WORKFLOW, { query, ...(context.recordId !== undefined ? { recordId: context.recordId } : {}) }, { ...context, workflowHash: WORKFLOW_HASH });',
  );
  for (const id of order) {
    const deps = [...new Set(inEdges(id).map((e) => e.from))].map((src) => promiseVar.get(src));
    out.push(`  const ${promiseVar.get(id)} = ${fn.get(id)}(${['wf', ...deps].join(', ')});`);
  }
  out.push(
    `  await Promise.all([${order.map((id) => promiseVar.get(id)).join(', ')}]);`,
    '  return wf.finish();',
    '}',
    '',
  );
  return out.join('\n');

  function nodeFunction(node: WorkflowNode, edges: Edge[]): string[] {
    const lines = nodeHeaderLines(node);
    const sources = [...new Set(edges.map((e) => e.from))];
    const params = ['wf: WorkflowRun', ...sources.map((src) => `${promiseVar.get(src)}: Promise<NodeResult>`)];
    lines.push(`async function ${fn.get(node.id)}(${params.join(', ')}): Promise<NodeResult> {`);
    if (edges.length === 0) {
      lines.push(
        '  // The entry: no in-edges, so it always runs.',
        `  return wf.runNode(${literal(node.id)}, []);`,
        '}',
      );
      return lines;
    }
    for (const src of sources) lines.push(`  const ${resolvedVar.get(src)} = await ${promiseVar.get(src)};`);
    const edgeVars: string[] = [];
    for (const e of edges) {
      const v = `e${edgeIndex.get(e)}`;
      edgeVars.push(v);
      lines.push(...edgeCommentLines(e, '  '));
      lines.push(
        e.when
          ? `  const ${v} = isEdgeLive({ when: ${literal(e.when)} }, ${resolvedVar.get(e.from)});`
          : `  const ${v} = ${resolvedVar.get(e.from)}.status !== 'skipped';`,
      );
    }
    lines.push(
      `  if (!${edgeVars.length === 1 ? edgeVars[0] : `(${edgeVars.join(' || ')})`}) return wf.skipNode(${literal(node.id)});`,
    );
    const data = edges.filter((e) => e.kind === 'data');
    if (data.length === 0) {
      lines.push('  // No data edges: it sees the query only.', `  return wf.runNode(${literal(node.id)}, []);`);
    } else {
      lines.push('  const inputs: string[] = [];');
      for (const e of data) lines.push(`  if (e${edgeIndex.get(e)}) inputs.push(${literal(e.from)});`);
      lines.push(`  return wf.runNode(${literal(node.id)}, inputs);`);
    }
    lines.push('}');
    return lines;
  }
}
