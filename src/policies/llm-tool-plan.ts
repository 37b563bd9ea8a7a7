import { bindingsFor } from '../graph/hints.js';
import { jsonSchema } from 'ai';
import type { LlmClient } from '../llm/client.js';
import { askWithRepair } from '../llm/ask-with-repair.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { hintFor } from '../graph/hints.js';
import type { ToolHint } from '../graph/schema.js';
import { compileArgsValidator, createAjv, type ArgsValidator } from '../tools/validate-args.js';
import { PLAN_SYSTEM, renderPlanPromptParts, renderRepairPrompt } from './llm-prompts.js';
import type { ToolShortlister } from './tool-shortlist.js';
import type { PlannedCall, ToolPlanRequest, ToolPlanResult } from './types.js';
import type { Usage } from '../llm/usage.js';

/**
 * Tool-node planning by an LLM (docs/DESIGN.md, "Policies"): one structured output
 * (`generateText` + `Output.object`) naming the tool(s) and their arguments; every call is checked
 * — the tool must be a candidate, the arguments must fit its input schema (ajv) — and a rejected plan
 * gets exactly one repair round with the problems; after that the node gets `error` and the runtime
 * records an error observation. With a shortlister, the first round lists only the k candidates that
 * rank best for the request (tool-shortlist.ts); the model may still name any candidate, and when it
 * names a tool that is not one, the repair round lists every candidate. Model failures that survived the client's retries also end as
 * `error` (the run goes on); budget exhaustion and cancellation propagate.
 */

/** The shape the model must return. */
export function planSchema(candidates: readonly ToolDescriptor[]) {
  return {
    type: 'object',
    properties: {
      calls: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            tool: { type: 'string', enum: candidates.map((t) => t.name) },
            args: { type: 'object', description: "the tool's arguments, matching its input schema" },
          },
          required: ['tool', 'args'],
        },
      },
    },
    required: ['calls'],
  } as const;
}

/** Validators per tool schema, compiled once per policy. */
export interface PlanValidators {
  forTool(tool: ToolDescriptor): ArgsValidator;
}

export function createPlanValidators(): PlanValidators {
  const ajv = createAjv();
  const cache = new Map<ToolDescriptor, ArgsValidator>();
  return {
    forTool(tool) {
      let v = cache.get(tool);
      if (!v) cache.set(tool, (v = compileArgsValidator(ajv, tool.name, tool.inputSchema)));
      return v;
    },
  };
}

/** Checks a model's plan; returns the coerced calls or the problems, phrased for the model. */
export function checkPlan(
  value: unknown,
  candidates: readonly ToolDescriptor[],
  mode: 'one' | 'at-most-one' | 'many',
  validators: PlanValidators,
  bound?: ToolPlanRequest['bound'],
): { ok: true; calls: PlannedCall[] } | { ok: false; problems: string[]; unknownTool: boolean } {
  const raw = (value as { calls?: unknown } | null)?.calls;
  if (!Array.isArray(raw))
    return { ok: false, problems: ['the answer must be an object with a "calls" array'], unknownTool: false };
  const problems: string[] = [];
  const calls: PlannedCall[] = [];
  const names = candidates.map((t) => t.name);
  let unknownTool = false;
  raw.forEach((c, i) => {
    const call = c as { tool?: unknown; args?: unknown } | null;
    const tool = typeof call?.tool === 'string' ? candidates.find((t) => t.name === call.tool) : undefined;
    if (!tool) {
      unknownTool = true;
      problems.push(
        `calls[${i}]: tool ${JSON.stringify(call?.tool)} is not one of the candidate tools (${names.length <= 20 ? names.join(', ') : 'the names listed under "Candidate tools"'})`,
      );
      return;
    }
    const args = call?.args ?? {};
    if (typeof args !== 'object' || Array.isArray(args)) {
      problems.push(`calls[${i}] (${tool.name}): "args" must be an object`);
      return;
    }
    // Bound parameters are the workflow's: they count as given, whatever the model wrote for them.
    const check = validators.forTool(tool)({ ...(args as Record<string, unknown>), ...(bound?.[tool.name] ?? {}) });
    if (!check.ok) problems.push(`calls[${i}]: ${check.message}`);
    else calls.push({ tool: tool.name, args: check.args });
  });
  if (mode === 'one' && raw.length !== 1)
    problems.push(`this step makes exactly one call, but the answer has ${raw.length}`);
  if (mode === 'at-most-one' && raw.length > 1)
    problems.push(`this step makes at most one call, but the answer has ${raw.length}`);
  return problems.length > 0 ? { ok: false, problems, unknownTool } : { ok: true, calls };
}

