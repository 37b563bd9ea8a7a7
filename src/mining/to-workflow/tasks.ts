import type { ToolDescriptor } from '../../contracts/tools.js';

/**
 * Task text of a step (docs/DESIGN.md, "Mining": each activity becomes a step whose task
 * comes from the mined tool's description; a step, not a binding). The task says what the step achieves, taken
 * from the description of the tool used most at this step; the tool names themselves stay in
 * `mined`, so the policy may still pick any tool of T.
 */
export function stepTask(
  step: number,
  mined: readonly string[],
  descriptors: ReadonlyMap<string, ToolDescriptor>,
): string {
  const top = mined.find((t) => descriptors.has(t));
  const what = top ? firstSentence(descriptors.get(top)!.description) : '';
  const base = what
    ? `Step ${step}: look up what this step of the request needs. Typical use: ${what}`
    : `Step ${step}: look up what this step of the request needs with a suitable tool.`;
  if (mined.length <= 1) return base;
  return `${base} (${mined.length} different tools were used at this step in past runs; pick the one that fits the request.)`;
}

/** The judge's question for an optional step. */
export function stepQuestion(
  step: number,
  mined: readonly string[],
  descriptors: ReadonlyMap<string, ToolDescriptor>,
): string {
  const top = mined.find((t) => descriptors.has(t));
  const what = top ? firstSentence(descriptors.get(top)!.description, 140) : 'a further lookup';
  return `Does this request need step ${step} (typical use: ${what})?`;
}

/** The first sentence of a description, at most `max` characters, on one line. */
export function firstSentence(text: string, max = 220): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(flat);
  const s = m ? m[1]! : flat;
  return s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`;
}

/** What a sequence of tools does, from their descriptions (a route's or a branch option's `about`). */
export function toolsAbout(tools: readonly string[], descriptors: ReadonlyMap<string, ToolDescriptor>): string {
  const distinct = [...new Set(tools)];
  const parts = distinct
    .slice(0, 3)
    .map((t) => firstSentence(descriptors.get(t)?.description ?? '', 70).replace(/\.+$/, '') || t);
  return `${parts.join('; ')}${distinct.length > 3 ? `; and ${distinct.length - 3} more` : ''}`;
}
