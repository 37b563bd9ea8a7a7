import type { Workflow } from '../../graph/schema.js';
import { schemasFromTools, scorePredictions } from '../../metrics/score.js';
import { coefficientOfVariation } from '../../metrics/stability.js';
import type { Judge } from '../../metrics/types.js';
import { hasReference } from '../../metrics/score.js';
import type { ExecutionPolicy } from '../../policies/types.js';
import type { TaskRecord } from '../../records/schema.js';
import { evaluateWorkflow } from '../../evaluate/evaluate.js';
import {
  addParameterCounts,
  addSources,
  argumentSources,
  emptySources,
  mostLost,
  type ArgumentSources,
  type ParameterCounts,
} from '../../dataflow/argument-sources.js';
import { toolStatsFromTraces } from '../../evaluate/trace-tool-stats.js';
import type { RecordRunner, WorkflowEvaluation } from '../../evaluate/types.js';
import type { ToolRegistry } from '../../contracts/tools.js';
import { mapLimit } from '../../util/map-limit.js';
import type { Agent } from '../baselines/agent.js';
import { mean } from '../stats/describe.js';
import type { ApproachResult, RecordResult } from './results.js';

/**
 * Measuring one approach on the test queries, `runs` times (RQ1 and stability): workflows
 * go through the search's shared evaluation (`evaluateWorkflow`: the runtime, then
 * `scorePredictions`); the PM4Py-style and ReAct agents are run here and scored by the same
 * `scorePredictions`. Per record: TC and ES averaged over the runs, and the CV of ES over them.
 * Per approach: the means, the mean CV, and the cost per query (wall time, model requests, model
 * decisions, tool calls) averaged over every run of every query.
 */

export type Subject = { id: string; label: string; tcDefined: boolean } & (
  { kind: 'workflow'; workflow: Workflow } | { kind: 'agent'; agent: Agent }
);

export interface MeasureContext {
  policy: ExecutionPolicy;
  tools: ToolRegistry;
  judge: Judge;
  runs: number;
  concurrency: number;
  signal?: AbortSignal;
  /** `bench --redis`: the runner of a workflow's measured run `salt` (on the workers); default this process. */
  runnerFor?: (salt: string) => RecordRunner;
}

interface RunScores {
  tc: number[];
  es: number[];
  detail: Array<{ k: number; kHat: number; lcs: number; failed: number; beyond: number; graded: number }>;
  cost: Array<{ runtimeMs: number; llmCalls: number; llmSteps: number; toolCalls: number }>;
  failed: number;
  sources: ArgumentSources;
}

