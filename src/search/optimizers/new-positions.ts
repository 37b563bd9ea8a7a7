import type { EditPlan } from '../../graph/edits/edit-schema.js';
import { adjacency, entryIds, exitIds } from '../../graph/graph-utils.js';
import { neutralTask } from '../../graph/neutral-tasks.js';
import type { Workflow } from '../../graph/schema.js';
import { firstSentence } from '../../mining/to-workflow/tasks.js';
import { edit, toolNode, type RuleContext, type RuleEdit } from './rule-edit.js';

/**
 * The new tool positions the rule table (rule-edits.ts) adds: one hinted with the tools the
 * references call at a slot where calls are missing, and a generic one appended after the last
 * position when the references take more steps than there are positions.
 */

/**
 * A new tool position after `after` (the entry when absent), fed to what followed it and to the exit.
 * It is also fed by the entry (as every mined position is), so it still runs when `after` is an
 * optional position that was skipped.
 */
export function addPosition(
  ctx: RuleContext,
  after: string | undefined,
  tools: string[],
  score: number,
  why: string,
): RuleEdit {
  const w = ctx.workflow;
  const adj = adjacency(w);
  const exit = exitIds(adj)[0]!;
  const entry = entryIds(adj)[0]!;
  const from = after ?? entry;
  const next = [...(adj.out.get(from) ?? [])].map((e) => e.to).filter((t) => t !== exit);
  const id = freeId(
    w,
    `add_${(tools[0] ?? 'call')
      .replace(/_for_.*/, '')
      .replace(/[^A-Za-z0-9_]/g, '_')
      .slice(0, 40)}`,
  );
  const d = ctx.tools.get(tools[0] ?? '');
  const task = `Look up ${d ? firstSentence(d.description, 200) : 'what the request asks for next'}`;
  const known = tools.filter((t) => ctx.tools.has(t));
  const node = { kind: 'tool' as const, id, task, ...(known.length ? { tools: known } : {}) };
  const edits: EditPlan['edits'] =
    next.length > 0
      ? [
          { op: 'add_node', node, from: [from], to: next },
          { op: 'add_edge', from: id, to: exit },
        ]
      : [{ op: 'add_node', node, from: [from], to: [exit], keepDirectEdges: true }];
  if (from !== entry) edits.push({ op: 'add_edge', from: entry, to: id });
  return edit(
    `add_node ${id} after ${from} (hint: ${known.slice(0, 3).join(', ')}${known.length > 3 ? ', …' : ''}): ${why}`,
    score,
    ...edits,
  );
}

/**
 * A generic position appended after the last one (fed by it and by the entry, feeding the exit): no
 * tool hint and the neutral task of the next part (marked `taskPart: 'next'`), so the request's next
 * part decides. It takes over the last position's `calls` and `retry` (a repeating last position
 * keeps repeating at the end).
 */
export function appendPosition(ctx: RuleContext, last: string, score: number, why: string): RuleEdit {
  const w = ctx.workflow;
  const adj = adjacency(w);
  const exit = exitIds(adj)[0]!;
  const entry = entryIds(adj)[0]!;
  const prev = toolNode(w, last);
  const id = freeId(w, 'step_more');
  const node = {
    kind: 'tool' as const,
    id,
    task: neutralTask('next'),
    taskPart: 'next' as const,
    ...(prev?.calls ? { calls: prev.calls } : {}),
    ...(prev?.retry ? { retry: prev.retry } : {}),
  };
  const edits: EditPlan['edits'] = [{ op: 'add_node', node, from: [last], to: [exit], keepDirectEdges: true }];
  if (last !== entry) edits.push({ op: 'add_edge', from: entry, to: id });
  if (prev?.calls === 'many') edits.push({ op: 'set_calls', id: last, calls: 'one' });
  return edit(`add_node ${id} after ${last} (a generic position at the end): ${why}`, score, ...edits);
}

/** An unused node id starting with `base`. */
export function freeId(w: Workflow, base: string): string {
  const ids = new Set(w.nodes.map((n) => n.id));
  const clean = /^[A-Za-z_]/.test(base) ? base.slice(0, 60) : `n_${base}`.slice(0, 60);
  if (!ids.has(clean)) return clean;
  for (let i = 2; ; i++) if (!ids.has(`${clean}_${i}`)) return `${clean}_${i}`;
}
