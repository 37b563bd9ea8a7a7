import { isFlowScoutError } from '../errors/index.js';
import { workflowHash } from '../graph/hash.js';
import type { Workflow } from '../graph/schema.js';
import type { TaskRecord } from '../records/schema.js';
import type { EvaluationRow } from '../store/types.js';
import type { Random } from '../util/random.js';
import { evaluateWorkflow } from '../evaluate/evaluate.js';
import type { WorkflowEvaluation } from '../evaluate/types.js';
import { OptimizerError } from './optimizers/optimizer-error.js';
import type { SearchContext } from './search-context.js';
import { nodeUsageOf, type NodeUse } from './node-usage.js';
import type { Candidate, SearchTree } from './tree.js';

/**
 * Expansion and simulation of one child (Algorithm 1, "expand" and "simulate"): the optimizer turns
 * the parent's cached feedback into an edit plan, the plan is applied, and the child is run on D_opt
 * (reward R = (TC + ES) / 2 and feedback, cached in the child) and on D_val (its score, only for
 * picking the best). Decisions:
 *
 * - **Failed expansion** (no valid plan after the optimizer's repair round, or a workflow that breaks
 *   the variant's constraint) and **invalid or crashing candidates** (evaluation throws) become a
 *   child with the error, reward 0 (backpropagated like any reward, so the path that produced it is
 *   visited less), no D_val score; they are never expanded.
 * - **Duplicates** (canonical hash equal to an earlier evaluated candidate) are not evaluated again:
 *   the child reuses that candidate's D_opt reward and D_val scores (so it is backpropagated with the
 *   same reward), points to it with `duplicateOf`, counts as an iteration (and towards patience: it
 *   cannot improve the best), and is never expanded (its original is).
 * - **Budget**: when a model request was refused during the expansion or the evaluation, or the
 *   wall-time limit aborted it, the child is discarded and `BudgetStop` is thrown: the search ends
 *   cleanly with what it has.
 */

/** Thrown when a budget ran out during an expansion; the search stops cleanly. */
export class BudgetStop extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'BudgetStop';
  }
}

/** The child an expansion produced and what to store about it. */
export interface StepOutcome {
  child: Candidate;
  status: 'ok' | 'duplicate' | 'failed' | 'invalid';
  evaluations: EvaluationRow[];
  /** Tool calls the simulation made (cached nodes made none). */
  toolCalls: number;
  /** Model use per node of the simulation (node-usage.ts). */
  nodes?: Record<string, NodeUse>;
}

/** Runs a workflow on D_opt (with feedback) and D_val, under the run's budget. */
export async function simulate(ctx: SearchContext, workflow: Workflow): Promise<{ opt: WorkflowEvaluation; val: WorkflowEvaluation }> {
  const before = ctx.budget?.refusals() ?? 0;
  const signals = [ctx.signal, ctx.budget?.signal, ctx.breaker?.signal].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  const common = {
    policy: ctx.policy,
    tools: ctx.tools,
    judge: ctx.judge,
    concurrency: ctx.settings.concurrency,
    ...(ctx.memo ? { memo: ctx.memo } : {}),
    ...(ctx.runner ? { runner: ctx.runner } : {}),
    ...(signal ? { signal } : {}),
  };
  try {
    const opt = await evaluateWorkflow(workflow, ctx.opt, { ...common, feedback: true });
    const val = await evaluateWorkflow(workflow, ctx.val, { ...common, feedback: false });
    checkBudget(ctx, before);
    checkBreaker(ctx);
    return { opt, val };
  } catch (e) {
    checkBudget(ctx, before);
    checkBreaker(ctx);
    throw e;
  }
}

/** A tripped circuit breaker ends the search with its error: the evaluation it cut short is discarded. */
function checkBreaker(ctx: SearchContext): void {
  const trip = ctx.breaker?.tripped();
  if (trip) throw trip;
}

function checkBudget(ctx: SearchContext, refusalsBefore: number): void {
  const b = ctx.budget;
  if (!b) return;
  if (b.refusals() > refusalsBefore || b.signal.aborted) throw new BudgetStop(b.error()?.message ?? 'budget exhausted');
}

/** Per-record rows of an evaluation, for the store. */
export function evaluationRows(candidateId: string, split: 'opt' | 'val' | 'test', ev: WorkflowEvaluation): EvaluationRow[] {
  return ev.perRecord.map((r) => {
    const row: EvaluationRow = {
      candidateId,
      split,
      recordId: r.id,
      tc: r.tc,
      es: r.es,
      dims: r.dims,
      answer: r.trace.answer,
      calls: r.trace.calls.map((c) => ({ tool: c.tool, args: c.args, status: c.status })),
      // What `flowscout ui` shows for the record: every node's observation and TC's alignment.
      trace: { status: r.trace.status, error: r.trace.error, observations: r.trace.observations, totals: r.trace.totals, detail: r.detail, rationale: r.rationale, judgeError: r.judgeError },
    };
    const error = r.error ?? (r.trace.status === 'error' ? r.trace.error : undefined);
    if (error) row.error = error;
    return row;
  });
}

