import type { Usage } from '../../llm/usage.js';
import type { TraceCall } from '../../runtime/trace.js';

/**
 * What every approach of the benchmark is to the experiments (docs/DESIGN.md, "Baselines and
 * ablations"): something that answers a query over the tools T, leaving π̂ (its calls, in the order
 * made), r̂ (its answer) and its cost. Workflows (FlowScout, the ablations, LLM-only) are run by the
 * runtime; the PM4Py-style and ReAct baselines implement this contract directly. Scoring is the
 * same for all (`scorePredictions`).
 */

export interface AgentInput {
  query: string;
  recordId?: string;
  signal?: AbortSignal;
}

export interface AgentRun {
  /** π̂ in the order the calls were made (failed calls included: they were attempted). */
  calls: TraceCall[];
  /** r̂. */
  answer: string;
  durationMs: number;
  /** Requests sent to a model (0 with the offline policy). */
  llmCalls: number;
  /** Decisions a model would make: LLM-node runs, tool-node plans, ReAct steps (offline: made by rules). */
  llmSteps: number;
  toolCalls: number;
  usage: Usage;
  /** Why the run stopped early, when it did (a fault survived; the run is scored with what it produced). */
  error?: string;
}

export interface Agent {
  /** Stable id used in results.json, e.g. `react`. */
  readonly id: string;
  /** Shown in tables, e.g. "ReAct (offline)". */
  readonly label: string;
  run(input: AgentInput): Promise<AgentRun>;
}
