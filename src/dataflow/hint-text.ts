import type { ParamHint, ToolHint } from './schema.js';

/**
 * A workflow's hints as a model reads them in a tool-plan request (docs/DESIGN.md, "Policies": the
 * LLM policy shows bindings and hints): per shown tool, the words requests use for it and the tools
 * called before it, and per parameter whether the step sets it, where its value comes from, the
 * words written around it, its format and its recurring values. Shares become words ("usually",
 * "often", "sometimes"), so the text reads as advice; the numbers stay in the workflow.
 */

const often = (share: number): string =>
  share >= 0.9 ? 'almost always' : share >= 0.6 ? 'usually' : share >= 0.3 ? 'often' : 'sometimes';

const top = (shares: Record<string, number> | undefined, k: number): string[] =>
  Object.entries(shares ?? {})
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([w]) => w);

const quoteList = (words: readonly string[]) => words.map((w) => JSON.stringify(w)).join(', ');

/** One line about one parameter (empty when the hint says nothing worth saying). */
export function paramHintText(name: string, h: ParamHint): string {
  const parts: string[] = [];
  if (h.set === 'always') parts.push('set it');
  else if (h.set === 'never') parts.push('leave it out');
  else if (h.set === 'if-asked') {
    const asked = Object.entries(h.asked ?? {})
      .filter(([, w]) => w > 0)
      .map(([w]) => w);
    parts.push(
      `set it only when the request asks for it${asked.length > 0 ? ` (e.g. mentions ${quoteList(asked.slice(0, 4))})` : ''}`,
    );
  }
  const from = Object.entries(h.from ?? {}).sort((a, b) => b[1] - a[1])[0];
  if (from) {
    const where = { request: 'from the request', upstream: 'from an earlier result', constant: 'a fixed value' }[
      from[0] as 'request' | 'upstream' | 'constant'
    ];
    parts.push(`${often(from[1])} ${where}`);
  }
  const before = top(h.before, 3);
  if (before.length > 0) parts.push(`written after ${quoteList(before)}`);
  const after = top(h.after, 2);
  if (after.length > 0) parts.push(`followed by ${quoteList(after)}`);
  const keys = top(h.keys, 3);
  if (keys.length > 0) parts.push(`found under ${quoteList(keys)} in earlier results`);
  const shapes = top(h.shapes, 2);
  if (shapes.length > 0) parts.push(`shaped like ${shapes.join(' or ')}`);
  const f = h.format;
  if (f?.template) parts.push(`dates as ${JSON.stringify(f.template)}`);
  if (f?.lower) parts.push('names in lower case');
  if (f?.join) parts.push(`words joined by ${JSON.stringify(f.join)}`);
  if (f?.monthNumber) parts.push('months as numbers');
  if (f?.listSep) parts.push(`several values the request names joined by ${JSON.stringify(f.listSep)}`);
  if (f?.type) parts.push(`passed as a ${f.type}`);
  if (h.values?.length)
    parts.push(
      `usual values ${h.values
        .slice(0, 5)
        .map((v) => JSON.stringify(v.value))
        .join(', ')}`,
    );
  return parts.length > 0 ? `  - ${name}: ${parts.join('; ')}` : '';
}

/** The lines about one tool (empty when the hint holds nothing but the tool's name). */
export function toolHintText(h: ToolHint): string {
  const head: string[] = [];
  const asks = top(h.asks, 8);
  if (asks.length > 0) head.push(`requests that need it say ${quoteList(asks)}`);
  const follows = top(h.follows, 2).map((t) => (t === '^' ? 'first' : `after ${t}`));
  if (follows.length > 0) head.push(`usually called ${follows.join(' or ')}`);
  if (h.repeat) head.push(`one call per ${h.repeat} the request gives`);
  const together = (h.together ?? []).filter((c) => c.params.length > 1)[0];
  if (together) head.push(`${quoteList(together.params)} are set together`);
  const params = Object.entries(h.params ?? {})
    .map(([name, p]) => paramHintText(name, p))
    .filter(Boolean);
  if (head.length === 0 && params.length === 0) return '';
  return [`- ${h.tool}${head.length > 0 ? `: ${head.join('; ')}` : ''}`, ...params].join('\n');
}

/** The section of a plan request about the shown tools' hints (undefined when none has one). */
export function hintsSection(hints: readonly ToolHint[]): string | undefined {
  const lines = hints.map(toolHintText).filter(Boolean);
  return lines.length > 0
    ? `What this workflow learned about calling these tools (from past runs; follow it unless the request says otherwise):\n${lines.join('\n')}`
    : undefined;
}
