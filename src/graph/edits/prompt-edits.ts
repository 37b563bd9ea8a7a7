import type { Workflow } from '../schema.js';
import { requireKind } from './draft.js';
import type { SetPromptEdit, SetTaskEdit, SetToolHintEdit } from './edit-schema.js';

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
