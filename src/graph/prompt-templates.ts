import { FlowScoutError } from '../errors/index.js';
import { LlmNodeSchema, type LlmNode, type LlmOutput, type LlmRole } from './schema.js';

/**
 * The prompt template library (docs/DESIGN.md, "Edit plans": new LLM nodes take their prompt from a
 * template per role). A template is text with named `{{placeholders}}`. Two kinds exist:
 *
 * - build-time placeholders (`{{task}}`, `{{question}}`, `{{field}}`) are filled by `makeLlmNode`
 *   when the node is created, so they never reach a stored workflow;
 * - run-time placeholders (`{{query}}`, `{{inputs}}`) stay in the node's prompt and are filled by
 *   the execution policy for every query (`renderPrompt(node, {query, inputs})`).
 *
 * `validateWorkflow` reports any placeholder in a stored prompt that is not a run-time one.
 */

/** Every placeholder a prompt may use, with what it stands for. */
export const PLACEHOLDERS = {
  query: 'the user query (filled at run time)',
  inputs: 'the outputs of the live upstream data nodes, rendered as text (filled at run time)',
  task: 'what an extract, reason or verify node must do (filled when the node is built)',
  question: 'the yes/no question a judge node answers (filled when the node is built)',
  field: 'the boolean JSON field a judge node returns (filled when the node is built)',
} as const;

/** The name of a documented placeholder. */
export type PlaceholderName = keyof typeof PLACEHOLDERS;

/** The placeholders a policy fills for every query; the only ones a stored prompt may keep. */
export const RUNTIME_PLACEHOLDERS: readonly PlaceholderName[] = ['query', 'inputs'];

/** The boolean field a judge returns when none is named. */
export const DEFAULT_JUDGE_FIELD = 'decision';

/**
 * The line that states the request, as every prompt writes it: `REQUEST_LINE` in templates (the
 * `{{query}}` placeholder filled when the prompt is rendered), `requestLine(query)` where the query
 * is written in directly, and `readRequestLine(prompt)` to find it again (the one reader of it).
 */
export const REQUEST_LINE = 'Request: {{query}}';

/** The request line with the query written in. */
export function requestLine(query: string): string {
  return `Request: ${query}`;
}

/** The query a prompt's request line states (its first line that starts `Request: `), if any. */
export function readRequestLine(prompt: string): string | undefined {
  return /^Request: (.*)$/m.exec(prompt)?.[1];
}

/** One template per LLM role. Written as instructions a real model follows. */
/** The opening every synthesize prompt shares: the request and the tool results. */
const SYNTHESIZE_PREAMBLE = [
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
    REQUEST_LINE,
    '',
    'Information so far:',
    '{{inputs}}',
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
  /** Judge only: the yes/no question, filled into `{{question}}`. */
  question?: string;
  /** Extract / reason / verify: what the node must do, filled into `{{task}}`. */
  task?: string;
  /** A model string that overrides the run's model for this node. */
  model?: string;
}

/**
 * Builds an LLM node of a role that passes the schema: the role's template with its build-time
 * placeholders filled, and for a judge a JSON output declaring its boolean field, so guards on it
 * validate. Throws INVALID_INPUT when the result would not be a valid node.
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
    { task: opts.task ?? DEFAULT_TASKS[role] ?? 'answer the request', question, field },
    { partial: true },
  );
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
  const node = { id, kind: 'llm' as const, role, prompt, output, ...(opts.model ? { model: opts.model } : {}) };
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

/**
 * Synthesizer directives (what the optimizer adds when answers score low: docs/DESIGN.md, "Search"): the
 * instructions a synthesize prompt may add to say *how* to write the answer. Each is one sentence
 * that a real model follows as written; the offline policy recognises the exact sentence in a prompt
 * (case and spacing aside) and maps it to a deterministic rendering (`policies/offline/synthesize.ts`
 * documents the mapping), so the search can optimise the answer without a model. When two directives
 * set the same thing (e.g. `brief` and `all-figures`), the one written later in the prompt wins, as
 * a later instruction would. `dims` names the judge dimensions the directive is meant to raise (the
 * rule-based optimizer reads it); `overrides` marks a directive that only matters after the one it
 * names.
 */
