import { parseJsonPath } from './resolve.js';
import type { BindingSource, ToolBinding, Transform } from './schema.js';

/**
 * Bindings for people and models: one short line (`lat ← search_places → [*].lat (first)`) for
 * Mermaid, the web UI and the CLI, and one sentence for a model's request ("`lat` is the `lat` of
 * the first item of the latest search_places result"), so a model need not guess a value the
 * workflow already knows where to find.
 */

const transformText = (t: Transform | undefined): string => {
  if (!t) return '';
  switch (t.op) {
    case 'last-segment':
      return ', its last segment';
    case 'split':
      return `, part ${t.index} of it split at "${t.sep}"`;
    case 'join':
      return t.withFirst ? `, after its \`${t.with}\` and "${t.sep}"` : `, then "${t.sep}" and its \`${t.with}\``;
    case 'number':
      return t.digits === undefined ? ', as a number' : `, as a number with ${t.digits} decimals`;
  }
};

const pickText = (s: Extract<BindingSource, { from: 'output' }>) =>
  s.pick === 'last' ? 'last' : s.pick === 'match' ? `item whose ${s.by} the request names` : 'first';

const resultOf = (s: Extract<BindingSource, { from: 'output' }>) =>
  s.node !== undefined
    ? `${s.node}'s result`
    : s.tool !== undefined
      ? `the latest ${s.tool} result`
      : 'the latest result';

/** One short line: `symbol ← request /…/`, `id ← step_2 → items[*].id (first)`. */
export function describeBinding(b: ToolBinding): string {
  const s = b.source;
  const src =
    s.from === 'const'
      ? `constant ${JSON.stringify(s.value)}`
      : s.from === 'request'
        ? `request /${s.pattern}/${s.flags ?? ''}${s.group !== undefined && s.group !== 1 ? ` group ${s.group}` : ''}`
        : s.from === 'known'
          ? `request, one of ${s.values.length} known values`
          : s.from === 'extract'
            ? `${s.node}.${s.field}`
            : s.from === 'output'
              ? `${s.node ?? s.tool ?? 'latest result'} → ${s.path}${s.path.includes('[*]') || s.pick ? ` (${pickText(s)})` : ''}${s.transform ? ` ${s.transform.op}` : ''}`
              : 'model';
  return `${b.tool}.${b.param} ← ${src}`;
}

/** The binding as a sentence for a model: where the value comes from, with the value when it is known. */
export function bindingSentence(b: ToolBinding, value?: unknown): string {
  const s = b.source;
  const known = value === undefined ? '' : ` (here: ${JSON.stringify(value)})`;
  switch (s.from) {
    case 'const':
      return `\`${b.param}\` is always ${JSON.stringify(s.value)}`;
    case 'request':
    case 'known':
      return `\`${b.param}\` is taken from the request${known}`;
    case 'extract':
      return `\`${b.param}\` is the \`${s.field}\` of ${s.node}'s answer${known}`;
    case 'model':
      return `\`${b.param}\` is yours to fill`;
    case 'output': {
      // The whole result (`$`: a path of no steps, as the resolver reads it).
      if (parseJsonPath(s.path)?.length === 0)
        return `\`${b.param}\` is ${resultOf(s)} itself${transformText(s.transform)}${known}`;
      const field = s.path.replace(/^.*\[\*\]\.?/, '') || 'value';
      const item =
        s.pick === 'match'
          ? `the item whose \`${s.by}\` the request names`
          : `the ${s.pick === 'last' ? 'last' : 'first'} item`;
      const where = s.path.includes('[*]') ? `of ${item} in` : 'of';
      return `\`${b.param}\` is the \`${field}\` ${where} ${resultOf(s)}${transformText(s.transform)}${known}`;
    }
  }
}
