/**
 * Rows of the search store: plain data as the search writes and reads it.
 * JSON columns come back parsed; the store knows nothing about what a feedback or a plan holds.
 */

/**
 * running; done; stopped (a budget ran out or it was interrupted, resumable); failed (an error
 * stopped it, e.g. a model that stopped answering; resumable once fixed). A `running` run whose
 * driving process is gone is shown as `interrupted` (see run-lock.ts).
 */
export type RunStatus = 'running' | 'done' | 'stopped' | 'failed';

/** What a run was started on, by content (checked by `--resume`). */
export interface RunInputs {
  records: { file: string; sha256: string; bytes: number };
  tools: { file: string; sha256: string; bytes: number };
  /** Hash of the settings that decide results (split, seed, strategy, models, search settings). */
  settings: string;
}

/** The process that drives a run. */
export interface RunLock {
  pid: number;
  host: string;
  acquiredAt: string;
  heartbeatAt: string;
}

/** One search run. */
export interface RunRow {
  id: string;
  createdAt: string;
  updatedAt: string;
  status: RunStatus;
  /** Why the run ended (iterations, patience, budget, error …), when it has. */
  stopReason?: string;
  seed: number;
  strategy: string;
  /** The run's settings (everything needed to resume it); never holds API keys. */
  config: Record<string, unknown>;
  policyLabel: string;
  judgeLabel: string;
  optimizerLabel: string;
  recordsFile?: string;
  outDir?: string;
  iterationsDone: number;
  /** Iterations since the best D_val score last improved (patience counter). */
  sinceImprovement: number;
  bestCandidate?: string;
  /** Model usage and memo counters so far. */
  usage?: Record<string, unknown>;
  /** The final summary (best candidate, test-set scores), once the run has ended. */
  result?: Record<string, unknown>;
  /** Hashes of its records, tools config and settings (runs made before they were stored have none). */
  inputs?: RunInputs;
  /** The process that last marked the run running (so a reader can tell a crashed run from a live one). */
  owner?: RunOwner;
}

/** Who runs a search: the process id on a host. */
export interface RunOwner {
  pid: number;
  host: string;
}

/** One candidate workflow of a run (a search-tree node). */
export interface CandidateRow {
  id: string;
  /** Creation order within the run (0 = the root). */
  seq: number;
  parent: string | null;
  iteration: number;
  /** Absent when the expansion failed before a workflow existed. */
  workflow?: unknown;
  hash?: string;
  plan?: unknown;
  summary?: string;
  optReward?: number;
  optTc?: number;
  optEs?: number;
  feedback?: unknown;
  valScore?: number;
  valTc?: number;
  valEs?: number;
  visits: number;
  w: number;
  q: number;
  error?: string;
  /** Set when this candidate's workflow equals an earlier candidate's (scores reused). */
  duplicateOf?: string;
}

/** One record's result for one candidate on one split. */
export interface EvaluationRow {
  candidateId: string;
  split: 'opt' | 'val' | 'test';
  recordId: string;
  tc: number;
  es: number;
  dims: Record<string, number>;
  answer: string;
  calls: unknown[];
  error?: string;
  /**
   * What the run of this record did, node by node, and how TC aligned its calls (written
   * compressed; not returned by `loadEvaluations`, read one at a time with `loadRecordTrace`).
   */
  trace?: unknown;
}

/** A record a run was evaluated on (query, reference answer and calls), as the run saw it. */
export interface RunRecordRow {
  recordId: string;
  split: 'opt' | 'val' | 'test';
  record: unknown;
}

/** What one search iteration writes, in one transaction. */
export interface IterationCommit {
  /** New or updated candidates (visits, W, Q along the path; the new child). */
  candidates: CandidateRow[];
  evaluations?: EvaluationRow[];
  /** Node memo entries learned during the iteration. */
  memo?: Array<{ key: string; observation: unknown }>;
  /** The records the run evaluates on (written once, with the root). */
  records?: RunRecordRow[];
  /** The iteration's table row (absent for the root). */
  iteration?: { iteration: number; data: Record<string, unknown> };
  run: Partial<
    Pick<
      RunRow,
      | 'status'
      | 'stopReason'
      | 'iterationsDone'
      | 'sinceImprovement'
      | 'bestCandidate'
      | 'usage'
      | 'outDir'
      | 'result'
      | 'inputs'
    >
  >;
}

/** One request answered by `flowscout serve`, with its whole trace. */
export interface ServedRunRow {
  id: number;
  createdAt: string;
  workflow: string;
  workflowHash?: string;
  /** `mcp-stdio`, `mcp-http` or `http`. */
  transport: string;
  policyLabel: string;
  query: string;
  status: 'ok' | 'error';
  answer: string;
  error?: string;
  durationMs: number;
  /** The run's Trace (observations, calls, totals). */
  trace: unknown;
  /** Its fitness against the workflow's process tree, scored as it was stored (absent for runs stored before). */
  fitness?: number;
  /** Its health (conformance/run-health.ts), likewise. */
  health?: number;
}
