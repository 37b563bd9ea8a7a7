import type { ToolNode } from '../graph/schema.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import type { PolicyContext } from '../policies/types.js';

/**
 * A planned call as a pre-call check sees it: the run's request context (query, record, workflow,
 * the node's inputs and context, scratch, signal), the node, the attempt, the tool's descriptor and
 * the arguments as they stand (the policy's, or as an earlier check rewrote them).
 */
export interface PreCallRequest extends PolicyContext {
  node: ToolNode;
  attempt: number;
  tool: ToolDescriptor;
  args: Record<string, unknown>;
}

/**
 * What a pre-call check decides: `undefined` makes the call as it stands; `{ args }` makes it with
 * these arguments (e.g. bound or filled ones; later checks see them); `{ withhold }` does not make
 * the call and records the given result as the call's observation (duration 0; later checks do not
 * run). A withheld call counts like a made one: in π̂, in the attempt's status and in retries.
 */
export type PreCallDecision =
  | undefined
  | { args: Record<string, unknown> }
  | { withhold: { status: 'error'; error: string } | { status: 'ok'; output: unknown } };

/**
 * The hook "before a tool call is made", the one place every runtime (interpreter, compiled module,
 * exported LangGraph graph) passes through: `RunOptions.preCallChecks` (run-state.ts) are applied by
 * `runToolAttempt` to each planned call to a candidate tool, in order. A check may be async; one that
 * throws fails the node with an internal error (an AbortError or BUDGET_EXHAUSTED stops as always).
 */
export type PreCallCheck = (req: PreCallRequest) => PreCallDecision | Promise<PreCallDecision>;
