import { jsonSchema } from 'ai';
import type { ValidateFunction } from 'ajv';
import { FlowScoutError } from '../errors/index.js';
import type { LlmNode, Workflow, WorkflowNode } from '../graph/schema.js';
import type { LlmClient } from '../llm/client.js';
import { askWithRepair } from '../llm/ask-with-repair.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { fitFromScores, handOff, handOffScope, partScores, partsFor, type PartFit } from '../retrieval/hand-off.js';
import type { ToolIndex } from '../retrieval/tool-index.js';
import { workflowIndexes } from '../retrieval/workflow-index.js';
import { bindingsFor, hintsKey } from '../graph/hints.js';
import { createAjv, describeAjvError } from '../tools/validate-args.js';
import { renderNodePromptParts, renderRepairPrompt, systemFor } from './llm-prompts.js';
import { createPlanValidators, planToolCallsWithLlm, type ShortlistOptions } from './llm-tool-plan.js';
import { createToolShortlister, DEFAULT_SHORTLIST_SIZE } from './tool-shortlist.js';
import type { ExecutionPolicy, LlmNodeRequest, LlmNodeResult, PlannedCall, ToolPlanRequest } from './types.js';

/**
 * The LLM policy (docs/DESIGN.md, "Policies"): any AI SDK model runs the LLM nodes (text,
 * or JSON validated against the node's declared schema with one repair round) and plans the tool
 * nodes (see llm-tool-plan.ts). A node's own `model` overrides the run's model through the registry,
 * sharing the run's limiter, budget and counters.
 */

export interface LlmPolicyOptions {
  client: LlmClient;
  /** The model string shown in labels (default: the client's). */
  spec?: string;
  /** The tools T of the run: the shortlist's retrieval index and what the hand-off ranks parts against (default: the candidates of the first plan request). */
  tools?: readonly ToolDescriptor[];
  /**
   * How many candidate tools a plan request lists, best-ranked first (tool-shortlist.ts; default
   * DEFAULT_SHORTLIST_SIZE). 0 lists every candidate.
   */
  shortlist?: number;
}

/**
 * What the LLM policy's hand-off ranks the request's parts against: T, with the words the workflow's
 * hints say requests use for each tool (the retrieval every policy shares), per workflow.
 */
export function handOffFit(tools: readonly ToolDescriptor[]): (workflow: Workflow) => PartFit {
  const indexes = workflowIndexes(tools);
  const names = tools.map((t) => t.name);
  const fits = new WeakMap<ToolIndex, PartFit>();
  return (workflow) => {
    const index = indexes.of(workflow);
    let fit = fits.get(index);
    if (!fit) fits.set(index, (fit = fitFromScores(partScores(index, names))));
    return fit;
  };
}

/**
 * The call a node makes with no model: it has one candidate tool and the workflow binds every
 * parameter of it (the runtime fills them), so there is nothing for a model to decide. The cost
 * projection counts alike.
 */
