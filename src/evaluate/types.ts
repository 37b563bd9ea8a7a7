import type { EsDims, ScoredRun } from '../metrics/score.js';
import type { PreparedWorkflow } from '../graph/prepare.js';
import type { TaskRecord } from '../records/schema.js';
import type { TcResult } from '../metrics/tool-call-lcs.js';
import type { Judge } from '../metrics/types.js';
import type { ParamSchema } from '../contracts/canonical-args.js';
import type { Usage } from '../llm/usage.js';
import type { NodeMemo } from '../runtime/memo.js';
import type { Trace } from '../runtime/trace.js';
import type { ArgumentSources } from '../dataflow/argument-sources.js';
import type { ExecutionPolicy } from '../policies/types.js';
import type { ToolDescriptor, ToolRegistry } from '../contracts/tools.js';
import type { Feedback } from './feedback-types.js';

/**
 * The result types of an evaluation, at the bottom of `evaluate/` so that the evaluation
 * (`evaluate.ts`), the feedback built from it (`feedback*.ts`) and their readers (search, bench,
 * CLI) all import them from here and none imports another's module for a type.
 */

/** What the feedback is built with. */
export interface FeedbackOptions {
  tools?: readonly ToolDescriptor[];
  /** Character budget of `text` (default 4000). */
  maxChars?: number;
  /** Lowest-scoring answers kept (default 3). */
  worst?: number;
}

/** Who runs and scores the records, and how. */
export interface EvaluateOptions {
  policy: ExecutionPolicy;
  tools: ToolRegistry;
  judge: Judge;
  /** Records run at once (default 4). */
  concurrency?: number;
  /** Nodes of one run at once (the runtime's bound; default the runtime's). */
  nodeConcurrency?: number;
  memo?: NodeMemo;
  signal?: AbortSignal;
  /** Parameter schemas for TC (default: from the registry's descriptors). */
  schemas?: Readonly<Record<string, ParamSchema | undefined>>;
  /** Build optimizer feedback (default true); `false` for selection-only sets such as D_val. */
  feedback?: boolean | FeedbackOptions;
  /**
   * Run the records elsewhere (workers on a queue) instead of in this process; `policy`, `tools`
   * and `judge` then only label the result and build the feedback, and `memo` and the concurrency
   * settings are the runner's business.
   */
  runner?: RecordRunner;
}

/** What one record's run and score need. */
export interface RecordRunOptions {
  policy: ExecutionPolicy;
  tools: ToolRegistry;
  judge: Judge;
  nodeConcurrency?: number;
  memo?: NodeMemo;
  signal?: AbortSignal;
  schemas?: Readonly<Record<string, ParamSchema | undefined>>;
}

/** One record's run and its score, before the evaluation adds them up. */
export interface RecordRun {
  trace: Trace;
  scored: ScoredRun;
  /** Set when the run itself threw (scored as an empty trace). */
  error?: string;
}

/** What a record runner is asked: run and score `records` with the (valid, prepared) workflow. */
export interface RecordRunRequest {
  workflow: PreparedWorkflow;
  records: readonly TaskRecord[];
  signal?: AbortSignal;
}

/** What a memo saved: node runs, and the tool calls and model requests they had made. */
export interface RunnerSavings {
  nodeRunsSaved: number;
  toolCallsSaved: number;
  llmCallsSaved: number;
  /** Judge scores the runner's workers took from the judge memo, and the requests and tokens that saved. */
  judgeScoresReused?: number;
  judgeCallsSaved?: number;
  judgeTokensSaved?: number;
}

/**
 * Runs records somewhere other than this process (the queue of `flowscout worker`s in
 * `src/distributed/`): one `RecordRun` per record, in record order, each produced by
 * `runAndScoreRecord` with the same policy, tools and judge, so the evaluation is the same.
 */
export interface RecordRunner {
  runRecords(request: RecordRunRequest): Promise<RecordRun[]>;
  /** What a memo the runner keeps (shared by its workers) saved so far. */
  savings?(): RunnerSavings;
  /** The queue as last seen (jobs and workers), for the stored run and the web UI. */
  progressSnapshot?(): RunnerProgress | undefined;
}

/** A runner's queue: jobs of the whole queue waiting and running, this runner's jobs done and failed, workers connected. */
export interface RunnerProgress {
  waiting: number;
  active: number;
  done: number;
  failed: number;
  workers: number;
}

/** One record's result. */
export interface RecordEvaluation {
  id: string;
  tc: number;
  es: number;
  dims: EsDims;
  detail: TcResult;
  trace: Trace;
  /** Per argument source, how many reference arguments there were, were called and were passed right (argument-sources.ts). */
  argumentSources?: ArgumentSources;
  rationale?: string;
  judgeError?: string;
  /** Set when the run itself threw (scored as an empty trace). */
  error?: string;
  /** The judge's model usage for this record (LLM judges). */
  judgeUsage?: Usage;
  /** The record has no reference answer: ES not scored (0 here, left out of every ES mean). */
  noReference?: true;
}

/** A workflow's scores on a record set, per record and overall. */
export interface WorkflowEvaluation {
  /** R = (TC + ES) / 2; R = TC when no record has a reference answer (nothing to score ES on). */
  reward: number;
  tc: number;
  /** Mean ES over the records with a reference answer. */
  es: number;
  /** Records ES was scored on (those with a reference answer); TC is scored on all. */
  esRecords: number;
  dims: EsDims;
  perRecord: RecordEvaluation[];
  /** The records' argument-source counts summed (argument-sources.ts). */
  argumentSources: ArgumentSources;
  feedback?: Feedback;
  /** Work done (cached nodes did none). */
  totals: { llmCalls: number; toolCalls: number; nodes: number; cachedNodes: number };
  /** Model usage of the runs and the judge. */
  usage: Usage;
  judge: string;
  policy: string;
}