export async function measureApproach(
  subject: Subject,
  records: readonly TaskRecord[],
  ctx: MeasureContext,
): Promise<ApproachResult> {
  const before = ctx.tools.stats();
  const runs: RunScores[] = [];
  const remote: WorkflowEvaluation[] = [];
  const byParameter = new Map<string, ParameterCounts>();
  const schemas = schemasFromTools(ctx.tools.list());
  for (let k = 0; k < ctx.runs; k++) {
    if (subject.kind === 'agent') runs.push(await runAgent(subject.agent, records, ctx, byParameter));
    else {
      const runner = ctx.runnerFor?.(`${subject.id}-run-${k}`);
      const ev = await evaluateWorkflow(subject.workflow, records, {
        policy: ctx.policy,
        tools: ctx.tools,
        judge: ctx.judge,
        concurrency: ctx.concurrency,
        feedback: false,
        ...(runner ? { runner } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      if (runner) remote.push(ev);
      runs.push(workflowScores(ev));
      ev.perRecord.forEach((r, i) => addParameterCounts(byParameter, records[i]!, r.trace.calls, r.detail, schemas));
    }
  }
  // Calls made on workers are read from their traces (this process's registry saw none of them).
  const far = toolStatsFromTraces(remote);
  const after = ctx.tools.stats();
  const perRecord: RecordResult[] = records.map((r, i) => {
    const esRuns = runs.map((run) => run.es[i]!);
    return {
      id: r.id,
      tc: subject.tcDefined ? mean(runs.map((run) => run.tc[i]!)) : null,
      es: mean(esRuns),
      esRuns,
      cv: coefficientOfVariation(esRuns),
      k: runs[0]?.detail[i]?.k ?? 0,
      made: mean(runs.map((run) => run.detail[i]!.kHat)),
      ...(hasReference(r) ? {} : { noReference: true as const }),
    };
  });
  // ES only where a reference answer exists; TC on every record.
  const judged = perRecord.filter((r) => !r.noReference);
  const costs = runs.flatMap((r) => r.cost);
  const avg = (f: (c: RunScores['cost'][number]) => number) => (costs.length ? mean(costs.map(f)) : 0);
  return {
    id: subject.id,
    label: subject.label,
    tc: subject.tcDefined ? mean(perRecord.map((r) => r.tc!)) : null,
    es: mean(judged.map((r) => r.es)),
    ...(judged.length < perRecord.length ? { esRecords: judged.length } : {}),
    cv: judged.length ? mean(judged.map((r) => r.cv)) : 0,
    runs: ctx.runs,
    records: perRecord,
    cost: {
      runtimeMs: avg((c) => c.runtimeMs),
      llmCalls: avg((c) => c.llmCalls),
      llmSteps: avg((c) => c.llmSteps),
      toolCalls: avg((c) => c.toolCalls),
    },
    failedRuns: runs.reduce((s, r) => s + r.failed, 0),
    calls: callStats(runs.flatMap((r) => r.detail)),
    argumentSources: runs.reduce((acc, r) => addSources(acc, r.sources), emptySources()),
    parameterSources: mostLost(byParameter.values()),
    toolStats: {
      calls: after.calls - before.calls + far.calls,
      errors: after.errors - before.errors + far.errors,
      replayHits: after.replayHits - before.replayHits + far.replayHits,
      replayMisses: after.replayMisses - before.replayMisses + far.replayMisses,
    },
  };
}

function workflowScores(ev: WorkflowEvaluation): RunScores {
  return {
    tc: ev.perRecord.map((r) => r.tc),
    es: ev.perRecord.map((r) => r.es),
    detail: ev.perRecord.map((r) => ({
      k: r.detail.k,
      kHat: r.detail.kHat,
      lcs: r.detail.lcs,
      failed: r.trace.calls.filter((c) => c.status === 'error').length,
      beyond: r.detail.beyond,
      graded: r.detail.gradedTc,
    })),
    cost: ev.perRecord.map((r) => ({
      runtimeMs: r.trace.totals.durationMs,
      llmCalls: r.trace.totals.llmCalls,
      llmSteps: r.trace.observations.filter((o) => o.status !== 'skipped').length,
      toolCalls: r.trace.totals.toolCalls,
    })),
    failed: ev.perRecord.filter((r) => r.error || r.trace.status === 'error').length,
    sources: ev.argumentSources,
  };
}

async function runAgent(
  agent: Agent,
  records: readonly TaskRecord[],
  ctx: MeasureContext,
  byParameter: Map<string, ParameterCounts>,
): Promise<RunScores> {
  const out = await mapLimit(records, ctx.concurrency, (r) =>
    agent.run({ query: r.query, recordId: r.id, ...(ctx.signal ? { signal: ctx.signal } : {}) }),
  );
  const predictions = out.map((run, i) => ({
    id: records[i]!.id,
    calls: run.calls.map((c) => ({ tool: c.tool, args: c.args })),
    answer: run.answer,
  }));
  const schemas = schemasFromTools(ctx.tools.list());
  const report = await scorePredictions(records, predictions, {
    judge: ctx.judge,
    schemas,
    concurrency: ctx.concurrency,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  report.records.forEach((r, i) =>
    addParameterCounts(byParameter, records[i]!, predictions[i]!.calls, r.detail, schemas),
  );
  return {
    tc: report.records.map((r) => r.tc),
    es: report.records.map((r) => r.es),
    detail: report.records.map((r, i) => ({
      k: r.detail.k,
      kHat: r.detail.kHat,
      lcs: r.detail.lcs,
      failed: out[i]!.calls.filter((c) => c.status === 'error').length,
      beyond: r.detail.beyond,
      graded: r.detail.gradedTc,
    })),
    cost: out.map((run) => ({
      runtimeMs: run.durationMs,
      llmCalls: run.llmCalls,
      llmSteps: run.llmSteps,
      toolCalls: run.toolCalls,
    })),
    failed: out.filter((run) => run.error).length,
    sources: report.records.reduce(
      (acc, r, i) => addSources(acc, argumentSources(records[i]!, predictions[i]!.calls, r.detail, schemas)),
      emptySources(),
    ),
  };
}

function callStats(d: RunScores['detail']): ApproachResult['calls'] {
  const m = (f: (x: RunScores['detail'][number]) => number) => (d.length ? mean(d.map(f)) : 0);
  return {
    reference: m((x) => x.k),
    made: m((x) => x.kHat),
    matched: m((x) => x.lcs),
    failed: m((x) => x.failed),
    beyond: m((x) => x.beyond),
    gradedTc: m((x) => x.graded),
  };
}
