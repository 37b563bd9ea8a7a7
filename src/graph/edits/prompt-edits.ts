import type { Workflow } from '../schema.js';
import { synthesizeVariant, type SynthesizeVariant } from '../synthesize-variants.js';
import { refuse, requireKind } from './draft.js';
import type {
  SetBindingEdit,
  SetDirectivesEdit,
  SetHintEdit,
  SetPromptEdit,
  SetTaskEdit,
  SetToolHintEdit,
} from './edit-schema.js';

/** Prompt edits (docs/DESIGN.md, "Edit plans": set an LLM prompt, a synthesizer's directives, a tool node's task or tool hint), and the binding and hint edits of tool nodes. */

/** Replaces an LLM node's prompt (placeholders are checked by validation). */
export function setPrompt(w: Workflow, edit: SetPromptEdit): void {
  requireKind(w, edit.id, 'llm').prompt = edit.prompt;
}

/**
 * Sets a synthesize node's directives (`[]` removes them; the prompt is kept), or switches it to a
 * named variant: the variant's directives and its prompt text. Validation checks the ids.
 */
export function setDirectives(w: Workflow, edit: SetDirectivesEdit): void {
  const node = requireKind(w, edit.id, 'llm');
  if ((edit.directives === undefined) === (edit.variant === undefined))
    refuse('give directives (the ids, in order) or variant (a named variant), exactly one of them');
  if (node.role !== 'synthesize')
    refuse(
      `'${edit.id}' is an llm node with role "${node.role}"; directives say how a synthesize node writes the answer`,
    );
  const chosen = edit.variant !== undefined ? synthesizeVariant(edit.variant as SynthesizeVariant) : undefined;
  if (chosen) node.prompt = chosen.prompt;
  const directives = chosen?.directives ?? [...edit.directives!];
  if (directives.length > 0) node.directives = directives;
  else delete node.directives;
}

/** Replaces a tool node's task, and sets its `taskPart` to the edit's (a new task without one has none). */
export function setTask(w: Workflow, edit: SetTaskEdit): void {
  const node = requireKind(w, edit.id, 'tool');
  node.task = edit.task;
  if (edit.taskPart !== undefined) node.taskPart = edit.taskPart;
  else delete node.taskPart;
}

/** Sets a tool node's hint (deduplicated; checked against T by validation) or clears it (null or []). */
export function setToolHint(w: Workflow, edit: SetToolHintEdit): void {
  const node = requireKind(w, edit.id, 'tool');
  if (edit.tools === null || edit.tools.length === 0) delete node.tools;
  else node.tools = [...new Set(edit.tools)];
}

/**
 * Binds a parameter of one of a tool node's tools to a source, replacing an earlier binding of it,
 * or unbinds it (`source: null`). Validation checks the tool, the parameter and the source's node.
 */
export function setBinding(w: Workflow, edit: SetBindingEdit): void {
  const node = requireKind(w, edit.id, 'tool');
  const rest = (node.bind ?? []).filter((b) => !(b.tool === edit.tool && b.param === edit.param));
  if (edit.source !== null) rest.push({ tool: edit.tool, param: edit.param, source: edit.source });
  if (rest.length > 0) node.bind = rest;
  else delete node.bind;
}

/**
 * Sets a tool node's hint about one tool, replacing an earlier hint of it there, or clears it (`hint:
 * null`). Hints about one tool on other nodes are left as they are (graph/hints.ts: a node reads its
 * own first). Validation checks the tool and the parameters.
 */
export function setHint(w: Workflow, edit: SetHintEdit): void {
  const node = requireKind(w, edit.id, 'tool');
  const rest = (node.hints ?? []).filter((h) => h.tool !== edit.tool);
  if (edit.hint !== null) rest.push({ tool: edit.tool, ...edit.hint });
  if (rest.length > 0) node.hints = rest;
  else delete node.hints;
}
