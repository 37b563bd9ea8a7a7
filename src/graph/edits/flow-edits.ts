import type { Workflow } from '../schema.js';
import {
  findEdge,
  hasPath,
  inEdges,
  isEntry,
  isExit,
  outEdges,
  refuse,
  removeEdge,
  requireKind,
  requireNode,
  upsertEdge,
} from './draft.js';
import type { ParallelizeEdit, SequentializeEdit, SetCallsEdit, SetRetryEdit } from './edit-schema.js';

/**
 * Control-flow edits other than branches (docs/DESIGN.md, "Edit plans": parallelize, sequentialize, set
 * retry / calls). Parallel means unguarded fan-out and join (docs/DESIGN.md, "Execution"), so these edits
 * only move edges; the runtime runs siblings concurrently.
 */

/**
 * `first → second` become siblings: second also takes first's in-edges, first also feeds second's
 * successors, and the edge between them goes. Guards on second's out-edges read second's output, so
 * first's copies are unguarded. Refuses when second would still depend on first through another path.
 */
export function parallelize(w: Workflow, edit: ParallelizeEdit): void {
  const { first, second } = edit;
  requireNode(w, first);
  requireNode(w, second);
  if (first === second) refuse('first and second are the same node');
  const edge = findEdge(w, first, second);
  if (!edge)
    refuse(
      `'${second}' does not directly follow '${first}' (there is no edge ${first} → ${second}); parallelize takes two nodes in sequence`,
    );
  if (edge.when) refuse(`the edge ${first} → ${second} is guarded (a branch); remove or refine the branch instead`);
  if (isEntry(w, first)) refuse(`'${first}' is the entry of the workflow; nothing can run beside it`);
  if (isExit(w, second)) refuse(`'${second}' is the exit of the workflow; nothing can run beside it`);
  removeEdge(w, first, second);
  if (hasPath(w, first, second))
    refuse(`'${second}' still depends on '${first}' through another path, so they cannot run side by side`);
  for (const e of inEdges(w, first))
    upsertEdge(w, { from: e.from, to: second, kind: e.kind, ...(e.when ? { when: e.when } : {}) });
  for (const e of outEdges(w, second)) upsertEdge(w, { from: first, to: e.to, kind: e.kind });
}

/**
 * Two independent nodes become the sequence `first → second` (a data edge). Edges that the new
 * sequence makes redundant go: a shared predecessor's edge into second, and first's edge into a shared
 * successor. The inverse of parallelize.
 */
export function sequentialize(w: Workflow, edit: SequentializeEdit): void {
  const { first, second } = edit;
  requireNode(w, first);
  requireNode(w, second);
  if (first === second) refuse('first and second are the same node');
  if (hasPath(w, first, second))
    refuse(`'${second}' already runs after '${first}'; sequentialize takes two independent nodes`);
  if (hasPath(w, second, first))
    refuse(
      `'${first}' already runs after '${second}', so '${second}' cannot follow it (that would be a cycle); swap first and second`,
    );
  const predsOfFirst = new Set(inEdges(w, first).map((e) => e.from));
  const succsOfSecond = new Set(outEdges(w, second).map((e) => e.to));
  w.edges = w.edges.filter(
    (e) => !(e.to === second && predsOfFirst.has(e.from)) && !(e.from === first && succsOfSecond.has(e.to)),
  );
  w.edges.push({ from: first, to: second, kind: 'data' });
}

/** Sets (attempts 1..5, checked by validation) or clears (`attempts: null`) a tool node's retry. */
export function setRetry(w: Workflow, edit: SetRetryEdit): void {
  const node = requireKind(w, edit.id, 'tool');
  if (edit.attempts === null) {
    if (edit.on !== undefined) refuse('"on" goes with attempts; to clear the retry give attempts: null alone');
    delete node.retry;
    return;
  }
  node.retry = { attempts: edit.attempts, on: edit.on ?? node.retry?.on ?? 'error' };
}

/** Sets whether a tool position issues one call or several. */
export function setCalls(w: Workflow, edit: SetCallsEdit): void {
  const node = requireKind(w, edit.id, 'tool');
  if (edit.calls === 'one') delete node.calls;
  else node.calls = edit.calls;
}
