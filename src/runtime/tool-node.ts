import type { ToolNode, Workflow } from '../graph/schema.js';
import { bindingsFor } from '../graph/hints.js';
import {
  type EarlierCall,
  type ExecutionPolicy,
  type PlannedCall,
  type PolicyContext,
  type ToolPlanRequest,
  type ToolPlanResult,
} from '../policies/types.js';
import { addUsage, type Usage } from '../llm/usage.js';
import { awaitsApproval, type ToolCallContext, type ToolDescriptor, type ToolRegistry } from '../contracts/tools.js';
import type { ToolNodeOutputCall } from './context.js';
import { errorMessage, isBudgetExhausted, type NodeStepResult } from './node-step.js';
import { abortError, isAbortError, raceAbort } from './semaphore.js';
import type { CallObservation } from './trace.js';
import { boundArgs, type EarlierResult } from '../dataflow/resolve.js';
import { recordRunCall } from './grounding-sources.js';
import type { NodeInput } from '../policies/types.js';
import { boundOutput, DEFAULT_MAX_OUTPUT_CHARS } from './output-bound.js';
import type { PreCallCheck, PreCallRequest } from './pre-call.js';
import { MAX_PLAN_ROUNDS } from '../policies/whole-plan.js';

/**
 * Runs a tool node (docs/DESIGN.md, "The workflow IR": the policy selects a concrete tool from T
 * or from the node's tools hint and fills the arguments; the registry validates and calls; the
 * observation is recorded), with its
 * `retry` loop and `calls: 'one' | 'many'`. Decisions written down here:
 *
 * - Candidates: the hinted tools that exist in T; all of T when there is no hint or none exists.
 * - `calls: 'one'` issues the first planned call (a plan with no call is an attempt error);
 *   `calls: 'many'` issues every planned call, in order, one after another (zero calls is an empty
 *   success).
 * - A planned call to a tool outside the candidates is recorded as a failed call; it is not sent.
 * - An attempt is an `error` when the plan failed (the policy threw or returned `error`; but a policy
 *   whose budget is exhausted stops the whole run: BUDGET_EXHAUSTED is thrown on, see run-state.ts, `startRun`), when
 *   `one` planned nothing, or when every call failed; otherwise `ok`. It is *empty* when it is ok and
 *   made no call or every ok call returned nothing (null, "", [], {}).
 * - `retry: {attempts, on}` repeats while attempts remain and the attempt was an error (or, with
 *   `error-or-empty`, empty), passing the previous attempt's error to the policy.
 * - The node's status and output are its last attempt's; `calls` keeps every attempt's calls.
 */

/** What a tool node needs besides the policy: the tools, the per-call timeout and the pre-call checks. */
export interface ToolStepDeps {
  tools: ToolRegistry;
  callTimeoutMs?: number;
  /** Characters of one tool output kept (default `DEFAULT_MAX_OUTPUT_CHARS`; output-bound.ts). */
  maxOutputChars?: number;
  /** Applied in order to every planned call to a candidate tool, just before it is made (see `PreCallCheck`). */
  preCallChecks?: readonly PreCallCheck[];
}

/** The tools a tool node may use (see the decisions above). */
export function candidateTools(node: ToolNode, tools: ToolRegistry): ToolDescriptor[] {
  if (node.tools && node.tools.length > 0) {
    const hinted = node.tools.map((n) => tools.get(n)).filter((d): d is ToolDescriptor => d !== undefined);
    if (hinted.length > 0) return hinted;
  }
  return tools.list();
}

/**
 * The node's bound parameters per candidate tool, resolved from the request and the node's inputs
 * (graph/bindings.ts; no model). Tools without a binding that gave a value are left out.
 */
