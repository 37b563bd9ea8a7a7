import { workflowHash } from '../../graph/hash.js';
import type { Workflow } from '../../graph/schema.js';
import type { PairedComparison } from '../stats/paired-compare.js';

/**
 * The numbers of one `flowscout bench` run, as written to `results.json` and `--json`:
 * plain data, every figure and table of the report is drawn from it. Undefined quantities (TC of the
 * LLM-only baseline, an effect size with a constant difference) are `null`, never NaN.
 */

/** Who produced the numbers: shown with every table. */
export interface BenchLabels {
  /** The execution policy, e.g. "offline policy (no LLM)". */
  policy: string;
  policyKind: 'llm' | 'offline' | 'oracle';
  /** The model string (`offline` without a model). */
  model: string;
  judge: string;
  judgeKind: 'llm' | 'offline';
  optimizer: string;
  /** True when no model ran anywhere: every figure is an offline figure. */
  offline: boolean;
}

export interface BenchSettings {
  domains: string[];
  seed: number;
  iterations: number;
  patience: number;
  runs: number;
  maxTest: number;
  split: [number, number, number];
  /** `--split-by`: record (the bundled domains' default), group, or auto (by group when the records have groups). */
  splitBy: 'auto' | 'record' | 'group';
  ablationDomain: string;
  models: string[];
  concurrency: number;
  /** Records per domain sampled before the split (absent: all). */
  maxRecords?: number;
}

/** One record's scores over the repeated runs. */
export interface RecordResult {
  id: string;
  /** Mean over runs; null when TC is not defined for the approach. */
  tc: number | null;
  es: number;
  esRuns: number[];
  /** CV of ES over the runs (0 when every run scored the same). */
  cv: number;
  /** Reference calls K of the record, and calls made K̂ (mean over runs). */
  k: number;
  made: number;
  /** The record has no reference answer: its ES is not scored (0 here, left out of the approach's ES). */
  noReference?: true;
}

export interface CostPerQuery {
  runtimeMs: number;
  /** Requests sent to a model. */
  llmCalls: number;
  /** Decisions a model would make (LLM-node runs, tool-node plans, ReAct steps); made by rules offline. */
  llmSteps: number;
  toolCalls: number;
}

/** One approach on one domain's test queries. */
import type { ArgumentSources, ParameterCounts } from '../../dataflow/argument-sources.js';
import type { ToolCoverage } from '../../records/split.js';

export interface ApproachResult {
  id: string;
  label: string;
  tc: number | null;
  /** Mean ES over the records with a reference answer. */
  es: number;
  /** Records ES was scored on (those with a reference answer), when fewer than all. */
  esRecords?: number;
  /** Mean CV of ES over queries. */
  cv: number;
  runs: number;
  records: RecordResult[];
  cost: CostPerQuery;
  /** Runs that ended in a fault (scored with what they produced). */
  failedRuns: number;
  /**
   * What the traces show, per query (means over runs and queries): reference calls K, calls made K̂,
   * LCS matches, failed calls, calls beyond the reference (no call of their tool to pair with), and
   * the graded TC (a call of the right tool earns the share of its arguments it got right).
   */
  calls: { reference: number; made: number; matched: number; failed: number; beyond?: number; gradedTc?: number };
  toolStats?: { calls: number; errors: number; replayHits: number; replayMisses: number };
  /** Reference arguments by where their value stands, and how many were called and passed right, summed over runs. */
  argumentSources?: ArgumentSources;
  /** The same per parameter and source, those that lost the most first (results written before have none). */
  parameterSources?: ParameterCounts[];
}

export interface IterationPoint {
  iteration: number;
  status: string;
  valScore: number | null;
  bestVal: number;
  summary: string;
}

export interface SearchSummary {
  variant: 'flowscout' | 'nominer' | 'beam' | 'llm-only';
  searchMs: number;
  candidates: number;
  stopReason: string;
  best: string;
  /** The best candidate's own (last) edit. */
  bestSummary: string;
  /** Every edit from G0 to the best candidate, in the order applied (absent in results written before it was kept). */
  bestPath?: Array<{ id: string; summary: string }>;
  /** Iteration 0 is the start (G0); then one point per iteration. */
  iterations: IterationPoint[];
  g0Val: number | null;
  bestVal: number | null;
}