/** How many candidates a plan request lists. */
export interface ShortlistOptions {
  shortlister: ToolShortlister;
  /** The shortlist size k (a node with at most k candidates lists them all). */
  size: number;
}

/**
 * The first plan request of a tool node as it is sent: the tools shown (the shortlist, in the
 * candidates' order, when there are more candidates than its size), the prompt in its two parts and
 * the answer's JSON schema. The cost projection (search/project-cost.ts) renders requests with it too.
 */
export function planRequest(req: ToolPlanRequest, shortlist?: ShortlistOptions, parts?: readonly string[]) {
  const ctx = {
    query: req.query,
    inputs: req.inputs,
    context: req.context,
    totalCandidates: req.candidates.length,
    ...(req.previousError ? { previousError: req.previousError } : {}),
    ...(parts ? { parts } : {}),
    ...(req.bound ? { bound: req.bound } : {}),
  };
  const shown =
    shortlist && req.candidates.length > shortlist.size
      ? inCandidateOrder(shortlist.shortlister.shortlist(req, shortlist.size), req.candidates)
      : req.candidates;
  const hints = hintsOf(req, shown);
  const bindings = shown.flatMap((t) => bindingsFor(req.workflow, req.node, t.name));
  const withHints = {
    ...ctx,
    ...(hints.length > 0 ? { hints } : {}),
    ...(bindings.length > 0 ? { bindings } : {}),
  };
  return {
    ctx: withHints,
    shown,
    prompt: renderPlanPromptParts(req.node, shown, withHints),
    schema: planSchema(shown),
  };
}

/** The workflow's hints about the tools a request shows (the node's own first: graph/hints.ts). */
function hintsOf(req: ToolPlanRequest, shown: readonly ToolDescriptor[]): ToolHint[] {
  return shown.map((t) => hintFor(req.workflow, req.node, t.name)).filter((h): h is ToolHint => h !== undefined);
}

/** Plans a tool node's calls with one repair round (see the file comment). */
export async function planToolCallsWithLlm(
  client: LlmClient,
  req: ToolPlanRequest,
  validators: PlanValidators,
  shortlist?: ShortlistOptions,
  parts?: readonly string[],
): Promise<ToolPlanResult> {
  const model = client.spec;
  if (req.candidates.length === 0)
    return { calls: [], model, error: `node '${req.node.id}' has no candidate tools to call` };
  const mode = req.node.calls === 'many' ? 'many' : req.node.optional ? 'at-most-one' : 'one';
  const first = planRequest(req, shortlist, parts);
  const { ctx, shown } = first;
  let prompt = first.prompt;
  let unknownTool = false;
  const result = await askWithRepair(client, {
    request: {
      schema: jsonSchema<unknown>(first.schema as never),
      name: 'tool_calls',
      system: PLAN_SYSTEM,
      stablePrompt: prompt.stable,
      prompt: prompt.variable,
      ...(req.signal ? { signal: req.signal } : {}),
    },
    check: (answer) => {
      const checked = checkPlan(answer, req.candidates, mode, validators, req.bound);
      unknownTool = !checked.ok && Boolean(checked.unknownTool);
      return checked.ok ? { ok: true, value: checked.calls } : { ok: false, problems: checked.problems };
    },
    repair: ({ text, problems }) => {
      if (shown.length < req.candidates.length && unknownTool) {
        // The model looked for a tool the shortlist did not show: the repair round shows them all.
        prompt = renderPlanPromptParts(req.node, req.candidates, ctx);
        return {
          stablePrompt: prompt.stable,
          prompt: renderRepairPrompt(prompt.variable, text, problems),
          schema: jsonSchema<unknown>(planSchema(req.candidates) as never),
        };
      }
      return { prompt: renderRepairPrompt(prompt.variable, text, problems) };
    },
  });
  const usage = result.usage;
  if (result.kind === 'ok') return { calls: result.value, model, usage: result.usage };
  if (result.kind === 'model-error')
    return { calls: [], model, ...(usage ? { usage } : {}), error: result.error.message };
  return giveUp(req, model, usage, result.problems);
}

/** The shortlisted tools in the candidates' order (a stable order keeps the prompt's prefix the same across records). */
function inCandidateOrder(
  shortlist: readonly ToolDescriptor[],
  candidates: readonly ToolDescriptor[],
): ToolDescriptor[] {
  const keep = new Set(shortlist);
  return candidates.filter((c) => keep.has(c));
}

function giveUp(
  req: ToolPlanRequest,
  model: string,
  usage: Usage | undefined,
  problems: readonly string[],
): ToolPlanResult {
  return {
    calls: [],
    model,
    ...(usage ? { usage } : {}),
    error: `no valid tool plan for node '${req.node.id}' after one repair round: ${problems.join('; ')}`,
  };
}
