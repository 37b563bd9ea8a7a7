import type { Workflow } from '../graph/schema.js';
import type { Judge } from '../metrics/types.js';
import type { ExecutionPolicy } from '../policies/types.js';
import type { TaskRecord } from '../records/schema.js';
import type { Store } from '../store/open-store.js';
import type { ToolRegistry } from '../contracts/tools.js';
import { DEFAULT_LAMBDA_MAX, DEFAULT_LAMBDA_MIN } from './anneal.js';
import type { CircuitBreaker } from '../llm/circuit-breaker.js';
import type { BudgetWatch } from './budget-watch.js';
import type { RecordRunner } from '../evaluate/types.js';
import type { SearchMemo } from './memo.js';
import type { Optimizer } from './optimizers/types.js';

/** Settings of a search (everything a resumed run needs to make the same choices). */
export interface SearchSettings {
  strategy: 'mcts' | 'beam';
  /** J: iterations (MCTS) or candidates (beam) after the root. Default 30. */
  iterations: number;
  /** P: stop after this many iterations without a better D_val score. Default 5. */
  patience: number;
  /** Children per node before selection descends (Algorithm 1's 3). */
  children: number;
  /** Beam width (beam search only). Default 3. */
  beamWidth: number;
  lambdaMax: number;
  lambdaMin: number;
  seed: number;
  /** Records evaluated at once. */
  concurrency: number;
  /** LLM-only variant: no tool nodes allowed. */
  llmOnly: boolean;
  /**
   * Race new candidates on D_opt against the best so far (race.ts); a stored run without the
   * setting (made before racing existed) continues without.
   */
  racing?: boolean;
  /** Evaluate on at most this many D_opt / D_val / D_test records (a stratified sample; records/stratify.ts). */
  maxOpt?: number;
  maxVal?: number;
  maxTest?: number;
}

/**
 * The defaults (docs/DESIGN.md, "Search"): J = 30, P = 5, 3 children, beam width 3; racing on; at
 * most 1,000 D_opt, 500 D_val and 500 D_test records evaluated (a log of a few thousand records and
 * more is sampled, stratified by group and tool set).
 */
export const DEFAULT_SETTINGS: Omit<SearchSettings, 'seed'> = {
  strategy: 'mcts',
  iterations: 30,
  patience: 5,
  children: 3,
  beamWidth: 3,
  lambdaMax: DEFAULT_LAMBDA_MAX,
  lambdaMin: DEFAULT_LAMBDA_MIN,
  concurrency: 4,
  llmOnly: false,
  racing: true,
  maxOpt: 1000,
  maxVal: 500,
  maxTest: 500,
};

/** One row of the per-iteration table (also stored). */
export interface IterationRow {
  iteration: number;
  /** The expanded candidate. */
  parent: string;
  child: string;
  status: 'ok' | 'duplicate' | 'failed' | 'invalid';
  summary: string;
  lambda: number;
  optReward?: number;
  valScore?: number;
  valTc?: number;
  valEs?: number;
  best: string;
  bestVal: number;
  /** Model requests, cost, tool calls so far (the whole run). */
  llmCalls: number;
  costUsd: number;
  toolCalls: number;
  elapsedMs: number;
}

/** What the search runs with. */
export interface SearchContext {
  settings: SearchSettings;
  opt: readonly TaskRecord[];
  val: readonly TaskRecord[];
  /**
   * The three splits as read (D_opt in the order the offline policy learned it, before any cap or
   * racing order; D_test never searched on): stored with the root, so the run's files can be
   * written again from the store exactly.
   */
  splitsAsRead?: { opt: readonly TaskRecord[]; val: readonly TaskRecord[]; test: readonly TaskRecord[] };
  policy: ExecutionPolicy;
  tools: ToolRegistry;
  judge: Judge;
  optimizer: Optimizer;
  memo?: SearchMemo;
  /** Run the records of every evaluation elsewhere (`flowscout worker`s on a Redis queue). */
  runner?: RecordRunner;
  budget?: BudgetWatch;
  /** The run's model-call circuit breaker: once tripped, the search stops with its error. */
  breaker?: CircuitBreaker;
  /** Aborts in-flight evaluations (the run's records stop where they are). */
  signal?: AbortSignal;
  /** Asks the search to stop before its next iteration, keeping the run resumable (Ctrl-C in the CLI). */
  stop?: AbortSignal;
  /** Persist every iteration here (omit for an in-memory search). */
  persist?: { store: Store; runId: string };
  /** Told the reward per D_opt record of every candidate evaluated on all of D_opt (racing keeps the best's). */
  onFullyEvaluated?: (candidateId: string, perRecord: ReadonlyMap<string, number>) => void;
  /** The best candidate so far with its reward per D_opt record, for racing (absent: no race). */
  raceAgainst?: () => { reward: number; perRecord: ReadonlyMap<string, number> } | undefined;
  /** Called after every iteration (progress display, table). */
  onIteration?: (row: IterationRow) => void;
  /** Variant constraint on candidate workflows (LLM-only). */
  constraint?: (w: Workflow) => string | undefined;
  /** Clock for elapsed times (default Date.now). */
  now?: () => number;
}

/** The LLM-only variant's constraint: tool nodes are forbidden. */
export function noToolNodes(w: Workflow): string | undefined {
  const tools = w.nodes.filter((n) => n.kind === 'tool').map((n) => n.id);
  return tools.length ? `tool nodes are forbidden in the LLM-only variant (found: ${tools.join(', ')})` : undefined;
}
