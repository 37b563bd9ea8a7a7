import { resolve } from 'node:path';
import { FlowScoutError } from '../../errors/index.js';
import { assertValidWorkflow } from '../../graph/validate.js';
import { reportFromRuns, type EvalReport } from '../../metrics/score.js';
import type { Judge } from '../../metrics/types.js';
import { addUsage, type Usage } from '../../llm/usage.js';
import { readRecordsFile } from '../../records/read-records.js';
import type { TaskRecord } from '../../records/schema.js';
import { evaluateWorkflow } from '../../evaluate/evaluate.js';
import type { WorkflowEvaluation } from '../../evaluate/types.js';
import { loadToolConfig } from '../../tools/load-tool-config.js';
import type { ToolStats } from '../../contracts/tools.js';
import { readJsonFile } from '../../util/json-file.js';
import type { ModelWiring } from '../../wiring/wire-models.js';
import { learnedLine, learnedSource } from '../learned-records.js';

/**
 * The workflow mode of `flowscout eval`: runs a workflow on every record's query over the tools of a
 * tool config, with the policy a model string names (the offline policy when none is configured),
 * and scores it with `evaluateWorkflow` — the one evaluation the search and the benchmarks use
 * (records run concurrently; each trace's calls are π̂ and its answer r̂). `--repeat N` evaluates N
 * times, one run after another, and the report takes each record's means and the CV of its ES over
 * the N runs, exactly as `--predictions` does for repeated lines.
 */

export interface WorkflowEvalOptions {
  workflowFile: string;
  records: readonly TaskRecord[];
  toolsFile: string;
  model?: string;
  /** The command's model wiring (its one rate limiter bounds the policy's requests). */
  models: ModelWiring;
  judge: Judge;
  repeat: number;
  concurrency: number;
  /** Records the offline policy learns argument cues from (never the evaluated ones); default: what the workflow's search wrote. */
  learnFrom?: string;
  /** The evaluated records' file, so the learned records are never the evaluated ones. */
  recordsFile?: string;
  skipInvalid?: boolean;
}

export interface WorkflowEvalResult {
  report: EvalReport;
  /** The line about what the offline policy learned from (absent for an LLM policy). */
  learned?: string;
  workflow: string;
  policy: string;
  policyKind: string;
  repeat: number;
  /** Runs whose trace ended in error (still scored with what they produced). */
  failedRuns: Array<{ id: string; run: number; error: string }>;
  toolStats: ToolStats;
}

/** Runs and scores; closes the tools it opened. */
export async function evaluateWorkflowFile(opts: WorkflowEvalOptions): Promise<WorkflowEvalResult> {
  const raw = readJsonFile(opts.workflowFile);
  if (isToolDescriptorFile(opts.toolsFile)) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${opts.toolsFile} lists tool descriptors; running a workflow needs a tool config that says how to call them`,
      hint: 'Pass a tool config, e.g. the tools.config.json that `flowscout import` wrote next to tools.json.',
      location: { file: opts.toolsFile },
    });
  }
  const source = learnedSource(opts.workflowFile, raw, opts.learnFrom);
  if (source) assertNotSameFile(source.file, opts.recordsFile ?? '');
  const learnFrom = source ? (await readRecordsFile(source.file, { skipInvalid: opts.skipInvalid })).records : undefined;
  const registry = await loadToolConfig(opts.toolsFile);
  try {
    const tools = registry.list();
    const workflow = assertValidWorkflow(raw, tools, opts.workflowFile);
    const resolved = await opts.models.policy(opts.model, { tools, ...(learnFrom ? { records: learnFrom } : {}) });
    const judge = meterJudge(opts.judge);
    const runs: WorkflowEvaluation[] = [];
    for (let run = 0; run < opts.repeat; run++) {
      runs.push(await evaluateWorkflow(workflow, opts.records, { policy: resolved.policy, tools: registry, judge: judge.judge, concurrency: opts.concurrency, feedback: false }));
    }
    const perRecord = opts.records.map((_, i) => runs.map((ev) => ev.perRecord[i]!));
    const report = reportFromRuns(
      opts.records,
      perRecord.map((evs) => evs.map((r) => ({ detail: r.detail, score: { ...r.dims, es: r.es, ...(r.rationale ? { rationale: r.rationale } : {}) }, ...(r.judgeError ? { error: r.judgeError } : {}) }))),
      { judge: opts.judge, ...(judge.usage() ? { usage: judge.usage() } : {}) },
    );
    const failedRuns = perRecord.flatMap((evs) =>
      evs.flatMap((r, k) => (r.trace.status === 'error' ? [{ id: r.id, run: k + 1, error: r.error ?? r.trace.error ?? 'unknown error' }] : [])),
    );
    const learned = learnedLine(resolved.policy.kind, source, learnFrom?.length ?? 0);
    return {
      report,
      ...(learned ? { learned } : {}),
      workflow: workflow.name,
      policy: resolved.label,
      policyKind: resolved.policy.kind,
      repeat: opts.repeat,
      failedRuns,
      toolStats: registry.stats(),
    };
  } finally {
    await registry.close();
  }
}

/** Refuses to learn from the evaluated records themselves (the answers would leak into the policy). */
export function assertNotSameFile(learnFrom: string | undefined, records: string): void {
  if (learnFrom && records && resolve(learnFrom) === resolve(records)) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: '--learn-from names the records being evaluated; the offline policy would learn their answers',
      hint: 'Split the records first (optimisation vs test) and pass the optimisation part to --learn-from.',
    });
  }
}

/** The judge, with the model usage of its scores added up (the report's "judge usage"). */
function meterJudge(inner: Judge): { judge: Judge; usage(): Usage | undefined } {
  let usage: Usage | undefined;
  const judge: Judge = {
    id: inner.id,
    kind: inner.kind,
    label: inner.label,
    async score(req) {
      const score = await inner.score(req);
      if (score.usage) usage = addUsage(usage, score.usage);
      return score;
    },
  };
  return { judge, usage: () => usage };
}

function isToolDescriptorFile(file: string): boolean {
  const data = readJsonFile(file);
  return Array.isArray(data) || (data !== null && typeof data === 'object' && 'tools' in data && !('sources' in data));
}
