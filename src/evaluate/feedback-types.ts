import type { EsDimension } from '../metrics/types.js';
import type { BindingSource, ToolHint } from '../graph/schema.js';

/**
 * The feedback of one candidate (docs/DESIGN.md, "Search": the optimizer "reads the node's cached
 * feedback — trace mismatches, failed calls, low-scoring answers, node observations"). Plain JSON:
 * it is cached in the candidate, stored, and read by both optimizers. Every pattern carries its
 * evidence (how many records show it) and a one-line text for prompts and people.
 */

/** A name and how often it was seen. */
export interface Count {
  name: string;
  count: number;
}

interface PatternBase {
  /** Records of the evaluation that show the pattern (the ranking key). */
  evidence: number;
  text: string;
}

/** Reference calls the workflow did not make, grouped by where they belong (between the nodes of the aligned calls around them). */
export interface MissingCallPattern extends PatternBase {
  kind: 'missing-call';
  after?: string;
  before?: string;
  tools: Count[];
  calls: number;
  /** Argument keys the missing calls use, most common first (what a new position must fill). */
  argKeys: Count[];
}

/** A conditional position that was skipped in records whose reference has calls at its place. */
export interface SkippedNeededPattern extends PatternBase {
  kind: 'skipped-needed';
  node: string;
  /** The node whose guarded edge decided to skip it (a judge), when there is one. */
  judge?: string;
  tools: Count[];
}

/** A reference tool the workflow never called in records whose reference has it. */
export interface NeverCalledPattern extends PatternBase {
  kind: 'never-called';
  tool: string;
  /** Records whose reference calls the tool. */
  referenceRecords: number;
  /** Most common slot of its missing calls. */
  after?: string;
  before?: string;
}

/** A position that chose another tool than the reference at the same place. */
export interface WrongToolPattern extends PatternBase {
  kind: 'wrong-tool';
  node: string;
  got: Count[];
  expected: Count[];
}

/** Calls of the right tool with wrong values for one argument. */
export interface WrongArgsPattern extends PatternBase {
  kind: 'wrong-args';
  tool: string;
  key: string;
  nodes: string[];
  calls: number;
  examples: Array<{ got: unknown; expected: unknown }>;
}

/**
 * Wrong argument values that an earlier node's results held, where that node does not feed the node
 * that made the call: the value was there, the node could not see it.
 */
export interface UnseenValuesPattern extends PatternBase {
  kind: 'unseen-values';
  node: string;
  /** Earlier tool nodes whose results held the expected values, most records first. */
  sources: Count[];
  /** Argument values concerned. */
  values: number;
}

/**
 * A parameter a source reproduces in most records where the node made that call (bind it), or a
 * bound parameter whose source does not hold (`source: null`: unbind it). Evidence: records gained.
 */
export interface BindablePattern extends PatternBase {
  kind: 'bindable';
  node: string;
  tool: string;
  param: string;
  source: BindingSource | null;
  /** Records where the node made a call of the tool paired with a reference call. */
  calls: number;
  /** Of those, records whose reference value the source reproduces. */
  reproduced: number;
  /** Of those, records whose call made now has the reference value. */
  current: number;
}

/**
 * Hints learned from the reference calls of the evaluated records (dataflow/learn-hints.ts): per tool, what
 * requests ask it with and how its parameters are filled, for the node that calls it (where it made
 * the calls aligned with the reference, else where it called it, else a node that lists it). Only
 * those that differ from the hint the node reads now. Evidence: records whose reference calls a
 * proposed tool.
 */
export interface HintsPattern extends PatternBase {
  kind: 'hints';
  proposals: Array<{ node: string; tool: string; hint: ToolHint; calls: number }>;
}

/** Calls a node made that the reference does not have. */
export interface ExtraCallsPattern extends PatternBase {
  kind: 'extra-calls';
  node: string;
  extra: number;
  /** All calls the node made (extra + aligned). */
  calls: number;
  /** Records in which the node made at least one aligned (useful) call. */
  usefulIn: number;
  tools: Count[];
}

/** Calls that returned an error. */
export interface FailedCallsPattern extends PatternBase {
  kind: 'failed-calls';
  node: string;
  tool: string;
  count: number;
  errors: string[];
  /**
   * Failed calls of the tool the reference calls at that place (only the arguments differ): trying
   * another tool cannot fix those.
   */
  rightTool: number;
  /** Records with at least one failed call of a tool the reference does not call there. */
  otherTool: number;
}

/** A node that failed as a whole (no valid plan, no call, a model error). */
export interface NodeErrorPattern extends PatternBase {
  kind: 'node-error';
  node: string;
  count: number;
  errors: string[];
}

