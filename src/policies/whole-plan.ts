import type { PlannedCall, ToolPlanResult } from './types.js';

/** Most times a step's plan is continued (`ToolPlanResult.rest`), in a run and here alike. */
export const MAX_PLAN_ROUNDS = 32;

/**
 * Every call of a plan, its `rest` followed to the end without running anything: each planned call
 * is taken as made (ok, its result unknown). What a model that plans a step in one answer would
 * be asked to plan (a cost projection), and a plan as a test reads it.
 */
export async function wholePlan(plan: ToolPlanResult, nodeId: string): Promise<PlannedCall[]> {
  const calls = [...plan.calls];
  for (let next = plan.rest, n = 0; next && n < MAX_PLAN_ROUNDS; n++) {
    const more = await next(calls.map((c) => ({ nodeId, tool: c.tool, args: c.args, status: 'ok' as const })));
    calls.push(...more.calls);
    next = more.rest;
  }
  return calls;
}
