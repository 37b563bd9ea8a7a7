import { generateText, jsonSchema, stepCountIs, tool, type ToolSet } from 'ai';
import type { ResolvedModel } from '../../../llm/resolve-model.js';
import type { ToolShortlister } from '../../../policies/tool-shortlist.js';
import type { TraceCall } from '../../../runtime/trace.js';
import type { ToolCallOutcome, ToolRegistry } from '../../../contracts/tools.js';
import type { Agent, AgentInput, AgentRun } from '../agent.js';
import { meteredModel, type MeterOptions } from './metered-model.js';

/**
 * The ReAct baseline with a model (docs/DESIGN.md, "Baselines and ablations": a reason–act loop over the
 * same tools and model). The loop is the AI SDK's own tool loop — `generateText` with every tool of
 * T and `stopWhen: stepCountIs(maxSteps)` — over a metered model (metered-model.ts: the run's rate
 * limiter, budget, retries and usage). Every call goes through the same `ToolRegistry` as the
 * workflows' calls (argument validation, replay, timeouts); a failed call is thrown back to the
 * model as a tool error. A call to a tool that does not exist, or with arguments that do not parse,
 * is answered by the SDK with a tool error and recorded in π̂ as a failed call: the agent made it.
 * A run that ends in a fault (the model failing after its retries, the budget) keeps the calls made
 * so far and an empty answer, with the error.
 *
 * With a shortlist (the same retrieval the LLM policy's tool nodes use, tool-shortlist.ts), the
 * model is offered the k tools that rank best for the request (`activeTools`) instead of all of T,
 * so both sides of a comparison send the same kind of tool list.
 */

export const REACT_SYSTEM_PROMPT =
  'You are a tool-using assistant. Solve the user request step by step: think about what is still unanswered, call the tool that answers it with exact argument values taken from the request or from earlier tool results, read the result, and repeat. Call only the tools you are given. When every part of the request is answered, reply with the final answer in plain text, citing the concrete values the tools returned.';

export interface LlmReactOptions extends MeterOptions {
  model: ResolvedModel;
  tools: ToolRegistry;
  /** Model steps at most (default 10). */
  maxSteps?: number;
  system?: string;
  /** Offer only the `size` tools that rank best for the request (default: every tool). */
  shortlist?: { shortlister: ToolShortlister; size: number };
}

export function createLlmReact(opts: LlmReactOptions): Agent {
  const maxSteps = opts.maxSteps ?? 10;
  return {
    id: 'react',
    label: `ReAct (${opts.model.spec})`,
    async run(input: AgentInput): Promise<AgentRun> {
      const started = performance.now();
      const metered = meteredModel(opts.model, opts);
      const executed = new Map<string, ToolCallOutcome>();
      const order: string[] = [];
      const tools: ToolSet = {};
      for (const d of opts.tools.list()) {
        tools[d.name] = tool({
          description: d.description,
          inputSchema: jsonSchema(d.inputSchema as Parameters<typeof jsonSchema>[0]),
          execute: async (args: unknown, { toolCallId, abortSignal }) => {
            const outcome = await opts.tools.call(
              d.name,
              (args ?? {}) as Record<string, unknown>,
              abortSignal ? { signal: abortSignal } : {},
            );
            executed.set(toolCallId, outcome);
            order.push(toolCallId);
            if (outcome.status === 'error') throw new Error(outcome.error ?? 'the tool call failed');
            return outcome.output ?? null;
          },
        });
      }
      const all = opts.tools.list();
      const active =
        opts.shortlist && all.length > opts.shortlist.size
          ? (() => {
              const keep = new Set(
                opts.shortlist.shortlister.forRequest(input.query, all, opts.shortlist.size).map((t) => t.name),
              );
              return all.filter((t) => keep.has(t.name)).map((t) => t.name);
            })()
          : undefined;
      let answer = '';
      let error: string | undefined;
      let calls: TraceCall[];
      let steps = 0;
      try {
        const result = await generateText({
          model: metered.model,
          system: opts.system ?? REACT_SYSTEM_PROMPT,
          prompt: input.query,
          tools,
          ...(active ? { activeTools: active } : {}),
          stopWhen: stepCountIs(maxSteps),
          maxRetries: 0,
          temperature: 0,
          ...(input.signal ? { abortSignal: input.signal } : {}),
        });
        answer = result.text;
        steps = result.steps.length;
        calls = result.steps.flatMap((s) =>
          s.content.flatMap((part): TraceCall[] => {
            if (part.type !== 'tool-call') return [];
            const done = executed.get(part.toolCallId);
            if (done) return [toTraceCall(done)];
            return [{ tool: part.toolName, args: isObject(part.input) ? part.input : {}, status: 'error' }];
          }),
        );
      } catch (e) {
        error = opts.model.scrub(e instanceof Error ? e.message : String(e));
        calls = order.map((id) => toTraceCall(executed.get(id)!));
        steps = metered.usage().llmCalls;
      }
      const usage = metered.usage();
      return {
        calls,
        answer,
        durationMs: performance.now() - started,
        llmCalls: usage.llmCalls,
        llmSteps: steps,
        toolCalls: calls.length,
        usage,
        ...(error ? { error } : {}),
      };
    },
  };
}

function toTraceCall(o: ToolCallOutcome): TraceCall {
  return { tool: o.tool, args: o.args, status: o.status, ...(o.output !== undefined ? { output: o.output } : {}) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
