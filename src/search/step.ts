import { isFlowScoutError } from '../errors/index.js';
import { workflowHash } from '../graph/hash.js';
import type { Workflow } from '../graph/schema.js';
import type { TaskRecord } from '../records/schema.js';
import type { EvaluationRow } from '../store/types.js';
import type { Random } from '../util/random.js';
import { evaluateWorkflow, evaluationFromRuns, runRecords } from '../evaluate/evaluate.js';
import { prepareWorkflow } from '../graph/prepare.js';
import type { RecordRun } from '../evaluate/types.js';
import { raceCheck, raceRounds, type RaceCheck } from './race.js';
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
 * - **Racing** (`settings.racing`, `race.ts`): the child runs on D_opt in rounds and is compared
 *   record by record with the best candidate so far; one that cannot still beat it stops early with
 *   the paired estimate of its reward, its feedback from the records it ran, and no D_val score. A
 *   child that collapses the mined steps (`collapse_steps`) or drops their mined tools (`drop_mined`)
 *   is not raced: it always gets its D_val score.
 * - **Budget**: when a model request was refused during the expansion or the evaluation, or the
 *   wall-time limit aborted it, the child is discarded and `BudgetStop` is thrown: the search ends
 *   cleanly with what it has.
 * - **Failures that are not the candidate's** (a model that cannot work, Redis lost during a
 *   distributed evaluation, a job the workers could not run): the child is discarded and the error
 *   ends the search, stored as `failed`; the iteration was not committed, so `--resume` runs it again.
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
  /** Workflow executions (record runs) of the simulation. */
  executions: number;
}

/** What simulating a workflow gave: D_opt's evaluation (of every record, or of the records a race ran), D_val's unless the race stopped it. */
export interface Simulation {
  opt: WorkflowEvaluation;
  val?: WorkflowEvaluation;
  /** Set when the candidate raced: the last round's comparison, and the D_opt records it ran. */
  race?: RaceCheck & { records: number; of: number; estimate: number };
  executions: number;
}

/**
 * Runs a workflow on D_opt (with feedback) and D_val, under the run's budget. With `against` (the
 * best candidate so far, and its reward per D_opt record) the workflow races it on D_opt first.
 */
export async function simulate(
  ctx: SearchContext,
  workflow: Workflow,
  against?: { reward: number; perRecord: ReadonlyMap<string, number> },
): Promise<Simulation> {
  const before = ctx.budget?.refusals() ?? 0;
  const signals = [ctx.signal, ctx.budget?.signal, ctx.breaker?.signal].filter(
    (s): s is AbortSignal => s !== undefined,
  );
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
    if (against) {
      const raced = await race(ctx, workflow, against, common);
      if (raced) {
        checkBudget(ctx, before);
        checkBreaker(ctx);
        return raced;
      }
    }
    const opt = await evaluateWorkflow(workflow, ctx.opt, { ...common, feedback: true });
    const val = await evaluateWorkflow(workflow, ctx.val, { ...common, feedback: false });
    checkBudget(ctx, before);
    checkBreaker(ctx);
    return { opt, val, executions: ctx.opt.length + ctx.val.length };
  } catch (e) {
    checkBudget(ctx, before);
    checkBreaker(ctx);
    throw e;
  }
}

/**
 * The race on D_opt (race.ts): rounds of the stratified D_opt order, each compared record by record
 * with the best. Returns the stopped candidate's simulation, or the survivor's whole one (D_opt's
 * evaluation over the runs of every round, then D_val).
 */
