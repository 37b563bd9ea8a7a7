import type { LlmRole } from '../graph/schema.js';
import type { Usage } from '../llm/usage.js';
import type { ToolCallOutcome } from '../contracts/tools.js';

/**
 * What one run of a workflow on one query leaves behind (docs/DESIGN.md, "Pipeline": π̂,
 * r̂ and per-node observations). Plain data: stored, compared across runs, and read by the optimizer.
 */

/** One tool call a node made: the registry's call outcome, and which attempt made it. */
export interface CallObservation extends ToolCallOutcome {
  /** Which attempt of the node's retry loop made it (1-based). */
  attempt: number;
}

/** What one node did. */
export interface NodeObservation {
  nodeId: string;
  kind: 'llm' | 'tool';
  role?: LlmRole;
  status: 'ok' | 'error' | 'skipped';
  /** A short summary of the node's input (the context it saw), for humans and the optimizer. */
  input: string;
  output?: unknown;
  error?: string;
  attempts: number;
  startedAtMs: number;
  durationMs: number;
  /** LLM nodes and LLM-planned tool nodes: the model or policy that decided. */
  model?: string;
  usage?: Usage;
  /** Tool nodes: every call of every attempt. */
  calls?: CallObservation[];
  /** True when the output was reused from the memo cache instead of recomputed. */
  cached?: boolean;
}

/** A call of π̂ as TC compares it (plus its status). */
export interface TraceCall {
  tool: string;
  args: Record<string, unknown>;
  status: 'ok' | 'error';
  output?: unknown;
}

export interface TraceTotals {
  nodes: number;
  skipped: number;
  llmCalls: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  durationMs: number;
  cachedNodes: number;
}

/** One run of a workflow on one query. */
export interface Trace {
  recordId?: string;
  query: string;
  workflow: string;
  /** Canonical hash of the workflow that ran. */
  workflowHash?: string;
  /** Label of the execution policy, e.g. "offline policy (no LLM)". */
  policy: string;
  /** In deterministic topological order (ties by node id). */
  observations: NodeObservation[];
  /**
   * π̂: every call the run issued (all attempts of every executed tool node, failed calls
   * included), flattened in deterministic topological order (ties by node id), each node's calls
   * in the order it issued them.
   */
  calls: TraceCall[];
  /** r̂: the exit node's output as text. */
  answer: string;
  status: 'ok' | 'error';
  error?: string;
  /**
   * Calls the run did not make: an argument of a write call, or an identifier argument of any
   * call, was ungrounded (runtime/grounding.ts), or a destructive call awaits approval (pending).
   * Absent when every planned call was made.
   */
  withheld?: WithheldCall[];
  totals: TraceTotals;
}

/** A call the run withheld, and why. */
export interface WithheldCall {
  nodeId: string;
  tool: string;
  args: Record<string, unknown>;
  /** `ungrounded`: an argument came from nowhere this run can vouch for; `approval`: a destructive call awaiting approval. */
  reason: 'ungrounded' | 'approval';
  /** The call's observation, naming the ungrounded arguments. */
  why: string;
}
