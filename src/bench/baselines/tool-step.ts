import type { ToolNode, Workflow } from '../../graph/schema.js';
import { describeCall } from '../../policies/offline/summarize.js';
import { type ExecutionPolicy, type NodeInput } from '../../policies/types.js';
import { ZERO_USAGE, type Usage } from '../../llm/usage.js';
import { renderContext } from '../../runtime/context.js';
import { DEFAULT_CONTEXT_CHARS } from '../../runtime/run-state.js';
import { runToolNodeStep } from '../../runtime/tool-node.js';
import type { TraceCall } from '../../runtime/trace.js';
import type { ToolRegistry } from '../../contracts/tools.js';

/**
 * One tool step of a baseline, run exactly as a workflow's tool node runs it (`runToolNodeStep`:
 * the policy plans the call among the node's candidates, arguments are validated, the registry
 * calls the tool, failures become error observations). The baselines differ from FlowScout in how
 * they decide *which* steps to run, not in how a step is executed.
 */

export interface BaselineStepInput {
  query: string;
  recordId?: string;
  /** The linear workflow the steps form (the policy reads a node's position in it). */
  workflow: Workflow;
  /** Results of the earlier steps, oldest first. */
  inputs: readonly NodeInput[];
  signal?: AbortSignal;
}

export interface BaselineStepResult {
  /** The step's result as the next steps see it. */
  input: NodeInput;
  calls: TraceCall[];
  status: 'ok' | 'error';
  error?: string;
  /** Model usage of planning it (zero for the offline policy). */
  usage: Usage;
}

/** Plans and runs one tool node (see the module comment). */
export async function runBaselineStep(
  node: ToolNode,
  step: BaselineStepInput,
  policy: ExecutionPolicy,
  tools: ToolRegistry,
): Promise<BaselineStepResult> {
  const context = renderContext(step.query, step.inputs, DEFAULT_CONTEXT_CHARS);
  const res = await runToolNodeStep(
    node,
    {
      query: step.query,
      ...(step.recordId !== undefined ? { recordId: step.recordId } : {}),
      workflow: step.workflow,
      inputs: [...step.inputs],
      context,
      scratch: new Map(),
      ...(step.signal ? { signal: step.signal } : {}),
    },
    policy,
    { tools },
  );
  const calls: TraceCall[] = (res.calls ?? []).map((c) => ({
    tool: c.tool,
    args: c.args,
    status: c.status,
    ...(c.output !== undefined ? { output: c.output } : {}),
  }));
  const input: NodeInput = {
    nodeId: node.id,
    kind: 'tool',
    output: res.output,
    status: res.status,
    calls: (res.calls ?? []).map((c) => ({ tool: c.tool, args: c.args, status: c.status })),
  };
  return {
    input,
    calls,
    status: res.status,
    ...(res.error !== undefined ? { error: res.error } : {}),
    usage: res.usage ?? ZERO_USAGE,
  };
}

/**
 * A linear workflow plan → s0 → … → s(n−1) → synthesize whose tool nodes are the given steps. It is
 * never executed: it only gives the policy the order of the steps (which part of the request the
 * k-th step serves).
 */
export function linearWorkflow(name: string, steps: readonly ToolNode[]): Workflow {
  const nodes: Workflow['nodes'] = [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan the steps for: {{query}}', output: { type: 'text' } },
    ...steps,
    {
      id: 'answer',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'Answer {{query}} from {{inputs}}',
      output: { type: 'text' },
    },
  ];
  const ids = nodes.map((n) => n.id);
  return {
    version: 1,
    name,
    nodes,
    edges: ids.slice(1).map((to, i) => ({ from: ids[i]!, to, kind: 'data' as const })),
  };
}

/** The tool results rendered plainly, one paragraph per call (no synthesis). */
export function plainAnswer(calls: readonly TraceCall[]): string {
  if (calls.length === 0) return 'No tool was called for this request.';
  return calls
    .map((c) =>
      describeCall({
        tool: c.tool,
        args: c.args,
        status: c.status,
        ...(c.output !== undefined ? { output: c.output } : {}),
      }),
    )
    .join('\n\n');
}
