import { nodePromptText } from '../graph/node-prompt.js';
import { renderPrompt, placeholdersIn, requestLine } from '../graph/prompt-templates.js';
import type { LlmNode, ToolBinding, ToolHint, ToolNode } from '../graph/schema.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import type { NodeInput, PolicyContext } from './types.js';
import { clip as clipText } from '../util/clip.js';
import { renderToolDoc } from './tool-doc.js';
import { hintsSection } from '../dataflow/hint-text.js';
import { bindingSentence } from '../dataflow/render.js';

/**
 * The text the LLM policy sends (docs/DESIGN.md, "Policies"): a node's prompt filled
 * with the query and its upstream inputs, and the tool-planning prompt that lists the candidate
 * tools with their parameters (tool-doc.ts). Kept apart from the policy so tests can read what a model sees.
 */

/** Characters of upstream material a node sees when the run gives no larger context. */
export const MIN_INPUT_CHARS = 4000;
const MAX_OUTPUT_CHARS_PER_CALL = 2000;

/** Renders a value for a prompt: strings as they are, anything else as compact JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** `text` as it is, or its first `max` characters and `… [truncated]`. */
function clip(text: string, max: number): string {
  return clipText(text, max, { keepWhitespace: true, marker: '… [truncated]', markerAfterMax: true });
}

/** One upstream node's output as prompt text. */
export function renderInput(input: NodeInput): string {
  const head = `[${input.nodeId}] ${input.kind === 'tool' ? 'tool results' : `${input.role ?? 'llm'} output`}${input.status === 'error' ? ' (error)' : ''}`;
  if (input.kind === 'tool' && input.calls && input.calls.length > 0) {
    const outputs =
      Array.isArray(input.output) && input.output.length === input.calls.length ? input.output : undefined;
    const lines = input.calls.map((c, i) => {
      const out = callOutput(outputs ? outputs[i] : i === 0 ? input.output : undefined);
      return `- ${c.tool}(${asText(c.args)}) → ${c.status === 'error' ? 'ERROR: ' : ''}${clip(asText(out), MAX_OUTPUT_CHARS_PER_CALL)}`;
    });
    return `${head}\n${lines.join('\n')}`;
  }
  return `${head}\n${clip(asText(input.output), MAX_OUTPUT_CHARS_PER_CALL * 2)}`;
}

/** A tool node's output item is `{tool, args, status, output?, error?}` (runtime); show its output or error. */
function callOutput(item: unknown): unknown {
  if (item && typeof item === 'object' && 'tool' in item && 'status' in item) {
    const c = item as { output?: unknown; error?: string };
    return c.error !== undefined && c.output === undefined ? c.error : c.output;
  }
  return item;
}

/** All inputs, within the run's context budget (at least MIN_INPUT_CHARS). */
export function renderInputs(ctx: Pick<PolicyContext, 'inputs' | 'context'>): string {
  if (ctx.inputs.length === 0) return '(no upstream results)';
  const budget = Math.max(MIN_INPUT_CHARS, ctx.context.length);
  return clip(ctx.inputs.map(renderInput).join('\n\n'), budget);
}

const ROLE_SYSTEM: Record<LlmNode['role'], string> = {
  plan: 'You plan how a tool-using workflow will answer a request. Be brief and concrete.',
  extract: 'You extract facts and values exactly as written. Never guess.',
  reason: 'You reason carefully over given facts and show the arithmetic you do.',
  verify: 'You check intermediate results for errors, gaps and contradictions.',
  judge: 'You answer a yes/no routing question with a JSON object and nothing else.',
  synthesize: 'You write the final answer for the user from tool results. Use their exact numbers and names.',
};

/**
 * The system prompt of an LLM node: its role and, for JSON nodes, that the answer is one JSON object
 * of the requested schema (the request carries the schema as its response format, so it is not
 * written out again here). It is the same for every record, so it comes first (see PromptParts).
 */
export function systemFor(node: LlmNode): string {
  if (node.output.type !== 'json') return ROLE_SYSTEM[node.role];
  return `${ROLE_SYSTEM[node.role]} Reply with one JSON object that matches the requested schema, and nothing else.`;
}

