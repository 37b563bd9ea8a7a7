import { adjacency, topologicalOrder } from '../graph/graph-utils.js';
import type { Edge, Workflow, WorkflowNode } from '../graph/schema.js';
import { workflowHash } from '../graph/hash.js';
import { assertValidWorkflow } from '../graph/validate.js';
import { edgeCommentLines, literal, moduleParts, nodeHeaderLines } from '../runtime/code-text.js';

/**
 * Exports a workflow as a readable TypeScript module that builds a LangGraph.js `StateGraph`
 * (`@langchain/langgraph`, which the user installs; the module runs on their LangGraph). The
 * mapping, written into the module's header too:
 *
 * - one graph node per workflow node (same id; an id that LangGraph reserves or that names a state
 *   channel gets a `_node` suffix), plus `flowscout_begin` (opens the run) and `flowscout_end`
 *   (assembles the trace and the answer);
 * - every workflow edge becomes part of a LangGraph *waiting edge* `addEdge([sources…], node)`: a
 *   node runs once, after all its sources resolved, exactly the interpreter's rule. Its guards are
 *   evaluated in the node from the state, and a node none of whose in-edges is live records itself
 *   as skipped, which is what keeps an OR-join after a conditional branch from waiting forever for
 *   a branch that was never taken (LangGraph's conditional edges alone cannot express that join);
 * - parallel branches run in one LangGraph super-step and each writes its own key of the `results`
 *   channel, whose reducer merges them (a key written twice is an error);
 * - a tool node's `retry` becomes the graph node's `retryPolicy`: each LangGraph attempt is one
 *   workflow attempt, and an attempt that does not stand is thrown so LangGraph runs it again;
 * - `calls: 'many'` and the tool hints are kept on the node data the policy receives.
 *
 * The module takes the same `{ policy, tools }` context as a compiled module (`flowscout compile`).
 */

/** Where the generated code imports its two dependencies from. */
export interface LangGraphExportOptions {
  /** Module specifier of the FlowScout runtime (default "flowscout/langgraph"). */
  runtimeImport?: string;
  /** Module specifier of LangGraph (default "@langchain/langgraph"). */
  langgraphImport?: string;
  /** Named in validation errors (e.g. the workflow's file). */
  source?: string;
}

/** State channels of the exported graph; a node may not share a name with one. */
const CHANNELS = ['query', 'recordId', 'runId', 'results', 'answer', 'trace'];
const RESERVED = new Set([...CHANNELS, '__start__', '__end__', 'flowscout_begin', 'flowscout_end']);