/** Scores of an evaluated workflow as candidate fields. */
export function scoredFields(opt: WorkflowEvaluation, val: WorkflowEvaluation): Pick<Candidate, 'optReward' | 'optTc' | 'optEs' | 'feedback' | 'valScore' | 'valTc' | 'valEs'> {
  return { optReward: opt.reward, optTc: opt.tc, optEs: opt.es, feedback: opt.feedback!, valScore: val.reward, valTc: val.tc, valEs: val.es };
}

/** Expands `parentId` with one child and simulates it (see the module comment). */
export async function expandAndSimulate(ctx: SearchContext, tree: SearchTree, parentId: string, iteration: number, random: Random): Promise<StepOutcome> {
  const parent = tree.get(parentId);
  const id = tree.nextId();
  const base = { id, seq: tree.size, parent: parentId, children: [], iteration, visits: 0, w: 0, q: 0 };
  const refusalsBefore = ctx.budget?.refusals() ?? 0;
  let proposal;
  try {
    proposal = await ctx.optimizer.propose({
      workflow: parent.workflow!,
      feedback: parent.feedback!,
      siblings: parent.children.map((c) => tree.get(c).summary ?? ''),
      tools: ctx.tools.list(),
      random,
      isKnown: (w) => tree.byWorkflowHash(workflowHash(w)) !== undefined,
      toolNodesAllowed: !ctx.settings.llmOnly,
      ...(ctx.constraint ? { constraint: ctx.constraint } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
  } catch (e) {
    checkBudget(ctx, refusalsBefore);
    checkBreaker(ctx);
    if (isFlowScoutError(e) && (e.code === 'BUDGET_EXHAUSTED' || e.code === 'ABORTED' || e.code === 'MODEL_UNAVAILABLE')) throw e;
    const message = e instanceof Error ? e.message : String(e);
    const plans = e instanceof OptimizerError ? e.plans : [];
    const child: Candidate = { ...base, summary: `expansion failed: ${firstLine(message)}`, error: message, optReward: 0, ...(plans.length ? { plan: plans.at(-1) as Candidate['plan'] } : {}) };
    return { child, status: 'failed', evaluations: [], toolCalls: 0 };
  }
  checkBudget(ctx, refusalsBefore);
  checkBreaker(ctx);
  const summary = proposal.repaired ? `${proposal.summary} [plan repaired after one round]` : proposal.summary;
  const broken = ctx.constraint?.(proposal.workflow);
  if (broken) {
    return { child: { ...base, plan: proposal.plan, summary, workflow: proposal.workflow, error: broken, optReward: 0 }, status: 'invalid', evaluations: [], toolCalls: 0 };
  }
  const hash = workflowHash(proposal.workflow);
  const dup = tree.byWorkflowHash(hash);
  if (dup) {
    const child: Candidate = { ...base, plan: proposal.plan, summary, workflow: proposal.workflow, hash, duplicateOf: dup.id };
    for (const k of ['optReward', 'optTc', 'optEs', 'valScore', 'valTc', 'valEs'] as const) if (dup[k] !== undefined) child[k] = dup[k];
    return { child, status: 'duplicate', evaluations: [], toolCalls: 0 };
  }
  try {
    const { opt, val } = await simulate(ctx, proposal.workflow);
    const child: Candidate = { ...base, plan: proposal.plan, summary, workflow: proposal.workflow, hash, ...scoredFields(opt, val) };
    return { child, status: 'ok', evaluations: [...evaluationRows(id, 'opt', opt), ...evaluationRows(id, 'val', val)], toolCalls: opt.totals.toolCalls + val.totals.toolCalls, nodes: nodeUsageOf([opt, val]) };
  } catch (e) {
    if (e instanceof BudgetStop) throw e;
    if (ctx.signal?.aborted) throw e;
    if (isFlowScoutError(e) && e.code === 'MODEL_UNAVAILABLE') throw e;
    const message = e instanceof Error ? e.message : String(e);
    return { child: { ...base, plan: proposal.plan, summary, workflow: proposal.workflow, hash, error: message, optReward: 0 }, status: 'invalid', evaluations: [], toolCalls: 0 };
  }
}

/** Evaluates the root G0 (iteration 0). Budget problems propagate as BudgetStop. */
export async function simulateRoot(ctx: SearchContext, tree: SearchTree, g0: Workflow, summary: string): Promise<StepOutcome> {
  const { opt, val } = await simulate(ctx, g0);
  const child: Candidate = { id: tree.nextId(), seq: 0, parent: null, children: [], iteration: 0, workflow: g0, hash: workflowHash(g0), summary, ...scoredFields(opt, val), visits: 1, w: opt.reward, q: opt.reward };
  return { child, status: 'ok', evaluations: [...evaluationRows(child.id, 'opt', opt), ...evaluationRows(child.id, 'val', val)], toolCalls: opt.totals.toolCalls + val.totals.toolCalls, nodes: nodeUsageOf([opt, val]) };
}

/** The records a split name refers to. */
export type Splits = { opt: readonly TaskRecord[]; val: readonly TaskRecord[]; test: readonly TaskRecord[] };

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? s;
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
