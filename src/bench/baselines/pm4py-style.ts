import type { ToolNode } from '../../graph/schema.js';
import type { ProcessTree } from '../../mining/process-tree/schema.js';
import { createToolIndex } from '../../retrieval/tool-index.js';
import { type ExecutionPolicy, type NodeInput } from '../../policies/types.js';
import { addUsage, ZERO_USAGE, type Usage } from '../../llm/usage.js';
import type { TaskRecord } from '../../records/schema.js';
import type { TraceCall } from '../../runtime/trace.js';
import type { ToolRegistry } from '../../contracts/tools.js';
import type { Agent, AgentInput, AgentRun } from './agent.js';
import { logStatistics, planFromTree, type PlannedStep } from './pm4py-plan.js';
import { linearWorkflow, plainAnswer, runBaselineStep } from './tool-step.js';

/**
 * The PM4Py-style baseline (docs/DESIGN.md, "Baselines and ablations"): the process tree the inductive
 * miner finds on D_opt, executed with every activity bound to its concrete tool. Which parts of the
 * tree run for a query is decided by fixed rules (pm4py-plan.ts) with retrieval over the tools —
 * BM25 over names, descriptions and parameters, the retrieval every policy shares — and the mined
 * model's own branch frequencies, never by a model. Each step's arguments come from the execution
 * policy with that one tool as the only candidate; there is no planning node and no synthesis: the
 * answer is the tool results rendered plainly.
 */

export interface Pm4pyBaselineOptions {
  tree: ProcessTree;
  /** D_opt: the mined model's branch frequencies and parallel order (the tree was mined from it). */
  opt: readonly TaskRecord[];
  tools: ToolRegistry;
  policy: ExecutionPolicy;
  threshold?: number;
  maxLoop?: number;
}

export interface Pm4pyBaseline extends Agent {
  /** The steps the baseline runs for a query (for tests and reports). */
  plan(query: string): PlannedStep[];
}

export function createPm4pyBaseline(opts: Pm4pyBaselineOptions): Pm4pyBaseline {
  const descriptors = opts.tools.list();
  const index = createToolIndex(descriptors);
  const names = descriptors.map((d) => d.name);
  const stats = logStatistics(opts.opt);
  const offline = opts.policy.kind === 'offline' ? ' (offline)' : '';

  const plan = (query: string): PlannedStep[] => {
    const ranked = index.rank(query, names);
    const top = ranked[0]?.score ?? 0;
    const scores = new Map(ranked.map((r) => [r.name, top > 0 ? r.score / top : 0]));
    return planFromTree(opts.tree, {
      score: (tool) => scores.get(tool) ?? 0,
      ...stats,
      ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}),
      ...(opts.maxLoop !== undefined ? { maxLoop: opts.maxLoop } : {}),
    });
  };

  async function run(input: AgentInput): Promise<AgentRun> {
    const started = performance.now();
    const steps = plan(input.query);
    const nodes: ToolNode[] = steps.map((s, i) => ({
      id: `s${i}`,
      kind: 'tool',
      task: (opts.tools.get(s.tool)?.description ?? s.tool).split('\n')[0]!.slice(0, 300) || s.tool,
      tools: [s.tool],
      ...(s.many ? { calls: 'many' as const } : {}),
    }));
    const workflow = linearWorkflow('PM4Py-style path', nodes);
    const calls: TraceCall[] = [];
    const inputs: NodeInput[] = [];
    let usage: Usage = ZERO_USAGE;
    for (const node of nodes) {
      if (!opts.tools.get(node.tools![0]!)) {
        calls.push({ tool: node.tools![0]!, args: {}, status: 'error' });
        continue;
      }
      const res = await runBaselineStep(
        node,
        {
          query: input.query,
          ...(input.recordId ? { recordId: input.recordId } : {}),
          workflow,
          inputs,
          ...(input.signal ? { signal: input.signal } : {}),
        },
        opts.policy,
        opts.tools,
      );
      calls.push(...res.calls);
      inputs.push(res.input);
      usage = addUsage(usage, res.usage);
    }
    return {
      calls,
      answer: plainAnswer(calls),
      durationMs: performance.now() - started,
      llmCalls: usage.llmCalls,
      llmSteps: nodes.length,
      toolCalls: calls.length,
      usage,
    };
  }

  return { id: 'pm4py', label: `PM4Py-style${offline}`, plan, run };
}