/** The module text for `workflow` (validated first; INVALID_WORKFLOW lists every problem). */
export function exportLangGraph(workflow: Workflow, opts: LangGraphExportOptions = {}): string {
  const w = assertValidWorkflow(workflow, undefined, opts.source);
  const adj = adjacency(w);
  const order = topologicalOrder(adj)!;
  const graphName = graphNodeNames(order);
  const parts = moduleParts(w, adj, order);
  const { fn, inEdges, edgeIndex } = parts;
  const exit = order.find((id) => adj.out.get(id)!.length === 0) ?? order[order.length - 1]!;
  const entry = order[0]!;
  const out: string[] = [];

  out.push(
    ...parts.header(
      { what: ': a LangGraph.js StateGraph', again: 'export', nodes: 'workflow nodes' },
      {
        needs: '@langchain/langgraph and @langchain/core installed beside flowscout',
        exports: 'createGraph',
        more: [
          '//   const graph = createGraph({ policy, tools });                // a compiled StateGraph for your LangGraph app',
          "//   const state = await graph.invoke({ query: 'your question' }); // state.answer, state.trace",
        ],
      },
    ),
    '// How the workflow maps onto LangGraph:',
    '// - each workflow node is a graph node that runs once, after all its sources (a waiting edge);',
    "//   it reads its in-edges' guards from the state and records itself as skipped when none is live;",
    '// - parallel branches write different keys of the `results` channel; its reducer merges them;',
    "// - a tool node's retry is the graph node's retryPolicy (one LangGraph attempt per workflow attempt).",
    `import { Annotation, END, START, StateGraph } from ${literal(opts.langgraphImport ?? '@langchain/langgraph')};`,
    `import { createFlowGraphSteps, isEdgeLive, mergeNodeResults, type FlowGraphNodeConfig, type FlowGraphSteps, type NodeObservation, type RunContext, type Trace, type Workflow, type WorkflowNode } from ${literal(opts.runtimeImport ?? 'flowscout/langgraph')};`,
    '',
  );
  out.push(
    ...parts.data(workflowHash(w), 'exported', 'The graph below is its control flow.'),
    '',
    '/**',
    ' * The graph state. `results` holds one observation per workflow node (status, output, calls,',
    ' * timings), keyed by node id: parallel branches write different keys and the reducer merges them.',
    ' * `answer` and `trace` are written once, by `flowscout_end`. Everything in it is plain JSON.',
    ' */',
    'export const FlowState = Annotation.Root({',
    '  query: Annotation<string>(),',
    '  recordId: Annotation<string | undefined>(),',
    '  runId: Annotation<string | undefined>(),',
    '  results: Annotation<Record<string, NodeObservation>>({ reducer: mergeNodeResults, default: () => ({}) }),',
    '  answer: Annotation<string | undefined>(),',
    '  trace: Annotation<Trace | undefined>(),',
    '});',
    '',
    'type State = typeof FlowState.State;',
    '',
    '/** Builds the compiled graph, run with `context` (the policy that decides at each node and the tools). */',
    'export function createGraph(context: RunContext) {',
    '  return buildGraph(createFlowGraphSteps(WORKFLOW, WORKFLOW_HASH, context));',
    '}',
    '',
    'function buildGraph(steps: FlowGraphSteps) {',
  );
  for (const id of order) out.push(...nodeFunction(adj.nodes.get(id)!, inEdges(id)), '');
  out.push(
    '  return new StateGraph(FlowState)',
    "    .addNode('flowscout_begin', (state: State) => steps.begin(state))",
  );
  for (const id of order) {
    const node = adj.nodes.get(id)!;
    const retry = node.kind === 'tool' && node.retry && node.retry.attempts > 1;
    out.push(
      `    .addNode(${literal(graphName.get(id))}, ${fn.get(id)}${retry ? `, { retryPolicy: steps.retryPolicy(${literal(id)}) }` : ''})`,
    );
  }
  out.push(
    "    .addNode('flowscout_end', (state: State) => steps.end(state))",
    "    .addEdge(START, 'flowscout_begin')",
    `    .addEdge('flowscout_begin', ${literal(graphName.get(entry))})`,
  );
  for (const id of order) {
    if (id === entry) continue;
    const sources = [...new Set(inEdges(id).map((e) => e.from))].map((s) => graphName.get(s)!);
    out.push(`    .addEdge(${literal(sources)}, ${literal(graphName.get(id))})`);
  }
  out.push(
    `    .addEdge(${literal(graphName.get(exit))}, 'flowscout_end')`,
    "    .addEdge('flowscout_end', END)",
    `    .compile({ name: ${literal(w.name)} });`,
    '}',
    '',
  );
  out.push(
    '/** Runs the workflow on one query through the graph and returns its trace (observations, π̂ as trace.calls, the answer). */',
    'export async function run(query: string, context: RunContext): Promise<Trace> {',
    '  const steps = createFlowGraphSteps(WORKFLOW, WORKFLOW_HASH, context);',
    '  const graph = buildGraph(steps);',
    '  const runId = crypto.randomUUID();',
    '  const input = { query, ...(context.recordId !== undefined ? { recordId: context.recordId } : {}) };',
    '  try {',
    '    const state = await graph.invoke(',
    '      { ...input, runId },',
    '      // context.concurrency bounds the nodes running at once inside the steps (as in the interpreter),',
    "      // so LangGraph's own maxConcurrency is not set (in @langchain/langgraph 1.7.3 a value of 1 ends a step after its first task).",
    `      { recursionLimit: ${order.length + 10}, ...(context.signal ? { signal: context.signal } : {}) },`,
    '    );',
    '    return state.trace!;',
    '  } catch (e) {',
    '    // Cancelled: the trace as far as it got, ended `cancelled` (as the interpreter returns it).',
    '    const partial = context.signal?.aborted ? steps.partialTrace(runId, input) : undefined;',
    '    if (partial) return partial;',
    '    throw e;',
    '  } finally {',
    '    steps.close(runId);',
    '  }',
    '}',
  );
  return out.join('\n');

  function nodeFunction(node: WorkflowNode, edges: Edge[]): string[] {
    const lines = nodeHeaderLines(node, '  ', " (the graph node's retryPolicy)");
    const sources = [...new Set(edges.map((e) => e.from))];
    lines.push(
      `  async function ${fn.get(node.id)}(state: State, config?: FlowGraphNodeConfig): Promise<Partial<State>> {`,
    );
    if (edges.length === 0) {
      lines.push(
        '    // The entry: no in-edges, so it always runs.',
        `    return steps.run(${literal(node.id)}, state, [], config);`,
        '  }',
      );
      return lines;
    }
    for (const src of sources)
      lines.push(`    const ${fn.get(src)!.replace(/^node_/, 'n_')} = state.results[${literal(src)}]!;`);
    const edgeVars: string[] = [];
    for (const e of edges) {
      const v = `e${edgeIndex.get(e)}`;
      edgeVars.push(v);
      const src = fn.get(e.from)!.replace(/^node_/, 'n_');
      lines.push(...edgeCommentLines(e, '    '));
      lines.push(
        e.when
          ? `    const ${v} = isEdgeLive({ when: ${literal(e.when)} }, ${src});`
          : `    const ${v} = ${src}.status !== 'skipped';`,
      );
    }
    lines.push(
      `    if (!${edgeVars.length === 1 ? edgeVars[0] : `(${edgeVars.join(' || ')})`}) return steps.skip(${literal(node.id)}, state);`,
    );
    const data = edges.filter((e) => e.kind === 'data');
    if (data.length === 0) {
      lines.push(
        '    // No data edges: it sees the query only.',
        `    return steps.run(${literal(node.id)}, state, [], config);`,
      );
    } else {
      lines.push('    const inputs: string[] = [];');
      for (const e of data)
        lines.push(
          `    if (e${edgeIndex.get(e)} && !inputs.includes(${literal(e.from)})) inputs.push(${literal(e.from)});`,
        );
      lines.push(`    return steps.run(${literal(node.id)}, state, inputs, config);`);
    }
    lines.push('  }');
    return lines;
  }
}

/** Graph node names: the workflow ids, with `_node` added to an id that LangGraph or a state channel already uses. */
function graphNodeNames(ids: readonly string[]): Map<string, string> {
  const used = new Set(RESERVED);
  const names = new Map<string, string>();
  for (const id of ids) if (!RESERVED.has(id)) used.add(id);
  for (const id of ids) {
    if (!RESERVED.has(id)) {
      names.set(id, id);
      continue;
    }
    let name = `${id}_node`;
    for (let k = 2; used.has(name); k++) name = `${id}_node${k}`;
    used.add(name);
    names.set(id, name);
  }
  return names;
}