/**
 * An LLM node's prompt as a model reads it (its question, choices and directives rendered in:
 * graph/node-prompt.ts) with `{{query}}` and `{{inputs}}` filled, in two parts: the template's text
 * up to the paragraph of its first placeholder (the same for every record) and the rest. A prompt
 * that uses neither placeholder gets the request and the inputs appended, so no node runs blind.
 */
export function renderNodePromptParts(
  node: LlmNode,
  ctx: Pick<PolicyContext, 'query' | 'inputs' | 'context'>,
): PromptParts {
  const inputs = renderInputs(ctx);
  // The node's question, choices and directives first: they are the same for every record.
  const prompt = nodePromptText(node);
  const used = placeholdersIn(prompt);
  const first = prompt.search(/\{\{/);
  const cut = first < 0 ? prompt.length : prompt.lastIndexOf('\n\n', first);
  const head = first < 0 ? prompt : cut < 0 ? '' : prompt.slice(0, cut);
  const tail = first < 0 ? '' : cut < 0 ? prompt : prompt.slice(cut + 2);
  const stable = renderPrompt({ id: node.id, prompt: head }, {}, { partial: true });
  const parts = tail
    ? [renderPrompt({ id: node.id, prompt: tail }, { query: ctx.query, inputs }, { partial: true })]
    : [];
  if (!used.includes('query')) parts.push(requestLine(ctx.query));
  if (!used.includes('inputs') && ctx.inputs.length > 0) parts.push(`Upstream results:\n${inputs}`);
  return { stable, variable: parts.join('\n\n') };
}

/** An LLM node's prompt as one text (see renderNodePromptParts). */
export function renderNodePrompt(node: LlmNode, ctx: Pick<PolicyContext, 'query' | 'inputs' | 'context'>): string {
  return joinPrompt(renderNodePromptParts(node, ctx));
}

/** A candidate tool as the planner sees it (tool-doc.ts: its description's summary and one line per parameter). */
export { renderToolDoc } from './tool-doc.js';

export const PLAN_SYSTEM =
  'You choose tool calls for one step of a workflow. Pick tools only from the list given, fill every required ' +
  'argument with a value taken from the request or the upstream results (copy names, codes, ids and numbers exactly), ' +
  'and reply with one JSON object {"calls": [{"tool": <name>, "args": {…}}]} and nothing else.';

/**
 * A prompt in two parts, laid out for providers' prompt caches (docs/ARCHITECTURE.md, "What a model
 * request costs"): `stable` is the same for every record a node runs on (the node's step, its fixed
 * instructions, the tool schemas when they do not depend on the record), `variable` carries the
 * request and the upstream results. The client sends the stable part first, so OpenAI's automatic
 * prefix cache can reuse it, and marks it as an Anthropic cache breakpoint.
 */
export interface PromptParts {
  stable: string;
  variable: string;
}

/** The whole prompt text of a laid-out prompt (what a model reads). */
export function joinPrompt(parts: PromptParts): string {
  return parts.stable && parts.variable ? `${parts.stable}\n\n${parts.variable}` : parts.stable || parts.variable;
}

/** What the plan prompt says about the list when it is a shortlist of the candidates. */
export function shortlistNote(shown: number, total: number): string {
  return `These are the ${shown} of the step's ${total} tools that best match the request; if none of them can do the step, name the tool you need and you will be shown the full list.`;
}

/**
 * The tool-planning prompt of a tool node, stable part first: the candidate tools (the shortlist,
 * when there is one, in the candidates' own order), the step, the rule for how many calls, the
 * workflow's hints and bindings, then the request, the upstream results and a retry's previous error.
 */
export function renderPlanPromptParts(
  node: ToolNode,
  candidates: readonly ToolDescriptor[],
  ctx: Pick<PolicyContext, 'query' | 'inputs' | 'context'> & {
    previousError?: string;
    totalCandidates?: number;
    parts?: readonly string[];
    bound?: Record<string, Record<string, unknown>>;
    /** The workflow's hints about the shown tools (graph/hints.ts). */
    hints?: readonly ToolHint[];
    /** The workflow's bindings of the shown tools' parameters (graph/hints.ts `bindingsFor`). */
    bindings?: readonly ToolBinding[];
  },
): PromptParts {
  const many = node.calls === 'many';
  const hints = hintsSection(ctx.hints ?? []);
  const total = ctx.totalCandidates ?? candidates.length;
  // The candidate tools come first: the steps of one request show the same shortlist, so from the
  // second step on a provider's prefix cache serves the list (they are the bulk of the request).
  const stable = [
    `Candidate tools:\n${candidates.map(renderToolDoc).join('\n\n')}`,
    ...(total > candidates.length ? [shortlistNote(candidates.length, total)] : []),
    `Step: ${node.task}`,
    many
      ? 'Make one call per distinct item this step must look up (as many calls as needed; an empty list if nothing needs looking up).'
      : node.optional
        ? 'Make at most one call: the single tool that best performs this step, or an empty list when the request does not need this step.'
        : 'Make exactly one call: the single tool that best performs this step.',
    'Do not repeat a call the upstream results already show (the same tool with the same arguments): its result is already there.',
    ...(hints ? [hints] : []),
    ...(ctx.bindings?.length
      ? [
          `Arguments the workflow fills (set for you, whatever you write; fill the others):\n${ctx.bindings
            .map((b) => `- ${b.tool}: ${bindingSentence(b)}`)
            .join('\n')}`,
        ]
      : []),
  ];
  const variable = [
    requestLine(ctx.query),
    ...(ctx.parts ? [handOffText(ctx.parts, many)] : []),
    `Upstream results:\n${renderInputs(ctx)}`,
  ];
  const bound = Object.entries(ctx.bound ?? {}).flatMap(([tool, args]) =>
    Object.entries(args).map(([k, v]) => `${tool}.${k} = ${clip(JSON.stringify(v), 200)}`),
  );
  if (bound.length > 0)
    variable.push(
      `Bound by the workflow (these values are set for you; fill only the other parameters):\n${bound.join('\n')}`,
    );
  if (ctx.previousError)
    variable.push(
      `The previous attempt at this step failed with: ${clip(ctx.previousError, 800)}\nChoose differently if that helps.`,
    );
  return { stable: stable.join('\n\n'), variable: variable.join('\n\n') };
}

/** The tool-planning prompt of a tool node as one text (see renderPlanPromptParts). */
export function renderPlanPrompt(
  node: ToolNode,
  candidates: readonly ToolDescriptor[],
  ctx: Pick<PolicyContext, 'query' | 'inputs' | 'context'> & {
    previousError?: string;
    totalCandidates?: number;
    parts?: readonly string[];
    bound?: Record<string, Record<string, unknown>>;
    hints?: readonly ToolHint[];
    bindings?: readonly ToolBinding[];
  },
): string {
  return joinPrompt(renderPlanPromptParts(node, candidates, ctx));
}

/**
 * What the plan-to-position hand-off (hand-off.ts) gives this step: the parts of the request it
 * serves, in order, or that no part fits it.
 */
export function handOffText(parts: readonly string[], many: boolean): string {
  if (parts.length === 0) {
    return many
      ? "Your part of the request: none. The request's parts fit other steps better; return an empty list unless something the request asks for is still left for this step."
      : 'Your part of the request: none fits this step better than the other steps; make the one call that serves what the request still needs.';
  }
  const list = parts.map((p, i) => `${i + 1}. ${p}`).join('\n');
  return parts.length === 1
    ? `Your part of the request (the other parts go to other steps):\n${list}`
    : `Your parts of the request (one call for each, in order; the other parts go to other steps):\n${list}`;
}

/** The repair prompt: the original prompt, what the model answered, and what was wrong with it. */
export function renderRepairPrompt(original: string, answer: string, problems: readonly string[]): string {
  return [
    original,
    `Your previous answer was:\n${clip(answer, 2000)}`,
    `It was rejected because:\n${problems.map((p) => `- ${p}`).join('\n')}`,
    'Reply again with a corrected JSON object only.',
  ].join('\n\n');
}