async function race(
  ctx: SearchContext,
  workflow: Workflow,
  against: { reward: number; perRecord: ReadonlyMap<string, number> },
  common: Parameters<typeof evaluateWorkflow>[2],
): Promise<Simulation | undefined> {
  const prepared = prepareWorkflow(workflow);
  const order = ctx.opt;
  const N = order.length;
  if (!order.every((r) => against.perRecord.has(r.id))) return undefined;
  const runs: RecordRun[] = [];
  let check: RaceCheck | undefined;
  for (const upto of raceRounds(N)) {
    runs.push(...(await runRecords(prepared, order.slice(runs.length, upto), common)));
    const scored = evaluationFromRuns(prepared, order.slice(0, upto), runs, { ...common, feedback: false });
    check = raceCheck(
      scored.perRecord.map((r) => (r.tc + r.es) / 2 - against.perRecord.get(r.id)!),
      N,
    );
    if (!check.goOn) break;
  }
  const ran = order.slice(0, runs.length);
  const opt = evaluationFromRuns(prepared, ran, runs, { ...common, feedback: true });
  const info = { ...check!, records: runs.length, of: N, estimate: against.reward + check!.meanDiff };
  if (!check!.goOn) return { opt, race: info, executions: runs.length };
  const val = await evaluateWorkflow(prepared, ctx.val, { ...common, feedback: false });
  return { opt, val, race: info, executions: runs.length + ctx.val.length };
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
export function evaluationRows(
  candidateId: string,
  split: 'opt' | 'val' | 'test',
  ev: WorkflowEvaluation,
): EvaluationRow[] {
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
      trace: {
        status: r.trace.status,
        error: r.trace.error,
        observations: r.trace.observations,
        totals: r.trace.totals,
        detail: r.detail,
        rationale: r.rationale,
        judgeError: r.judgeError,
      },
    };
    const error = r.error ?? (r.trace.status === 'error' ? r.trace.error : undefined);
    if (error) row.error = error;
    return row;
  });
}

/** Scores of an evaluated workflow as candidate fields (a candidate the race stopped: its paired reward estimate, no D_val score). */
export function scoredFields(
  sim: Pick<Simulation, 'opt' | 'val' | 'race'>,
): Pick<Candidate, 'optReward' | 'optTc' | 'optEs' | 'feedback' | 'valScore' | 'valTc' | 'valEs'> {
  const { opt, val } = sim;
  const reward = !val && sim.race ? sim.race.estimate : opt.reward;
  return {
    optReward: reward,
    optTc: opt.tc,
    optEs: opt.es,
    feedback: opt.feedback!,
    ...(val ? { valScore: val.reward, valTc: val.tc, valEs: val.es } : {}),
  };
}