export function fullyBoundCall(req: ToolPlanRequest): PlannedCall | undefined {
  if (req.candidates.length !== 1) return undefined;
  const tool = req.candidates[0]!;
  const props = Object.keys((tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {});
  const bound = req.bound?.[tool.name] ?? {};
  const boundParams = new Set(bindingsFor(req.workflow, req.node, tool.name).map((b) => b.param));
  if (!props.every((p) => boundParams.has(p) && p in bound)) return undefined;
  return { tool: tool.name, args: { ...bound } };
}

/**
 * A position that may make no call (`calls: 'many'`) and is handed no part of the request asks no
 * model: it makes no call, as the offline policy makes none there. The cost projection counts alike.
 */
export function asksNoModel(req: ToolPlanRequest, parts: readonly string[]): boolean {
  return (
    parts.length === 0 &&
    (req.node.calls === 'many' || req.node.optional === true) &&
    req.workflow.nodes.some((n) => n.id === req.node.id)
  );
}

/** Creates the LLM policy (`id: llm:<spec>`, label `LLM policy (<spec>)`). */
export function createLlmPolicy(options: LlmPolicyOptions): ExecutionPolicy {
  const spec = options.spec ?? options.client.spec;
  const clients = new Map<string, Promise<LlmClient>>();
  const validators = createPlanValidators();
  // The plan-to-position hand-off (hand-off.ts) over T, when T is known.
  const all = options.tools ?? [];
  const fit = all.length > 0 ? handOffFit(all) : undefined;
  const ajv = createAjv();
  const outputValidators = new Map<LlmNode, ValidateFunction>();
  const size = options.shortlist ?? DEFAULT_SHORTLIST_SIZE;
  let shortlist: ShortlistOptions | undefined;
  const shortlistFor = (candidates: readonly ToolDescriptor[]): ShortlistOptions | undefined => {
    if (!(size > 0)) return undefined;
    shortlist ??= {
      size,
      shortlister: createToolShortlister({ tools: options.tools ?? candidates }),
    };
    return shortlist;
  };

  const clientFor = (node: { model?: string | undefined }): Promise<LlmClient> => {
    const other = node.model?.trim();
    if (!other || other === options.client.spec) return Promise.resolve(options.client);
    let c = clients.get(other);
    if (!c) {
      c = options.client.forModel(other);
      clients.set(other, c);
      c.catch(() => clients.delete(other));
    }
    return c;
  };

  const outputValidator = (node: LlmNode): ValidateFunction | undefined => {
    if (node.output.type !== 'json') return undefined;
    let v = outputValidators.get(node);
    if (!v) outputValidators.set(node, (v = ajv.compile(node.output.schema)));
    return v;
  };

  async function runLlmNode(req: LlmNodeRequest): Promise<LlmNodeResult> {
    const node = req.node;
    const client = await clientFor(node);
    const system = systemFor(node);
    const { stable: stablePrompt, variable: prompt } = renderNodePromptParts(node, req);
    const signal = req.signal ? { signal: req.signal } : {};
    if (node.output.type === 'text') {
      const r = await client.text({ system, stablePrompt, prompt, ...signal });
      return { output: r.value, usage: r.usage, model: r.model };
    }
    const schema = jsonSchema<Record<string, unknown>>(node.output.schema as never);
    const validate = outputValidator(node)!;
    const result = await askWithRepair(client, {
      request: { schema, name: `${node.id}_output`, system, stablePrompt, prompt, ...signal },
      check: (value) =>
        value && typeof value === 'object' && !Array.isArray(value) && validate(value)
          ? { ok: true, value: value as Record<string, unknown> }
          : {
              ok: false,
              problems:
                value && typeof value === 'object' && !Array.isArray(value)
                  ? [...new Set((validate.errors ?? []).map(describeAjvError))]
                  : ['the answer must be a JSON object'],
            },
      repair: ({ text, problems }) => ({ prompt: renderRepairPrompt(prompt, text, problems) }),
    });
    if (result.kind === 'ok') return { output: result.value, usage: result.usage, model: result.model };
    if (result.kind === 'model-error') throw result.error;
    const { problems, usage } = result;
    throw new FlowScoutError({
      code: 'MODEL_ERROR',
      message: `node '${node.id}': model '${client.spec}' gave no valid JSON output after one repair round: ${problems.join('; ')}`,
      hint: "Simplify the node's output schema or use a stronger model.",
      details: { node: node.id, model: client.spec, problems, usage },
    });
  }

  return {
    id: `llm:${spec}`,
    kind: 'llm',
    label: `LLM policy (${spec})`,
    runLlmNode,
    async planToolCalls(req) {
      const client = await clientFor({});
      const parts = fit
        ? partsFor(handOff(req.query, req.workflow, fit(req.workflow), req.node.id), req.node.id)
        : undefined;
      if (parts && asksNoModel(req, parts)) return { calls: [], model: client.spec };
      const bound = fullyBoundCall(req);
      if (bound) return { calls: [bound], model: 'bound' };
      return planToolCallsWithLlm(client, req, validators, shortlistFor(req.candidates), parts);
    },
    // The tool-plan prompt names the node's parts of the request, which depend on every tool position,
    // and shows the hints of the shown tools, which other nodes may keep (graph/hints.ts).
    memoScope: (workflow: Workflow, node: WorkflowNode) =>
      node.kind === 'tool'
        ? [fit ? handOffScope(workflow, node) : '', hintsKey(workflow)].filter(Boolean).join(', ')
        : '',
  };
}