export function resolveBindings(
  workflow: Workflow,
  node: ToolNode,
  candidates: readonly ToolDescriptor[],
  query: string,
  inputs: readonly NodeInput[],
  earlier: readonly EarlierResult[] = [],
): Record<string, Record<string, unknown>> | undefined {
  const outputs = new Map(inputs.map((i) => [i.nodeId, i.output]));
  const out: Record<string, Record<string, unknown>> = {};
  for (const c of candidates) {
    const bindings = bindingsFor(workflow, node, c.name);
    if (bindings.length === 0) continue;
    const args = boundArgs(bindings, c.name, { query, outputs, earlier }, c.inputSchema);
    if (Object.keys(args).length > 0) out[c.name] = args;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** True for outputs that carry nothing: null, undefined, blank strings, empty arrays and objects. */
export function isEmptyOutput(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

/** One attempt of a tool node: its status, error and calls, and what planning it cost. */
export interface ToolAttempt {
  status: 'ok' | 'error';
  error?: string;
  calls: CallObservation[];
  usage?: Usage;
  model?: string;
}

/** How many attempts a tool node may make (its `retry.attempts`, 1 to 5; 1 without `retry`). */
export function maxToolAttempts(node: ToolNode): number {
  return Math.min(5, Math.max(1, node.retry?.attempts ?? 1));
}

/**
 * Why `attempt` should be followed by another one under the node's retry rule (the previous error
 * the policy is shown next), or `undefined` when it stands (also when its every call awaits
 * approval). Says nothing about attempts left.
 */
export function retryReason(node: ToolNode, attempt: ToolAttempt): string | undefined {
  // Calls held for approval are not failures a new attempt could mend: it would be held again or
  // plan nothing, and the node's output (its last attempt's calls) would lose the pending call.
  if (attempt.calls.length > 0 && attempt.calls.every((c) => awaitsApproval(c.error))) return undefined;
  const empty =
    attempt.status === 'ok' &&
    (attempt.calls.length === 0 ||
      attempt.calls.filter((c) => c.status === 'ok').every((c) => isEmptyOutput(c.output)));
  const again = attempt.status === 'error' || (node.retry?.on === 'error-or-empty' && empty);
  return again ? (attempt.error ?? 'the previous attempt returned an empty result') : undefined;
}

/** The node's result from its attempts in order: the last attempt's status and output, every attempt's calls. */
export function toolStepResult(attempts: readonly ToolAttempt[]): NodeStepResult {
  const last = attempts[attempts.length - 1] ?? { status: 'error' as const, calls: [] };
  let usage: Usage | undefined;
  let model: string | undefined;
  for (const a of attempts) {
    if (a.usage) usage = addUsage(usage, a.usage);
    if (a.model !== undefined) model = a.model;
  }
  const output: ToolNodeOutputCall[] = last.calls.map((c) => {
    const o: ToolNodeOutputCall = { tool: c.tool, args: c.args, status: c.status };
    if (c.output !== undefined) o.output = c.output;
    if (c.error !== undefined) o.error = c.error;
    return o;
  });
  const result: NodeStepResult = { status: last.status, output } as NodeStepResult;
  if (last.error !== undefined && last.status === 'error') result.error = last.error;
  result.attempts = attempts.length;
  result.calls = attempts.length === 1 ? attempts[0]!.calls.slice() : attempts.flatMap((a) => a.calls);
  if (model !== undefined) result.model = model;
  if (usage) result.usage = usage;
  return result;
}

/** Runs one tool node with the rules above. Throws only an AbortError (cancellation) or BUDGET_EXHAUSTED. */
export async function runToolNodeStep(
  node: ToolNode,
  base: PolicyContext,
  policy: ExecutionPolicy,
  deps: ToolStepDeps,
): Promise<NodeStepResult> {
  const maxAttempts = maxToolAttempts(node);
  const attempts: ToolAttempt[] = [];
  let previousError: string | undefined;
  while (attempts.length < maxAttempts) {
    const attempt = await runToolAttempt(node, base, policy, deps, attempts.length + 1, previousError);
    attempts.push(attempt);
    previousError = retryReason(node, attempt);
    if (previousError === undefined) break;
  }
  return toolStepResult(attempts);
}

/**
 * Attempt number `n` of a tool node (the policy is shown `previousError`, the reason the attempt
 * before it did not stand). Throws only an AbortError (cancellation) or BUDGET_EXHAUSTED.
 */
export async function runToolAttempt(
  node: ToolNode,
  base: PolicyContext,
  policy: ExecutionPolicy,
  deps: ToolStepDeps,
  n: number,
  previousError?: string,
): Promise<ToolAttempt> {
  const candidates = candidateTools(node, deps.tools);
  let usage: Usage | undefined;
  let model: string | undefined;
  let planned: PlannedCall[];
  let rest: ToolPlanResult['rest'];
  const earlier: EarlierResult[] = base.earlier ? base.earlier.slice() : [];
  const bound = resolveBindings(base.workflow, node, candidates, base.query, base.inputs, earlier);
  const only = candidates.length === 1 ? candidates[0]! : undefined;
  if (only && bound && everyParamBound(only, bound[only.name])) {
    // Every parameter of the node's one tool is bound: the call needs no model.
    planned = [{ tool: only.name, args: {} }];
  } else
    try {
      // Object.assign, not `{ ...base, node, … }`: on Node 20's V8 each key added after a spread
      // costs about a microsecond, and every tool node builds this request (base is our own object).
      const req: ToolPlanRequest = Object.assign({}, base, { node, candidates, attempt: n });
      if (previousError !== undefined) req.previousError = previousError;
      if (bound) req.bound = bound;
      const plan = await raceAbort(policy.planToolCalls(req), base.signal);
      if (plan.usage) usage = plan.usage;
      if (plan.model !== undefined) model = plan.model;
      if (plan.error)
        return withCost({ status: 'error', error: `no valid plan: ${plan.error}`, calls: [] }, usage, model);
      planned = Array.isArray(plan.calls) ? plan.calls : [];
      if (node.calls === 'many' && typeof plan.rest === 'function') rest = plan.rest;
    } catch (e) {
      if (isAbortError(e) || base.signal?.aborted || isBudgetExhausted(e)) throw e;
      return {
        status: 'error',
        error: `${policy.label} failed to plan tool node '${node.id}': ${errorMessage(e)}`,
        calls: [],
      };
    }
  if (node.calls !== 'many') planned = planned.slice(0, 1);
  if (planned.length === 0 && !rest) {
    return node.calls === 'many' || node.optional
      ? withCost({ status: 'ok', calls: [] }, usage, model)
      : withCost(
          { status: 'error', error: `the policy planned no call for tool node '${node.id}'`, calls: [] },
          usage,
          model,
        );
  }
  const calls: CallObservation[] = [];
  const maxOutput = deps.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const queue = planned.slice();
  for (let rounds = 0; ;) {
    if (queue.length === 0) {
      // The rest of the plan, asked for with the calls made so far (`ToolPlanResult.rest`), a bounded
      // number of times whatever the policy returns.
      if (!rest || rounds >= MAX_PLAN_ROUNDS) break;
      rounds++;
      const own = calls.map((c) => {
        const e: EarlierCall = { nodeId: node.id, tool: c.tool, args: c.args, status: c.status };
        if (c.output !== undefined) e.output = c.output;
        return e;
      });
      let next: ToolPlanResult;
      try {
        next = await raceAbort(rest(own), base.signal);
      } catch (e) {
        if (isAbortError(e) || base.signal?.aborted || isBudgetExhausted(e)) throw e;
        break;
      }
      if (next.usage) usage = addUsage(usage, next.usage);
      rest = typeof next.rest === 'function' ? next.rest : undefined;
      if (Array.isArray(next.calls)) queue.push(...next.calls);
      continue;
    }
    const p = queue.shift()!;
    const planArgs = p.args && typeof p.args === 'object' && !Array.isArray(p.args) ? p.args : {};
    const tool = candidateNamed(candidates, p.tool);
    // Bound parameters are resolved again for each call, with the calls this step made before it
    // (a lookup of the id the step's own search returned) and the part of the request it serves.
    const bindings = tool ? bindingsFor(base.workflow, node, p.tool) : [];
    const own =
      bindings.length > 0
        ? boundArgs(
            bindings,
            p.tool,
            {
              query: base.query,
              ...(p.part !== undefined ? { part: p.part } : {}),
              outputs: new Map(base.inputs.map((i) => [i.nodeId, i.output])),
              earlier,
            },
            tool!.inputSchema,
          )
        : undefined;
    const args = own ? { ...planArgs, ...own } : planArgs;
    if (!tool) {
      const allowed = new Set(candidates.map((c) => c.name));
      const list = [...allowed].slice(0, 10).join(', ');
      calls.push({
        tool: p.tool,
        args,
        status: 'error',
        error: `tool '${p.tool}' is not a candidate of node '${node.id}' (candidates: ${list}${allowed.size > 10 ? ', …' : ''})`,
        durationMs: 0,
        attempt: n,
      });
      continue;
    }
    let callArgs = args;
    let withheld: CallObservation | undefined;
    const checks = deps.preCallChecks;
    if (checks && checks.length > 0) {
      // One request per planned call, shared by its checks (a check that rewrites the arguments
      // rewrites them for the checks after it); a check that answers at once is not awaited. Built
      // with Object.assign for the reason given at the plan request above.
      const req: PreCallRequest = Object.assign({}, base, { node, attempt: n, tool, args: callArgs });
      for (const check of checks) {
        const pending = check(req);
        const decision = isPromiseLike(pending) ? await pending : pending;
        if (!decision) continue;
        if ('withhold' in decision) {
          const w = decision.withhold;
          withheld = {
            tool: p.tool,
            args: callArgs,
            status: w.status,
            ...(w.status === 'ok' ? { output: boundOutput(w.output, maxOutput) } : { error: w.error }),
            durationMs: 0,
            attempt: n,
          };
          break;
        }
        req.args = callArgs = decision.args;
      }
    }
    if (withheld) {
      calls.push(withheld);
      continue;
    }
    const ctx: ToolCallContext = {};
    if (base.signal) ctx.signal = base.signal;
    if (deps.callTimeoutMs !== undefined) ctx.timeoutMs = deps.callTimeoutMs;
    const outcome = await deps.tools.call(p.tool, callArgs, ctx);
    if (base.signal?.aborted) throw abortError();
    const call: CallObservation = {
      tool: outcome.tool,
      args: outcome.args,
      status: outcome.status,
      durationMs: outcome.durationMs,
      attempt: n,
    };
    if (outcome.output !== undefined) call.output = boundOutput(outcome.output, maxOutput);
    if (outcome.error !== undefined) call.error = outcome.error;
    if (outcome.origin !== undefined) call.origin = outcome.origin;
    calls.push(call);
    earlier.push({ nodeId: node.id, tool: call.tool, status: call.status, output: call.output });
    // A later call of this node (`calls: 'many'`) may be grounded in this one's output (grounding.ts).
    if (call.status === 'ok') recordRunCall(base.scratch, call);
  }
  if (calls.length === 0) return withCost({ status: 'ok', calls }, usage, model);
  const failed = calls.filter((c) => c.status === 'error');
  if (failed.length === calls.length) {
    return withCost(
      { status: 'error', error: failed.map((c) => `${c.tool}: ${c.error}`).join('; '), calls },
      usage,
      model,
    );
  }
  return withCost({ status: 'ok', calls }, usage, model);
}

/** `attempt` with what planning it cost (usage, then model, when there are any). */
function withCost(attempt: ToolAttempt, usage: Usage | undefined, model: string | undefined): ToolAttempt {
  if (usage) attempt.usage = usage;
  if (model !== undefined) attempt.model = model;
  return attempt;
}

/** True when the tool has parameters and `bound` gives every one of them a value. */
function everyParamBound(tool: ToolDescriptor, bound: Record<string, unknown> | undefined): boolean {
  const props = (tool.inputSchema as { properties?: object } | undefined)?.properties;
  if (!props || !bound) return false;
  let any = false;
  for (const p of Object.keys(props)) {
    if (bound[p] === undefined) return false;
    any = true;
  }
  return any;
}

/** The candidate named `name` (the first, if the hint names a tool twice). */
function candidateNamed(candidates: readonly ToolDescriptor[], name: string): ToolDescriptor | undefined {
  for (const c of candidates) if (c.name === name) return c;
  return undefined;
}

function isPromiseLike<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | undefined)?.then === 'function';
}
