import type { Workflow } from '../schema.js';
import { requireKind } from './draft.js';
import type { SetBindingEdit, SetPromptEdit, SetTaskEdit, SetToolHintEdit } from './edit-schema.js';

/** Prompt edits (docs/DESIGN.md, "Edit plans": set an LLM prompt, a tool node's task or tool hint). */

/** Replaces an LLM node's prompt (placeholders are checked by validation). */
export function setPrompt(w: Workflow, edit: SetPromptEdit): void {
  requireKind(w, edit.id, 'llm').prompt = edit.prompt;
}

/** Replaces a tool node's task. */
export function setTask(w: Workflow, edit: SetTaskEdit): void {
  requireKind(w, edit.id, 'tool').task = edit.task;
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
