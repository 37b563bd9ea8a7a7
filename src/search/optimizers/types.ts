import type { EditPlan } from '../../graph/edits/edit-schema.js';
import type { Workflow } from '../../graph/schema.js';
import type { Usage } from '../../llm/usage.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { Random } from '../../util/random.js';
import type { Feedback } from '../../evaluate/feedback-types.js';

/**
 * The optimizer contract (docs/DESIGN.md, "Search", expand: the optimizer reads the selected node's
 * cached feedback and returns an edit plan). The LLM optimizer and the offline rule-based optimizer both
 * implement it; the search calls nothing else.
 */

/** What an optimizer is given for one expansion. */
export interface ProposeInput {
  workflow: Workflow;
  feedback: Feedback;
  /** Edit summaries of the children this node already has: propose something different. */
  siblings: readonly string[];
  tools: readonly ToolDescriptor[];
  /** Seeded from (seed, iteration), so a resumed run proposes the same edits. */
  random: Random;
  /** True when a workflow is already a candidate of the run (optimizers skip such proposals when they can). */
  isKnown?: (workflow: Workflow) => boolean;
  /** False in the LLM-only variant: tool nodes may not be added (default true). */
  toolNodesAllowed?: boolean;
  /** A constraint of the search variant (LLM-only: no tool nodes); returns why a workflow breaks it. */
  constraint?: (workflow: Workflow) => string | undefined;
  signal?: AbortSignal;
}

/** An applied, valid proposal. */
export interface Proposal {
  plan: EditPlan;
  /** The workflow after the plan (already valid against the tools). */
  workflow: Workflow;
  /** One line: what changed and why (the plan's summary, or one the optimizer writes). */
  summary: string;
  /** True when the first plan was invalid and the repair round fixed it. */
  repaired?: boolean;
  usage?: Usage;
}

/** Proposes edit plans (LLM or offline rule-based). */
export interface Optimizer {
  readonly id: string;
  readonly kind: 'llm' | 'offline';
  /** Shown with every result, e.g. "rule-based optimizer (offline)". */
  readonly label: string;
  /** Throws OptimizerError when no valid plan could be produced (the search records a failed expansion and goes on). */
  propose(input: ProposeInput): Promise<Proposal>;
}
