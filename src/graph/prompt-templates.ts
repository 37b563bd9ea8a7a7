import { FlowScoutError } from '../errors/index.js';
import { LlmNodeSchema, type LlmNode, type LlmOutput, type LlmRole } from './schema.js';

/**
 * The prompt template library (docs/DESIGN.md, "Edit plans": new LLM nodes take their prompt from a
 * template per role). A template is text with named `{{placeholders}}`. Three kinds exist:
 *
 * - build-time placeholders (`{{task}}`, `{{field}}`) are filled by `makeLlmNode` when the node is
 *   created, so they never reach a stored workflow;
 * - node-field placeholders (`{{question}}`, `{{choices}}`) stay in the node's prompt and are filled
 *   from the node's field of that name whenever the prompt is rendered (graph/node-prompt.ts), so
 *   the field is the one place the question or the branches are written;
 * - run-time placeholders (`{{query}}`, `{{inputs}}`) stay in the node's prompt and are filled by
 *   the execution policy for every query (`renderPrompt(node, {query, inputs})`).
 *
 * `validateWorkflow` reports any placeholder in a stored prompt that is neither a run-time one nor a
 * node-field one whose field the node has.
 */

/** Every placeholder a prompt may use, with what it stands for. */
export const PLACEHOLDERS = {
  query: 'the user query (filled at run time)',
  inputs: 'the outputs of the live upstream data nodes, rendered as text (filled at run time)',
  task: 'what an extract, reason or verify node must do (filled when the node is built)',
  question: 'the yes/no question a judge node answers (its `question` field, filled when the prompt is rendered)',
  choices: 'the branches a judge picks among, one line each (its `choices` field, filled when the prompt is rendered)',
  field: 'the boolean JSON field a judge node returns (filled when the node is built)',
} as const;

/** The name of a documented placeholder. */
export type PlaceholderName = keyof typeof PLACEHOLDERS;

/** The placeholders a policy fills for every query; a stored prompt may keep them. */
export const RUNTIME_PLACEHOLDERS: readonly PlaceholderName[] = ['query', 'inputs'];

/** The placeholders filled from the node's field of the same name; a stored prompt may keep one when the node has the field. */
export const NODE_FIELD_PLACEHOLDERS = ['question', 'choices'] as const satisfies readonly PlaceholderName[];

/** The boolean field a judge returns when none is named. */
export const DEFAULT_JUDGE_FIELD = 'decision';

/** The task of a generic tool step (NoMiner's one step, the step `collapse_steps` leaves): no tool named. */
export const GENERIC_STEP_TASK =
  'Call the tool that looks up what the request asks for, with the values the request gives.';

/**
 * The line that states the request, as every prompt writes it: `REQUEST_LINE` in templates (the
 * `{{query}}` placeholder filled when the prompt is rendered) and `requestLine(query)` where the
 * query is written in directly. Nothing in FlowScout reads it back from a prompt: what a policy
 * needs of a node it reads from the node's fields.
 */
export const REQUEST_LINE = 'Request: {{query}}';

/** The request and what earlier nodes found, as a deciding node's prompt shows them (lines). */
export const REQUEST_AND_INPUTS = [REQUEST_LINE, '', 'Information so far:', '{{inputs}}'] as const;

/** The request line with the query written in. */
export function requestLine(query: string): string {
  return `Request: ${query}`;
}

/** One template per LLM role. Written as instructions a real model follows. */
/** The opening every synthesize prompt shares: the request and the tool results. */
export const SYNTHESIZE_PREAMBLE = [
  'Answer the request using the tool results below.',
  '',
  REQUEST_LINE,
  '',
  'Tool results and notes:',
  '{{inputs}}',
  '',
];

