import type { ToolNode } from './schema.js';

/**
 * Argument directives of a tool position (docs/DESIGN.md, "Search": the edit vocabulary): sentences
 * in a tool node's task that fix one argument of one tool at that position, written by an optimizer
 * from execution feedback (`set_task`) and read by every policy — the LLM policy reads them as part of
 * the task in its tool-plan prompt; the offline policy, which fills arguments by rule, applies them
 * after filling (`applyArgDirectives`). Two forms, one sentence each:
 *
 *   For `<tool>`, set `<argument>` to `<JSON value>`.
 *   For `<tool>`, leave `<argument>` out.
 *
 * "set" is for a parameter the reference calls at this position gave one value throughout (a format,
 * a page size, a flag); "leave out" for an optional parameter they never gave. A directive names
 * its tool, so it acts only on calls of that tool and a position keeps its choice among several.
 */

export type ArgDirective = { tool: string; key: string; value: unknown } | { tool: string; key: string; omit: true };

const SET = /For `([^`]+)`, set `([^`]+)` to `([^`]*)`\./g;
const OMIT = /For `([^`]+)`, leave `([^`]+)` out\./g;

/** The directive as its sentence. */
export function formatArgDirective(d: ArgDirective): string {
  return 'omit' in d ? `For \`${d.tool}\`, leave \`${d.key}\` out.` : `For \`${d.tool}\`, set \`${d.key}\` to \`${JSON.stringify(d.value)}\`.`;
}

/** The directives a task holds, in order (a later directive on the same tool and argument wins). */
export function parseArgDirectives(task: string): ArgDirective[] {
  const found: Array<{ at: number; d: ArgDirective }> = [];
  for (const m of task.matchAll(SET)) {
    let value: unknown;
    try {
      value = JSON.parse(m[3]!);
    } catch {
      continue;
    }
    found.push({ at: m.index!, d: { tool: m[1]!, key: m[2]!, value } });
  }
  for (const m of task.matchAll(OMIT)) found.push({ at: m.index!, d: { tool: m[1]!, key: m[2]!, omit: true } });
  return found.sort((a, b) => a.at - b.at).map((x) => x.d);
}

/** Whether the task already has a directive for this tool and argument. */
export function hasArgDirective(task: string, tool: string, key: string): boolean {
  return parseArgDirectives(task).some((d) => d.tool === tool && d.key === key);
}

/**
 * `args` of a call of `tool` at `node` with the node's directives applied: "set" gives the argument
 * its value, "leave out" removes it unless it is `required`. Returns the arguments (the same object
 * when no directive applies) and the arguments the directives gave a value.
 */
export function applyArgDirectives(node: Pick<ToolNode, 'task'>, tool: string, args: Record<string, unknown>, required: readonly string[] = []): { args: Record<string, unknown>; set: string[] } {
  const mine = parseArgDirectives(node.task).filter((d) => d.tool === tool);
  if (mine.length === 0) return { args, set: [] };
  const out = { ...args };
  const set: string[] = [];
  for (const d of mine) {
    if ('omit' in d) {
      if (!required.includes(d.key)) delete out[d.key];
    } else {
      out[d.key] = d.value;
      set.push(d.key);
    }
  }
  return { args: out, set };
}

/** `task` with `d` appended, replacing an earlier directive for the same tool and argument. */
export function withArgDirective(task: string, d: ArgDirective): string {
  let text = task;
  for (const re of [SET, OMIT]) {
    text = text.replace(new RegExp(re.source, 'g'), (whole, tool: string, key: string) => (tool === d.tool && key === d.key ? '' : whole));
  }
  return `${text.replace(/\s+$/, '').replace(/\s{2,}/g, ' ')} ${formatArgDirective(d)}`.trim();
}

/** `task` without its argument directives (what the step is for, for ranking tools by the task). */
export function stripArgDirectives(task: string): string {
  return task.replace(new RegExp(SET.source, 'g'), '').replace(new RegExp(OMIT.source, 'g'), '').replace(/\s{2,}/g, ' ').trim();
}
