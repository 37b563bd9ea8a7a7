import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workflow } from '../graph/schema.js';
import { applyEditPlan } from '../graph/edits/apply-edit-plan.js';
import { packageRoot } from '../records/bundled.js';

/**
 * What edit tests share (exported as `flowscout/testing`): the valid workflow fixtures of
 * `test/fixtures/workflows/valid/` (shipped with the package), a readable edge list, and applying
 * edits with the outcome asserted.
 */

/** A workflow of `test/fixtures/workflows/valid/<name>.json`. */
export const fixture = (name: string): Workflow =>
  JSON.parse(readFileSync(join(packageRoot(), 'test', 'fixtures', 'workflows', 'valid', `${name}.json`), 'utf8'));

/** The edges as sorted `from→to kind [when guard]` strings. */
export const edges = (w: Workflow) =>
  w.edges.map((e) => `${e.from}→${e.to} ${e.kind}${e.when ? ` when ${JSON.stringify(e.when)}` : ''}`).sort();

/** Applies the edits as one plan. */
export const apply = (w: Workflow, ...edits: unknown[]) => applyEditPlan(w, { edits });

/** The edited workflow of a plan that must apply. */
export const ok = (r: ReturnType<typeof apply>): Workflow => {
  if (!r.ok) throw new Error(r.error.message);
  return r.workflow;
};

/** The message of a plan that must be refused. */
export const refusal = (r: ReturnType<typeof apply>): string => {
  if (r.ok) throw new Error('expected the plan to be refused');
  return r.error.message;
};
