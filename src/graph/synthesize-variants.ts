import { PROMPT_TEMPLATES, SYNTHESIZE_PREAMBLE } from './prompt-templates.js';

/**
 * The synthesize prompt library the search draws on (prompt-templates.ts holds one template per
 * role): the directives a synthesize prompt may add, the named variants made of them, and reading
 * a prompt's variant and directives back.
 */

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
