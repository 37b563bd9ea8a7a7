import { resolve } from 'node:path';
import { FlowScoutError } from '../../errors/index.js';
import { assertValidWorkflow } from '../../graph/validate.js';
import type { Prediction } from '../../metrics/predictions.js';
import { schemasFromTools, scorePredictions, type EvalReport } from '../../metrics/score.js';
import type { Judge } from '../../metrics/types.js';
import { resolvePolicy } from '../../policies/resolve-policy.js';
import { readRecordsFile } from '../../records/read-records.js';
import type { TaskRecord } from '../../records/schema.js';
import { executeWorkflow } from '../../runtime/execute.js';
import { loadToolConfig } from '../../tools/load-tool-config.js';
import type { ToolStats } from '../../tools/types.js';
import { readJsonFile } from '../../util/json-file.js';
import { mapLimit } from '../../util/map-limit.js';

/**
 * The workflow mode of `flowscout eval`: runs a workflow on every record's query (N times with
 * `--repeat`) over the tools of a tool config, with the policy a model string names (the offline
 * policy when none is configured), turns the traces into predictions and scores them like
 * `--predictions` does. Record runs go concurrently; each trace's calls are π̂ and its answer r̂.
 */

export interface WorkflowEvalOptions {
  workflowFile: string;
  records: readonly TaskRecord[];
  toolsFile: string;
  model?: string;
  judge: Judge;
  repeat: number;
  concurrency: number;
  /** Records the offline policy learns argument cues from (never the evaluated ones). */
  learnFrom?: string;
  skipInvalid?: boolean;
}

export interface WorkflowEvalResult {
  report: EvalReport;
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
  const learnFrom = opts.learnFrom ? (await readRecordsFile(opts.learnFrom, { skipInvalid: opts.skipInvalid })).records : undefined;
  const registry = await loadToolConfig(opts.toolsFile);
  try {
    const tools = registry.list();
    const workflow = assertValidWorkflow(raw, tools, opts.workflowFile);
    const resolved = await resolvePolicy(opts.model, { tools, ...(learnFrom ? { records: learnFrom } : {}) });
    const jobs = opts.records.flatMap((record) => Array.from({ length: opts.repeat }, (_, run) => ({ record, run: run + 1 })));
    const failedRuns: WorkflowEvalResult['failedRuns'] = [];
    const predictions = await mapLimit(jobs, opts.concurrency, async ({ record, run }): Promise<Prediction> => {
      const trace = await executeWorkflow(workflow, { query: record.query, recordId: record.id }, { policy: resolved.policy, tools: registry });
      if (trace.status === 'error') failedRuns.push({ id: record.id, run, error: trace.error ?? 'unknown error' });
      return { id: record.id, calls: trace.calls.map((c) => ({ tool: c.tool, args: c.args })), answer: trace.answer };
    });
    const report = await scorePredictions(opts.records, predictions, { judge: opts.judge, schemas: schemasFromTools(tools), concurrency: opts.concurrency });
    return {
      report,
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
  if (learnFrom && resolve(learnFrom) === resolve(records)) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: '--learn-from names the records being evaluated; the offline policy would learn their answers',
      hint: 'Split the records first (optimisation vs test) and pass the optimisation part to --learn-from.',
    });
  }
}

function isToolDescriptorFile(file: string): boolean {
  const data = readJsonFile(file);
  return Array.isArray(data) || (data !== null && typeof data === 'object' && 'tools' in data && !('sources' in data));
}
