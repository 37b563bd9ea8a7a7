import { createHash } from 'node:crypto';
import { stableJson } from './hash.js';
import type { ToolBinding, ToolHint, ToolNode, Workflow } from './schema.js';

/**
 * Which hint and which bindings a step reads for a tool (docs/DESIGN.md, "The workflow IR": typed
 * hints and argument bindings): its own, when it has them for the tool, else the first ones another
 * tool node of the workflow has for it. A hint, or a binding whose source names no node, describes a
 * tool, so a search writes it once, on the step that calls the tool most, and every step that picks
 * the tool reads it there. Looked up once per workflow object.
 */

const byWorkflow = new WeakMap<Workflow, Map<string, ToolHint>>();

/** The first hint per tool over a workflow's tool nodes, in node order. */
export function workflowHints(workflow: Workflow): ReadonlyMap<string, ToolHint> {
  let hints = byWorkflow.get(workflow);
  if (!hints) {
    hints = new Map();
    for (const n of workflow.nodes)
      if (n.kind === 'tool') for (const h of n.hints ?? []) if (!hints.has(h.tool)) hints.set(h.tool, h);
    byWorkflow.set(workflow, hints);
  }
  return hints;
}

/** The hint `node` reads for `tool` (see the module comment). */
export function hintFor(workflow: Workflow, node: ToolNode, tool: string): ToolHint | undefined {
  return node.hints?.find((h) => h.tool === tool) ?? workflowHints(workflow).get(tool);
}

const bindingsByWorkflow = new WeakMap<Workflow, Map<string, ToolBinding[]>>();

/** A binding every step that picks its tool may read: its source names no node of the workflow. */
const portable = (b: ToolBinding) => !('node' in b.source && b.source.node !== undefined);

/** The bindings `node` reads for `tool`: its own, then each other parameter's first portable binding elsewhere. */
export function bindingsFor(workflow: Workflow, node: ToolNode, tool: string): ToolBinding[] {
  let all = bindingsByWorkflow.get(workflow);
  if (!all) {
    all = new Map();
    for (const n of workflow.nodes)
      if (n.kind === 'tool')
        for (const b of n.bind ?? []) {
          if (!portable(b)) continue;
          const list = all.get(b.tool) ?? [];
          if (!list.some((x) => x.param === b.param)) list.push(b);
          all.set(b.tool, list);
        }
    bindingsByWorkflow.set(workflow, all);
  }
  const own = (node.bind ?? []).filter((b) => b.tool === tool);
  const shared = (all.get(tool) ?? []).filter((b) => !own.some((o) => o.param === b.param));
  return shared.length === 0 ? own : [...own, ...shared];
}

/** Whether any step of the workflow binds a parameter of `tool` (that `node` may read). */
export function hasBindingsFor(workflow: Workflow, node: ToolNode, tool: string): boolean {
  return bindingsFor(workflow, node, tool).length > 0;
}

const keys = new WeakMap<Workflow, string>();

/**
 * Every hint and portable binding of a workflow as a short key ('' when it has none): what a memo
 * scope adds for a tool node, since the node reads hints and bindings other nodes keep and the tool
 * index reads every hint's words, so its decisions depend on the whole workflow's, not on its own
 * definition alone.
 */
export function hintsKey(workflow: Workflow): string {
  let key = keys.get(workflow);
  if (key === undefined) {
    const hints = workflow.nodes.flatMap((n) =>
      n.kind === 'tool' && (n.hints?.length || n.bind?.some(portable))
        ? [[n.id, n.hints ?? [], n.bind?.filter(portable) ?? []]]
        : [],
    );
    key =
      hints.length === 0 ? '' : `hints ${createHash('sha256').update(stableJson(hints)).digest('hex').slice(0, 16)}`;
    keys.set(workflow, key);
  }
  return key;
}