/** The workflow makes fewer (or more) calls than the references. */
export interface CallCountPattern extends PatternBase {
  kind: 'call-count';
  direction: 'fewer' | 'more';
  meanK: number;
  meanKHat: number;
}

/**
 * The references take more (or fewer) steps than the workflow has tool positions: a structure that
 * does not follow the queries. `last` is the last tool position (the one that can repeat).
 */
export interface StepCountPattern extends PatternBase {
  kind: 'step-count';
  direction: 'more' | 'fewer';
  /** Tool positions of the workflow. */
  positions: number;
  /** Mean reference calls per record. */
  meanK: number;
  /** Records whose reference has more calls than there are positions, and records with fewer. */
  more: number;
  fewer: number;
  last?: string;
  lastCalls?: 'one' | 'many';
}

/**
 * Calls of a workflow with several tool steps that came out of the references' order, went to a
 * step that picked another tool, or were not made: the mined layout of steps may not fit the
 * requests, and one repeating step that reads the request part by part may do better.
 */
export interface LayoutPattern extends PatternBase {
  kind: 'layout';
  /** Tool steps of the workflow. */
  steps: number;
  /** Reference calls made out of order, by a step that picked another tool, and not made. */
  reordered: number;
  wrongTool: number;
  missing: number;
}

/** Low answer scores, in particular where the trace was right (the synthesizer's fault). */
export interface LowAnswersPattern extends PatternBase {
  kind: 'low-answers';
  /** Records among the low ones whose tool calls were all correct (TC = 1). */
  correctTrace: number;
  /** Mean judge dimensions over all records. */
  dims: Record<EsDimension, number>;
  /** Dimensions from weakest to strongest. */
  weakest: EsDimension[];
}

/**
 * A router sent records to its `otherwise` branch whose references one option's tools cover better,
 * in order, than the calls made there (evaluate/feedback-routes.ts). Evidence: those records where
 * the option covers more.
 */
export interface RouteFallbackPattern extends PatternBase {
  kind: 'route-fallback';
  judge: string;
  /** The option's value. */
  option: string;
  /** Mean share of the references' steps the option's tools cover, and the calls made covered. */
  covered: number;
  made: number;
}

/** Every kind of pattern the feedback reports. */
export type FeedbackPattern =
  | MissingCallPattern
  | NeverCalledPattern
  | SkippedNeededPattern
  | WrongToolPattern
  | WrongArgsPattern
  | UnseenValuesPattern
  | BindablePattern
  | HintsPattern
  | ExtraCallsPattern
  | FailedCallsPattern
  | NodeErrorPattern
  | CallCountPattern
  | StepCountPattern
  | LayoutPattern
  | LowAnswersPattern
  | RouteFallbackPattern;

/** The kind of a feedback pattern. */
export type FeedbackKind = FeedbackPattern['kind'];

/** The pattern of one kind. */
export type PatternOf<K extends FeedbackKind> = Extract<FeedbackPattern, { kind: K }>;

/** Every kind of pattern the feedback reports, written as a record so that a new kind must be listed. */
const KINDS: Record<FeedbackKind, true> = {
  'missing-call': true,
  'never-called': true,
  'skipped-needed': true,
  'wrong-tool': true,
  'wrong-args': true,
  'unseen-values': true,
  bindable: true,
  hints: true,
  'extra-calls': true,
  'failed-calls': true,
  'node-error': true,
  'call-count': true,
  'step-count': true,
  layout: true,
  'low-answers': true,
  'route-fallback': true,
};
export const FEEDBACK_KINDS = Object.keys(KINDS) as FeedbackKind[];

/** A low-scoring answer, shown to the optimizer. */
export interface WorstAnswer {
  id: string;
  query: string;
  answer: string;
  reference: string;
  es: number;
  tc: number;
  dims: Record<EsDimension, number>;
  rationale?: string;
}

/** What each tool node did over the evaluation. */
export interface NodeSummary {
  node: string;
  runs: number;
  errors: number;
  skipped: number;
  calls: number;
  /** Calls that matched a reference call. */
  matched: number;
  /** Tools of its calls that matched the reference (or had only wrong arguments): what the node does right. */
  matchedTools: Count[];
}

/** A candidate's feedback (cached in the candidate and stored). */
export interface Feedback {
  records: number;
  reward: number;
  tc: number;
  es: number;
  patterns: FeedbackPattern[];
  worst: WorstAnswer[];
  nodes: NodeSummary[];
  /** The condensed text given to an LLM optimizer (at most `maxChars`). */
  text: string;
}