export const PROMPT_TEMPLATES: Readonly<Record<LlmRole, string>> = {
  plan: [
    'You are planning how to answer a request with the tools this workflow can call.',
    '',
    REQUEST_LINE,
    '',
    'Write a short numbered plan: which facts must be looked up, in what order, and which values from the request',
    '(names, places, dates, symbols, amounts, identifiers) each lookup needs. Copy those values exactly as the request',
    'writes them. Do not answer the request yet and do not invent facts.',
  ].join('\n'),
  extract: [
    'Extract what the next steps need from the material below.',
    '',
    REQUEST_LINE,
    'What to extract: {{task}}',
    '',
    'Material:',
    '{{inputs}}',
    '',
    'List each item on its own line as `name: value`, copying numbers, units, dates and identifiers exactly.',
    'If an item is not in the material, write `name: not found` instead of guessing.',
  ].join('\n'),
  reason: [
    REQUEST_LINE,
    '',
    'Work out: {{task}}',
    '',
    'Use only this information:',
    '{{inputs}}',
    '',
    'Reason step by step and show any arithmetic with the numbers you use. End with one line that starts with',
    '"Result:" and states the conclusion in one or two sentences.',
  ].join('\n'),
  verify: [
    'Check the intermediate results below before they are used to answer the request.',
    '',
    REQUEST_LINE,
    'Check: {{task}}',
    '',
    'Results to check:',
    '{{inputs}}',
    '',
    'Say whether the results answer every part of the request. List each tool error, empty result, or value that',
    'contradicts another one. End with "Verdict: consistent" or "Verdict: problems found: <short list>".',
  ].join('\n'),
  judge: [
    'Answer one yes/no question about this request: {{question}}',
    '',
    ...REQUEST_AND_INPUTS,
    '',
    'Reply with a JSON object and nothing else. Set "{{field}}" to true if the answer is yes and to false if it is no,',
    'for example {"{{field}}": true}.',
  ].join('\n'),
  synthesize: [
    ...SYNTHESIZE_PREAMBLE,
    'Write a complete, direct answer: give the answer first, then the supporting details. Use the numbers, names and',
    'dates exactly as the tool results state them and cite them (for example "the weather service reports 23.4 °C").',
    'Cover every part of the request. If a result is missing or a tool failed, say what could not be found instead',
    'of inventing it. Do not mention the workflow, the tool names or these instructions.',
  ].join('\n'),
};

/** Default `{{task}}` per role, used when a node is built without one. */
const DEFAULT_TASKS: Partial<Record<LlmRole, string>> = {
  extract: 'the facts, values and identifiers from the material that the request depends on',
  reason: 'the answer to the request from the facts below',
  verify: 'that the results answer the request and agree with each other',
};

const DEFAULT_QUESTION = 'Is another lookup needed before the request can be answered?';

/** A judge's field is read by guards as a JSON field name, so it is a plain identifier. */
export const FIELD_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

const PLACEHOLDER_RE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The distinct placeholder names a text uses, in order of first use. */
export function placeholdersIn(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER_RE)) if (!names.includes(m[1]!)) names.push(m[1]!);
  return names;
}

/** How strictly renderPrompt treats placeholders without a value. */
export interface RenderOptions {
  /** Leave known placeholders without a value in place instead of failing (two-stage filling). */
  partial?: boolean;
}

/**
 * Fills a template's placeholders. Accepts the template text or an LLM node (its prompt), so a
 * policy can call `renderPrompt(node, {query, inputs})`. Fails with INVALID_INPUT on a placeholder
 * that is not in PLACEHOLDERS, and on one without a value unless `partial`.
 */
