import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workflow } from '../schema.js';
import { applyEditPlan } from './apply-edit-plan.js';

/**
 * What the edit tests share (test code only; nothing outside the tests imports this file): the
 * valid workflow fixtures, a readable edge list, and applying edits with the outcome asserted.
 */

/** A workflow of `test/fixtures/workflows/valid/<name>.json`. */
export const fixture = (name: string): Workflow =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../../test/fixtures/workflows/valid', `${name}.json`), 'utf8'));

/** The edges as sorted `from→to kind [when guard]` strings. */
export const edges = (w: Workflow) => w.edges.map((e) => `${e.from}→${e.to} ${e.kind}${e.when ? ` when ${JSON.stringify(e.when)}` : ''}`).sort();

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