export interface DomainResult {
  domain: string;
  /** Where the records and tools came from (bundled TRAJECT-Bench, or your files). */
  source?: string;
  records: number;
  split: {
    opt: number;
    val: number;
    test: number;
    measured: number;
    by?: 'record' | 'group';
    note?: string;
    /**
     * The measured test queries' reference calls, and how many of them are of a tool some D_opt
     * record calls: what is learned per tool (hints, bindings, mined steps) can serve only those
     * (absent in results written before it was counted).
     */
    coverage?: ToolCoverage;
  };
  tools: number;
  processTree: string;
  searches: SearchSummary[];
  approaches: ApproachResult[];
  /**
   * The best workflow FlowScout found, by reference: its canonical hash and the figures the report
   * reads. The workflow itself is not kept here (it carries the offline policy's learned table and
   * would be most of the file); the run's command regenerates it, and the hash identifies it.
   */
  bestWorkflow: WorkflowRef | null;
}

/** A workflow named by its canonical hash (`workflowHash`), with its size. */
export interface WorkflowRef {
  /** sha256 of the canonical form, as `flowscout validate --json` prints it. */
  hash: string;
  name: string;
  nodes: number;
  edges: number;
  /** Tool nodes, and those of them with `calls: "many"`. */
  toolPositions: number;
  manyPositions: number;
  /**
   * The bindings its steps keep (`bind`), and how many of them read an earlier call's output: the
   * data flow the search learned (absent in results written before it was counted).
   */
  bindings?: { total: number; upstream: number };
}

/** The reference results.json keeps of a workflow. */
export function workflowRef(w: Workflow): WorkflowRef {
  const tools = w.nodes.filter((n) => n.kind === 'tool');
  return {
    hash: workflowHash(w),
    name: w.name,
    nodes: w.nodes.length,
    edges: w.edges.length,
    toolPositions: tools.length,
    manyPositions: tools.filter((n) => 'calls' in n && n.calls === 'many').length,
    bindings: bindingCounts(w),
  };
}

/** The bindings a workflow's steps keep, and those that read an earlier call's output. */
export function bindingCounts(w: Workflow): { total: number; upstream: number } {
  const all = w.nodes.flatMap((n) => (n.kind === 'tool' ? (n.bind ?? []) : []));
  return { total: all.length, upstream: all.filter((b) => b.source.from === 'output').length };
}

export interface SignificanceFamily {
  /** A domain name or "all" (queries of every domain pooled). */
  scope: string;
  metric: 'tc' | 'es';
  comparisons: Array<Omit<PairedComparison, 'cohensD'> & { cohensD: number | null }>;
}

export interface AblationRow {
  id: string;
  label: string;
  tc: number;
  es: number;
  searchMs: number;
  candidates: number;
}

export interface BackboneRow {
  domain: string;
  model: string;
  policy: string;
  tc: number;
  es: number;
}

export interface ToolPair {
  domain: string;
  original: string;
  substitute: string;
  similarity: number;
  /** Test-set reference calls of `original`. */
  testCalls: number;
  /** Of those, calls whose arguments the substitute has a recorded response for (replayable after the swap). */
  replayable: number;
}

export interface BenchResults {
  version: 1;
  command: string;
  /** The code that produced the numbers (package version, git commit). */
  code: { version: string; commit?: string; dirty?: boolean };
  startedAt: string;
  durationMs: number;
  settings: BenchSettings;
  labels: BenchLabels;
  unavailableDomains: Array<{ domain: string; reason: string }>;
  domains: DomainResult[];
  significance: SignificanceFamily[];
  ablation: { domain: string; rows: AblationRow[] } | null;
  backbone: { rows: BackboneRow[]; note: string };
  toolSwap: { pairs: ToolPair[]; run: boolean; note: string };
  notes: string[];
}

/** A number for JSON: NaN and ±Infinity become null. */
export function finite(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}
