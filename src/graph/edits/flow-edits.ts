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
import type {
  CollapseStepsEdit,
  DropMinedEdit,
  ParallelizeEdit,
  SequentializeEdit,
  SetCallsEdit,
  SetRetryEdit,
} from './edit-schema.js';
import { GENERIC_STEP_TASK } from '../prompt-templates.js';
import type { ToolBinding, ToolHint, ToolNode } from '../schema.js';

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

/** Sets whether a step issues one call or several. */
export function setCalls(w: Workflow, edit: SetCallsEdit): void {
  const node = requireKind(w, edit.id, 'tool');
  if (edit.calls === 'one') delete node.calls;
  else node.calls = edit.calls;
}

/**
 * Every node between the entry (plan) and the exit (synthesis) becomes one repeating tool step with a
 * generic task, reading the request part by part, that keeps the first hint per tool and the first
 * binding per tool parameter whose source names no node (what any step picking the tool reads):
 * what the search learned survives when the mined layout of positions is dropped.
 */
export function collapseSteps(w: Workflow, edit: CollapseStepsEdit): void {
  const entry = w.nodes.find((n) => isEntry(w, n.id));
  const exit = w.nodes.find((n) => isExit(w, n.id));
  if (!entry || !exit)
    refuse('the workflow needs a plan entry and a synthesize exit to collapse the steps between them');
  const tools = w.nodes.filter((n): n is ToolNode => n.kind === 'tool');
  if (tools.length === 0) refuse('the workflow has no tool step to collapse');
  if (edit.id === entry.id || edit.id === exit.id)
    refuse(`'${edit.id}' is the entry or the exit; name the repeating step otherwise`);
  const hints: ToolHint[] = [];
  const bind: ToolBinding[] = [];
  for (const n of tools) {
    for (const h of n.hints ?? []) if (!hints.some((x) => x.tool === h.tool)) hints.push(h);
    for (const b of n.bind ?? [])
      if (
        !('node' in b.source && b.source.node !== undefined) &&
        !bind.some((x) => x.tool === b.tool && x.param === b.param)
      )
        bind.push(b);
  }
  const step: ToolNode = {
    id: edit.id,
    kind: 'tool',
    task: GENERIC_STEP_TASK,
    calls: 'many',
    ...(hints.length > 0 ? { hints } : {}),
    ...(bind.length > 0 ? { bind } : {}),
  };
  w.nodes = [entry, step, exit];
  w.edges = [
    { from: entry.id, to: step.id, kind: 'data' },
    { from: step.id, to: exit.id, kind: 'data' },
  ];
}

/** Clears every tool step's `mined` tools (see `DropMinedEditSchema`); refused when no step has any. */
export function dropMined(w: Workflow, _edit: DropMinedEdit): void {
  const mined = w.nodes.filter((n): n is ToolNode => n.kind === 'tool' && (n.mined ?? []).length > 0);
  if (mined.length === 0) refuse('no tool step has mined tools to drop');
  for (const n of mined) delete n.mined;
}
