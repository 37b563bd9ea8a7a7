import type { LlmNode, ToolNode } from '../../../graph/schema.js';
import { requestClauses } from '../../../text/clauses.js';
import { createToolIndex } from '../../../retrieval/tool-index.js';
import { type ExecutionPolicy, type NodeInput } from '../../../policies/types.js';
import { addUsage, ZERO_USAGE, type Usage } from '../../../llm/usage.js';
import type { TraceCall } from '../../../runtime/trace.js';
import type { ToolRegistry } from '../../../contracts/tools.js';
import type { Agent, AgentInput, AgentRun } from '../agent.js';
import { linearWorkflow, runBaselineStep } from '../tool-step.js';

/**
 * The ReAct baseline without a model (docs/DESIGN.md, "Baselines and ablations": "offline: one
 * retrieval step per part of the query": retrieve a tool for the unanswered part, call it, repeat until nothing is left). The request is
 * split into its parts (the offline policy's `requestClauses`); each turn takes the first
 * unanswered part, retrieves the best tool for it (BM25 over tool names, descriptions and
 * parameters — the retrieval every policy shares; like a model that has never seen the log, it reads
 * no records — or, when the part matches no tool, for the whole query), lets the execution policy fill the arguments with that
 * tool as the only candidate, and calls it. A successful call marks the part answered; a failed
 * one is the observation that makes the next turn try the next-ranked tool for the same part
 * (at most `triesPerClause`). The loop ends when every part is answered or given up, or after
 * `maxSteps` turns; the answer is the policy's synthesis over the observations (the offline
 * policy's template). Deterministic.
 */

export interface OfflineReactOptions {
  tools: ToolRegistry;
  policy: ExecutionPolicy;
  /** Turns at most (default 10, like the model's step limit). */
  maxSteps?: number;
  /** Tools tried per part of the request before it is given up (default 2). */
  triesPerClause?: number;
}

const SYNTHESIZE: LlmNode = {
  id: 'answer',
  kind: 'llm',
  role: 'synthesize',
  prompt: 'Answer {{query}} from the tool results:\n{{inputs}}',
  output: { type: 'text' },
};

export function createOfflineReact(opts: OfflineReactOptions): Agent {
  const descriptors = opts.tools.list();
  const names = descriptors.map((d) => d.name);
  const index = createToolIndex(descriptors);
  const maxSteps = opts.maxSteps ?? 10;
  const tries = Math.max(1, opts.triesPerClause ?? 2);

  async function run(input: AgentInput): Promise<AgentRun> {
    const started = performance.now();
    const parts = requestClauses(input.query);
    const slots: ToolNode[] = parts.map((c, i) => ({ id: `c${i}`, kind: 'tool', task: c }));
    const calls: TraceCall[] = [];
    const inputs: NodeInput[] = [];
    let usage: Usage = ZERO_USAGE;
    let steps = 0;
    for (let k = 0; k < parts.length && steps < maxSteps; k++) {
      const ranked = index.rank(parts[k]!, names);
      const order = (ranked.length > 0 ? ranked : index.rank(input.query, names)).map((r) => r.name);
      for (let t = 0; t < Math.min(tries, order.length) && steps < maxSteps; t++) {
        steps++;
        const node: ToolNode = { ...slots[k]!, tools: [order[t]!] };
        const workflow = linearWorkflow(
          'ReAct steps',
          slots.map((s, i) => (i === k ? node : s)),
        );
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
        if (res.status === 'ok') break;
      }
    }
    const workflow = linearWorkflow('ReAct steps', slots);
    const synth = await opts.policy.runLlmNode({
      query: input.query,
      workflow,
      inputs,
      context: input.query,
      scratch: new Map(),
      node: SYNTHESIZE,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    usage = addUsage(usage, synth.usage);
    const answer = typeof synth.output === 'string' ? synth.output : JSON.stringify(synth.output);
    return {
      calls,
      answer,
      durationMs: performance.now() - started,
      llmCalls: usage.llmCalls,
      llmSteps: steps + 1,
      toolCalls: calls.length,
      usage,
    };
  }

  return {
    id: 'react',
    label: `ReAct${opts.policy.kind === 'offline' ? ' (offline)' : ` (${opts.policy.label})`}`,
    run,
  };
}
