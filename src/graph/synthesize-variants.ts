import { PROMPT_TEMPLATES, SYNTHESIZE_PREAMBLE } from './prompt-templates.js';

/**
 * The synthesize prompt library the search draws on (prompt-templates.ts holds one template per
 * role): the directives a synthesize node may list, and the named variants made of them.
 */

/**
 * Synthesizer directives (what the optimizer adds when answers score low: docs/DESIGN.md, "Search"): the
 * instructions a synthesize node may add to say *how* to write the answer. A node lists their ids in
 * its `directives` field; each is one sentence that a real model follows as written (the sentences
 * are appended to the node's prompt when it is rendered for a model: graph/node-prompt.ts), and the
 * offline policy maps each id to a deterministic rendering (`policies/offline/synthesize.ts`
 * documents the mapping), so the search can optimise the answer without a model. When two directives
 * set the same thing (e.g. `brief` and `all-figures`), the one listed later wins, as a later
 * instruction would. `dims` names the judge dimensions the directive is meant to raise (the
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

/** True when `id` is the id of a directive of the library. */
export function isSynthesizeDirective(id: string): id is SynthesizeDirective {
  return Object.prototype.hasOwnProperty.call(SYNTHESIZE_DIRECTIVES, id);
}

/** What the directives follow in a variant's prompt: the request, the results and a lead-in to the instructions. */
const SYNTHESIZE_HEAD = [
  ...SYNTHESIZE_PREAMBLE,
  'Introduce each result with what was looked up and the values used for it. Do not invent facts. Follow these instructions:',
].join('\n');

/** A directive as a prompt line (how a rendered prompt lists it). */
export function directiveLine(id: SynthesizeDirective): string {
  return `- ${SYNTHESIZE_DIRECTIVES[id].sentence}`;
}

/**
 * What a synthesize node holds for a variant: its prompt (`default`: the role template; the others:
 * the request, the results and a lead-in their directive lines follow) and its directives.
 */
export function synthesizeVariant(variant: SynthesizeVariant): { prompt: string; directives: SynthesizeDirective[] } {
  const directives: readonly SynthesizeDirective[] = SYNTHESIZE_VARIANTS[variant].directives;
  return {
    prompt: directives.length === 0 ? PROMPT_TEMPLATES.synthesize : SYNTHESIZE_HEAD,
    directives: [...directives],
  };
}

/** The variant whose directives are exactly `directives` (as a set), if any; `default` for none. */
export function synthesizeVariantOf(directives: readonly string[]): SynthesizeVariant | undefined {
  const have = new Set(directives);
  return SYNTHESIZE_VARIANT_IDS.find((v) => {
    const want: readonly SynthesizeDirective[] = SYNTHESIZE_VARIANTS[v].directives;
    return want.length === have.size && want.every((d) => have.has(d));
  });
}