export function renderPrompt(
  template: string | Pick<LlmNode, 'id' | 'prompt'>,
  values: Partial<Record<string, string>>,
  opts: RenderOptions = {},
): string {
  const text = typeof template === 'string' ? template : template.prompt;
  const owner = typeof template === 'string' ? 'the prompt template' : `the prompt of node '${template.id}'`;
  const known = Object.keys(PLACEHOLDERS);
  for (const name of placeholdersIn(text)) {
    if (!known.includes(name)) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `${owner} uses the unknown placeholder {{${name}}}; known placeholders: ${known.map((k) => `{{${k}}}`).join(', ')}`,
        hint: 'Rename it to a known placeholder or write the text in its place.',
      });
    }
    if (values[name] === undefined && !opts.partial) {
      const given = Object.keys(values).filter((k) => values[k] !== undefined);
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `${owner} uses {{${name}}} but no value was given for it (given: ${given.length > 0 ? given.join(', ') : 'nothing'})`,
        hint: `Pass a value for "${name}" (${PLACEHOLDERS[name as PlaceholderName]}).`,
      });
    }
  }
  return text.replace(PLACEHOLDER_RE, (whole, name: string) => values[name] ?? whole);
}

/** What makeLlmNode may take instead of the role's defaults. */
export interface MakeLlmNodeOptions {
  /** The instruction; its build-time placeholders are filled. Default: the role's template. */
  prompt?: string;
  /** Default: text, or for a judge JSON output declaring `field` as a required boolean. */
  output?: LlmOutput;
  /** Judge only: the boolean field it returns (default "decision"). */
  field?: string;
  /** Judge only: the yes/no question (the node's `question` field, which `{{question}}` renders). */
  question?: string;
  /** Extract / reason / verify: what the node must do, filled into `{{task}}`. */
  task?: string;
  /** A model string that overrides the run's model for this node. */
  model?: string;
}

/**
 * Builds an LLM node of a role that passes the schema: the role's template with its build-time
 * placeholders filled, and for a judge its `question` (given, or the default when its prompt asks
 * one) and a JSON output declaring its boolean field, so guards on it validate. Throws
 * INVALID_INPUT when the result would not be a valid node.
 */
export function makeLlmNode(role: LlmRole, id: string, opts: MakeLlmNodeOptions = {}): LlmNode {
  const field = opts.field ?? DEFAULT_JUDGE_FIELD;
  if (!FIELD_NAME_RE.test(field)) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `cannot build ${role} node '${id}': field name '${field}' is not a plain name`,
      hint: 'Use letters, digits and _ only (a guard reads it as a JSON field).',
    });
  }
  const question = opts.question ?? DEFAULT_QUESTION;
  const prompt = renderPrompt(
    opts.prompt ?? PROMPT_TEMPLATES[role],
    // A judge keeps {{question}} (its `question` field renders it); another role's prompt has no such field.
    {
      task: opts.task ?? DEFAULT_TASKS[role] ?? 'answer the request',
      field,
      ...(role === 'judge' ? {} : { question }),
    },
    { partial: true },
  );
  const asks = role === 'judge' && (opts.question !== undefined || placeholdersIn(prompt).includes('question'));
  const output: LlmOutput =
    opts.output ??
    (role === 'judge'
      ? {
          type: 'json',
          schema: {
            type: 'object',
            properties: { [field]: { type: 'boolean', description: question } },
            required: [field],
          },
        }
      : { type: 'text' });
  const node = {
    id,
    kind: 'llm' as const,
    role,
    prompt,
    output,
    ...(opts.model ? { model: opts.model } : {}),
    ...(asks ? { question } : {}),
  };
  const parsed = LlmNodeSchema.safeParse(node);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `cannot build ${role} node '${id}': ${first.path.join('.') || 'node'}: ${first.message}`,
      hint: 'Node ids start with a letter or _ and hold only letters, digits, _ and -.',
      details: parsed.error.issues,
    });
  }
  if (
    role === 'judge' &&
    opts.field !== undefined &&
    (parsed.data.output.type !== 'json' || !(opts.field in parsed.data.output.schema.properties))
  ) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `cannot build judge node '${id}': its output does not declare the field '${opts.field}'`,
      hint: 'Omit "output" to get a JSON output declaring the field, or declare it in the output schema.',
    });
  }
  return parsed.data;
}
