import type { Workflow } from '../schema.js';
import {
  findEdge,
  inEdges,
  isEntry,
  isExit,
  materializeNode,
  outEdges,
  refuse,
  removeEdge,
  requireNewId,
  requireNode,
  upsertEdge,
} from './draft.js';
import type { AddNodeEdit, RemoveNodeEdit, ReplaceNodeEdit } from './edit-schema.js';

/**
 * Node edits (docs/DESIGN.md, "Edit plans": add / remove / replace an LLM or tool node). Each mutates
 * the draft it is given (applyEditPlan hands it a private copy) or refuses.
 */

/** Inserts a new node with edges from every `from` node and to every `to` node. */
export function addNode(w: Workflow, edit: AddNodeEdit): void {
  const node = materializeNode(edit.node);
  requireNewId(w, node.id);
  for (const id of [...edit.from, ...edit.to]) requireNode(w, id);
  const kind = edit.kind ?? 'data';
  w.nodes.push(node);
  for (const from of edit.from) {
    for (const to of edit.to) {
      if (!edit.keepDirectEdges && findEdge(w, from, to)) removeEdge(w, from, to);
    }
  }
  for (const from of edit.from) upsertEdge(w, { from, to: node.id, kind });
  for (const to of edit.to) upsertEdge(w, { from: node.id, to, kind });
}

/**
 * Removes a node and connects each predecessor to each successor, so nothing downstream is cut off.
 * A bridging edge keeps the in-edge's kind and guard (the guard reads the predecessor, which is still
 * there); guards of the out-edges read the removed node and are dropped. Refuses the entry and exit.
 */
export function removeNode(w: Workflow, edit: RemoveNodeEdit): void {
  requireNode(w, edit.id);
  if (isEntry(w, edit.id))
    refuse(
      `'${edit.id}' is the entry of the workflow and cannot be removed; every workflow starts with one plan node (edit its prompt with set_prompt instead)`,
    );
  if (isExit(w, edit.id))
    refuse(
      `'${edit.id}' is the exit of the workflow and cannot be removed; every workflow ends with one synthesize node (edit its prompt with set_prompt instead)`,
    );
  const ins = inEdges(w, edit.id);
  const outs = outEdges(w, edit.id);
  w.nodes = w.nodes.filter((n) => n.id !== edit.id);
  w.edges = w.edges.filter((e) => e.from !== edit.id && e.to !== edit.id);
  for (const i of ins) {
    for (const o of outs) {
      if (i.from === o.to) continue;
      upsertEdge(w, { from: i.from, to: o.to, kind: i.kind, ...(i.when ? { when: i.when } : {}) });
    }
  }
}

/** Replaces a node's definition, keeping its edges; a new id renames it in every edge. */
export function replaceNode(w: Workflow, edit: ReplaceNodeEdit): void {
  requireNode(w, edit.id);
  const node = materializeNode(edit.node);
  if (node.id !== edit.id) requireNewId(w, node.id);
  w.nodes = w.nodes.map((n) => (n.id === edit.id ? node : n));
  if (node.id !== edit.id) {
    for (const e of w.edges) {
      if (e.from === edit.id) e.from = node.id;
      if (e.to === edit.id) e.to = node.id;
    }
  }
}
