import type { EditPlan } from '../../graph/edits/edit-schema.js';
import type { ToolNode, Workflow } from '../../graph/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { Count, Feedback, FeedbackKind, PatternOf } from '../../evaluate/feedback-types.js';

/**
 * What the rule table of the offline optimizer (rule-edits.ts) is made of: a candidate edit with its
 * score, what the rules read, and the small helpers every rule uses.
 */

/** A candidate edit with its score. */
export interface RuleEdit {
  /** One line naming the edit and its evidence (the child's edit summary). */
  summary: string;
  plan: EditPlan;
  score: number;
  /** Edits of one group on different nodes are also offered together as one plan. */
  group?: string;
}

/** What the rules read. */
export interface RuleContext {
  workflow: Workflow;
  feedback: Feedback;
  tools: ReadonlyMap<string, ToolDescriptor>;
  /** False in the LLM-only variant: no edit that adds or needs tool nodes. */
  allowToolNodes: boolean;
}

/** One rule: the candidate edits a feedback pattern of kind `K` supports (it is called for that kind only). */
export type Gen<K extends FeedbackKind> = (p: PatternOf<K>, ctx: RuleContext) => RuleEdit[];

/**
 * The rule table: the rules of each feedback kind, in the order their edits are listed. Every kind
 * has an entry (`[]` for a kind no rule answers), so a new kind of pattern does not compile until
 * the table says what answers it.
 */
export type RuleTable = { readonly [K in FeedbackKind]: ReadonlyArray<Gen<K>> };

/** The names of the first `k` counts of at least `min`. */
export const top = (cs: readonly Count[], k: number, min = 1) =>
  cs
    .filter((c) => c.count >= min)
    .slice(0, k)
    .map((c) => c.name);

/** The tool node `id` of `w`, if it is one. */
export function toolNode(w: Workflow, id: string | undefined): ToolNode | undefined {
  const n = id === undefined ? undefined : w.nodes.find((x) => x.id === id);
  return n?.kind === 'tool' ? n : undefined;
}

/** A candidate edit: its summary is also its plan's. */
export function edit(summary: string, score: number, ...edits: EditPlan['edits']): RuleEdit {
  return { summary, plan: { summary, edits }, score };
}

/** The edit as a member of `group` (see RuleEdit.group). */
export function grouped(group: string, e: RuleEdit): RuleEdit {
  return { ...e, group };
}
