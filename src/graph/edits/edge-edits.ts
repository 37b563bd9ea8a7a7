import type { Workflow } from '../schema.js';
import { findEdge, refuse, requireEdge, requireNode } from './draft.js';
import type { AddEdgeEdit, ReconnectEdgeEdit, RemoveEdgeEdit } from './edit-schema.js';

/** Edge edits (docs/DESIGN.md, "Edit plans": add / remove / reconnect an edge). */

/** Adds one edge (data unless told otherwise); refuses a duplicate. Cycles are caught by validation. */
export function addEdge(w: Workflow, edit: AddEdgeEdit): void {
  requireNode(w, edit.from);
  requireNode(w, edit.to);
  if (findEdge(w, edit.from, edit.to)) {
    refuse(
      `the edge ${edit.from} → ${edit.to} already exists; use refine_branch to change its guard, or remove_edge first`,
    );
  }
  w.edges.push({ from: edit.from, to: edit.to, kind: edit.kind ?? 'data', ...(edit.when ? { when: edit.when } : {}) });
}

/** Removes one edge; refuses when it does not exist. */
export function removeEdgeEdit(w: Workflow, edit: RemoveEdgeEdit): void {
  requireEdge(w, edit.from, edit.to);
  w.edges = w.edges.filter((e) => !(e.from === edit.from && e.to === edit.to));
}

/** Moves one or both ends of an edge, keeping its kind and guard (validation checks a guard against a new source). */
export function reconnectEdge(w: Workflow, edit: ReconnectEdgeEdit): void {
  const edge = requireEdge(w, edit.from, edit.to);
  if (edit.newFrom === undefined && edit.newTo === undefined)
    refuse('give newFrom, newTo or both; nothing would change');
  const from = edit.newFrom ?? edit.from;
  const to = edit.newTo ?? edit.to;
  requireNode(w, from);
  requireNode(w, to);
  if (from === edit.from && to === edit.to) refuse(`the edge already is ${from} → ${to}; nothing would change`);
  if (findEdge(w, from, to))
    refuse(`the edge ${from} → ${to} already exists; remove_edge ${edit.from} → ${edit.to} instead`);
  edge.from = from;
  edge.to = to;
}
