import { createHash } from 'node:crypto';
import { stableJson } from './hash.js';
import type { ToolHint, ToolNode, Workflow } from './schema.js';

/**
 * Which hint a step reads for a tool (docs/DESIGN.md, "The workflow IR": typed hints): its own, when
 * it has one for the tool, else the first one another tool node of the workflow has for it. A hint
 * describes a tool, so a search writes each tool's hint once, on the step that calls it most, and
 * every step that picks the tool reads it there. Looked up once per workflow object.
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

const keys = new WeakMap<Workflow, string>();

/**
 * Every hint of a workflow as a short key ('' when it has none): what a policy's memo scope adds for
 * a node, since the node reads hints other nodes keep and the tool index reads every hint's words,
 * so its decisions depend on the hints of the whole workflow, not on its own definition alone.
 */
export function hintsKey(workflow: Workflow): string {
  let key = keys.get(workflow);
  if (key === undefined) {
    const hints = workflow.nodes.flatMap((n) => (n.kind === 'tool' && n.hints?.length ? [[n.id, n.hints]] : []));
    key =
      hints.length === 0 ? '' : `hints ${createHash('sha256').update(stableJson(hints)).digest('hex').slice(0, 16)}`;
    keys.set(workflow, key);
  }
  return key;
}