/** Expands `parentId` with one child and simulates it (see the module comment). */
export async function expandAndSimulate(
  ctx: SearchContext,
  tree: SearchTree,
  parentId: string,
  iteration: number,
  random: Random,
): Promise<StepOutcome> {
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
    if (isFlowScoutError(e) && (e.code === 'BUDGET_EXHAUSTED' || e.code === 'ABORTED')) throw e;
    if (stopsTheSearch(e)) throw e;
    const message = e instanceof Error ? e.message : String(e);
    const plans = e instanceof OptimizerError ? e.plans : [];
    const child: Candidate = {
      ...base,
      summary: `expansion failed: ${firstLine(message)}`,
      error: message,
      optReward: 0,
      ...(plans.length ? { plan: plans.at(-1) as Candidate['plan'] } : {}),
    };
    return { child, status: 'failed', evaluations: [], toolCalls: 0, executions: 0 };
  }
  checkBudget(ctx, refusalsBefore);
  checkBreaker(ctx);
  const summary = proposal.repaired ? `${proposal.summary} [plan repaired after one round]` : proposal.summary;
  const broken = ctx.constraint?.(proposal.workflow);
  if (broken) {
    return {
      child: { ...base, plan: proposal.plan, summary, workflow: proposal.workflow, error: broken, optReward: 0 },
      status: 'invalid',
      evaluations: [],
      toolCalls: 0,
      executions: 0,
    };
  }
  const hash = workflowHash(proposal.workflow);
  const dup = tree.byWorkflowHash(hash);
  if (dup) {
    const child: Candidate = {
      ...base,
      plan: proposal.plan,
      summary,
      workflow: proposal.workflow,
      hash,
      duplicateOf: dup.id,
    };
    for (const k of ['optReward', 'optTc', 'optEs', 'valScore', 'valTc', 'valEs'] as const)
      if (dup[k] !== undefined) child[k] = dup[k];
    return { child, status: 'duplicate', evaluations: [], toolCalls: 0, executions: 0 };
  }
  try {
    // D_opt is what the mined steps were mined from and favours them by construction: a candidate that
    // collapses them into one repeating step, or drops the tools mined at them, is not raced there but
    // scored on D_val, where the search selects.
    const reshapesMined = proposal.plan.edits.some((e) => e.op === 'collapse_steps' || e.op === 'drop_mined');
    const against = ctx.settings.racing && !reshapesMined ? ctx.raceAgainst?.() : undefined;
    const sim = await simulate(ctx, proposal.workflow, against);
    const { opt, val } = sim;
    const raced =
      sim.race && !val
        ? ` [raced out after ${sim.race.records} of ${sim.race.of} D_opt records: ${signed(sim.race.meanDiff)} vs the best, at most ${signed(sim.race.upper)}]`
        : '';
    const child: Candidate = {
      ...base,
      plan: proposal.plan,
      summary: summary + raced,
      workflow: proposal.workflow,
      hash,
      ...scoredFields(sim),
    };
    if (val) ctx.onFullyEvaluated?.(id, perRecordRewards(opt));
    const evals = val ? [opt, val] : [opt];
    return {
      child,
      status: 'ok',
      evaluations: [...evaluationRows(id, 'opt', opt), ...(val ? evaluationRows(id, 'val', val) : [])],
      toolCalls: evals.reduce((n, e) => n + e.totals.toolCalls, 0),
      nodes: nodeUsageOf(evals),
      executions: sim.executions,
    };
  } catch (e) {
    if (e instanceof BudgetStop) throw e;
    if (ctx.signal?.aborted) throw e;
    if (stopsTheSearch(e)) throw e;
    const message = e instanceof Error ? e.message : String(e);
    return {
      child: { ...base, plan: proposal.plan, summary, workflow: proposal.workflow, hash, error: message, optReward: 0 },
      status: 'invalid',
      evaluations: [],
      toolCalls: 0,
      executions: 0,
    };
  }
}

/** The failures that are not the candidate's (see the module comment): they would fail every candidate after it. */
function stopsTheSearch(e: unknown): boolean {
  return (
    isFlowScoutError(e) && (e.code === 'MODEL_UNAVAILABLE' || e.code === 'QUEUE_ERROR' || e.code === 'CONNECTION_LOST')
  );
}

/** R = (TC + ES) / 2 of every record of an evaluation. */
export function perRecordRewards(ev: WorkflowEvaluation): Map<string, number> {
  return new Map(ev.perRecord.map((r) => [r.id, (r.tc + r.es) / 2]));
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
}

/** Evaluates the root G0 (iteration 0). Budget problems propagate as BudgetStop. */
export async function simulateRoot(
  ctx: SearchContext,
  tree: SearchTree,
  g0: Workflow,
  summary: string,
): Promise<StepOutcome> {
  const sim = await simulate(ctx, g0);
  const { opt, val } = sim as Required<Pick<Simulation, 'opt' | 'val'>>;
  const child: Candidate = {
    id: tree.nextId(),
    seq: 0,
    parent: null,
    children: [],
    iteration: 0,
    workflow: g0,
    hash: workflowHash(g0),
    summary,
    ...scoredFields(sim),
    visits: 1,
    w: opt.reward,
    q: opt.reward,
  };
  ctx.onFullyEvaluated?.(child.id, perRecordRewards(opt));
  return {
    child,
    status: 'ok',
    evaluations: [...evaluationRows(child.id, 'opt', opt), ...evaluationRows(child.id, 'val', val)],
    toolCalls: opt.totals.toolCalls + val.totals.toolCalls,
    nodes: nodeUsageOf([opt, val]),
    executions: sim.executions,
  };
}

/** The records a split name refers to. */
export type Splits = { opt: readonly TaskRecord[]; val: readonly TaskRecord[]; test: readonly TaskRecord[] };

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? s;
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