export const SYNTHESIZE_DIRECTIVES = {
  'answer-first': {
    sentence: 'Open with one sentence that states the key figures and names the results give, then the details.',
    dims: ['relevance', 'correctness'],
  },
  'results-only': {
    sentence: 'Use only the tool results, each result once; leave out planning notes and yes/no decisions.',
    dims: ['clarity'],
  },
  'every-result': {
    sentence: 'Report every tool result, including the lookups that failed, leaving none out.',
    dims: ['completeness'],
    /** What the role template already asks; as an addition it only takes back `answered-only`. */
    overrides: 'answered-only',
  },
  'answered-only': {
    sentence: 'Report only the results that answer the request; leave out lookups that failed or returned nothing.',
    dims: ['clarity', 'relevance'],
  },
  'failures-brief': {
    sentence:
      'Mention each lookup that failed in one short sentence saying what could not be retrieved, without quoting the error.',
    dims: ['clarity'],
  },
  'one-fact-per-line': {
    sentence:
      'Give each result a short heading line, then one fact per line as a "name: value" item; never paste raw JSON.',
    dims: ['clarity'],
  },
  'all-figures': {
    sentence: 'Keep every figure, date, code and name the results give, verbatim and unrounded; leave none out.',
    dims: ['correctness', 'completeness'],
  },
  brief: {
    sentence: 'Be brief: give at most the four most important facts of each result.',
    dims: ['clarity'],
  },
  'plain-words': {
    sentence: 'Write field names as plain words (review rating, not review_rating or reviewRating).',
    dims: ['completeness', 'relevance'],
  },
} as const satisfies Record<
  string,
  { sentence: string; dims: readonly ('correctness' | 'completeness' | 'relevance' | 'clarity')[]; overrides?: string }
>;

/** The id of a synthesizer directive. */
export type SynthesizeDirective = keyof typeof SYNTHESIZE_DIRECTIVES;

/** Every directive id, in a fixed order. */
export const SYNTHESIZE_DIRECTIVE_IDS = Object.keys(SYNTHESIZE_DIRECTIVES) as SynthesizeDirective[];

/**
 * Named synthesize prompts: the role's default template, and variants that replace its writing
 * instructions with a set of directives. The optimizers switch a synthesizer between them.
 */
export const SYNTHESIZE_VARIANTS = {
  default: {
    summary: 'the role template: a direct answer citing every result, failures with their error',
    directives: [],
  },
  'answer-first': {
    summary: 'the key facts in one opening sentence, tool results only, failures in a short sentence',
    directives: ['results-only', 'answer-first', 'failures-brief'],
  },
  clean: {
    summary: 'tool results only, each once, failures in a short sentence',
    directives: ['results-only', 'failures-brief'],
  },
  'fact-lines': {
    summary: 'tool results only, one fact per line, failures in a short sentence',
    directives: ['results-only', 'failures-brief', 'one-fact-per-line'],
  },
  detailed: {
    summary: 'every figure and name verbatim, one fact per line in plain words, failures in a short sentence',
    directives: ['results-only', 'failures-brief', 'one-fact-per-line', 'all-figures', 'plain-words'],
  },
  'answered-only': {
    summary: 'only the results that answer the request, one fact per line',
    directives: ['results-only', 'answered-only', 'one-fact-per-line'],
  },
  brief: {
    summary: 'the four key facts of each result, failures in a short sentence',
    directives: ['results-only', 'failures-brief', 'brief'],
  },
} as const satisfies Record<string, { summary: string; directives: readonly SynthesizeDirective[] }>;

/** The name of a synthesize prompt variant. */
export type SynthesizeVariant = keyof typeof SYNTHESIZE_VARIANTS;

/** Every variant name, in a fixed order (`default` first). */
export const SYNTHESIZE_VARIANT_IDS = Object.keys(SYNTHESIZE_VARIANTS) as SynthesizeVariant[];

const SYNTHESIZE_HEAD = [
  ...SYNTHESIZE_PREAMBLE,
  'Introduce each result with what was looked up and the values used for it. Do not invent facts. Follow these instructions:',
].join('\n');

/** A directive as a prompt line (what a refinement appends). */
export function directiveLine(id: SynthesizeDirective): string {
  return `- ${SYNTHESIZE_DIRECTIVES[id].sentence}`;
}

/** The full synthesize prompt of a variant (`default` is the role template). */
export function synthesizeVariantPrompt(variant: SynthesizeVariant): string {
  const directives: readonly SynthesizeDirective[] = SYNTHESIZE_VARIANTS[variant].directives;
  if (directives.length === 0) return PROMPT_TEMPLATES.synthesize;
  return [SYNTHESIZE_HEAD, ...directives.map(directiveLine)].join('\n');
}

const squash = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

/**
 * The directives a prompt contains, in the order they are written (each once, at its last
 * occurrence), recognised by their exact sentence, case and spacing aside.
 */
export function synthesizeDirectivesIn(prompt: string): SynthesizeDirective[] {
  const text = squash(prompt);
  return SYNTHESIZE_DIRECTIVE_IDS.map((id) => ({
    id,
    at: text.lastIndexOf(squash(SYNTHESIZE_DIRECTIVES[id].sentence)),
  }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((x) => x.id);
}

/** The variant whose directives a prompt holds exactly (as a set), if any; `default` for none. */
export function synthesizeVariantOf(prompt: string): SynthesizeVariant | undefined {
  const have = new Set(synthesizeDirectivesIn(prompt));
  return SYNTHESIZE_VARIANT_IDS.find((v) => {
    const want: readonly SynthesizeDirective[] = SYNTHESIZE_VARIANTS[v].directives;
    return want.length === have.size && want.every((d) => have.has(d));
  });
}
