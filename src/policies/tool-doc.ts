import type { ToolDescriptor } from '../contracts/tools.js';

/**
 * A candidate tool as a plan request shows it (docs/ARCHITECTURE.md, "What a model request costs"):
 * its name, the leading part of its description and one line per parameter. The tool docs are most
 * of a plan request's input tokens, so they are written compactly, by two generic rules:
 *
 * - **Description**: its leading lines, taken whole while they fit in `DESCRIPTION_CHARS`; a first
 *   line longer than that is cut at a word boundary and marked `…`. A short description is shown
 *   whole; a long one keeps what comes first — by the usual convention of tool and API docs the
 *   summary of what the tool does — and leaves out the elaboration after it (in imported API
 *   catalogues, a description of the whole API that every endpoint repeats).
 * - **Parameters**: one line each, `- name (type, required): description; default …; one of …`,
 *   instead of the JSON schema. Whatever a line cannot say in those words (nested properties,
 *   `items` of objects, `anyOf`, ranges, patterns, formats) follows on it as compact JSON, and so do
 *   the schema's own keywords beside `properties` and `required`: no constraint is dropped. Only
 *   annotations that say nothing about the arguments are left out: `$schema` (the JSON Schema
 *   dialect), the schema's own `title` and a parameter `title` that merely restates its name.
 *
 * The tool shortlist's retrieval index reads the full description (tool-shortlist.ts), and argument
 * validation uses the full schema; this is only what the planner reads.
 */

/** Characters of a tool's description a plan request shows, at most (plus `…` when cut). */
export const DESCRIPTION_CHARS = 400;

/** A candidate tool as the planner sees it: name, description, parameters. */
export function renderToolDoc(tool: ToolDescriptor): string {
  return [`### ${tool.name}`, toolSummary(tool.description), ...parameterLines(tool.inputSchema)]
    .filter(Boolean)
    .join('\n');
}

/** The description's leading lines within `max` characters; a longer first line cut at a word boundary. */
export function toolSummary(description: string, max = DESCRIPTION_CHARS): string {
  const lines = description
    .trim()
    .split(/\n/)
    .map((l) => l.trim());
  const kept: string[] = [];
  let used = 0;
  let cut = false;
  for (const line of lines) {
    if (!line) {
      // A blank line ends a paragraph; keep it only between kept lines.
      if (kept.length > 0 && kept[kept.length - 1] !== '') kept.push('');
      continue;
    }
    const cost = line.length + (kept.length > 0 ? 1 : 0);
    if (used + cost > max) {
      if (kept.length === 0) return cutAtWord(line, max);
      cut = true;
      break;
    }
    kept.push(line);
    used += cost;
  }
  while (kept[kept.length - 1] === '') kept.pop();
  const shown = kept.join('\n');
  return cut ? `${shown} …` : shown;
}

/** `text` cut to at most `max` characters at the last word boundary (or at `max` in a long word), with `…`. */
function cutAtWord(text: string, max: number): string {
  const head = text.slice(0, max);
  const space = head.lastIndexOf(' ');
  const cut = space >= max / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:]+$/, '')} …`;
}

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The input schema as `Parameters:` lines (or `Parameters: none`) and, when it has any, its other keywords. */
export function parameterLines(schema: unknown): string[] {
  if (!isObject(schema)) return [`Input schema: ${JSON.stringify(schema ?? {})}`];
  // `$schema` names the JSON Schema dialect and a top-level `title` names the schema (the tool's name does).
  const { properties, required, type, $schema, title, description, ...rest } = schema;
  void $schema;
  void title;
  const props = isObject(properties) ? properties : {};
  const req = Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [];
  const names = [...Object.keys(props), ...req.filter((r) => !(r in props))];
  const other: Schema = {
    ...(type !== undefined && type !== 'object' ? { type } : {}),
    ...(typeof description === 'string' && description.trim() ? { description } : {}),
    ...(properties !== undefined && !isObject(properties) ? { properties } : {}),
    ...(required !== undefined && !Array.isArray(required) ? { required } : {}),
    ...rest,
  };
  const lines =
    names.length === 0
      ? ['Parameters: none']
      : ['Parameters:', ...names.map((n) => parameterLine(n, props[n], req.includes(n)))];
  if (Object.keys(other).length > 0) lines.push(`Schema also: ${JSON.stringify(other)}`);
  return lines;
}

/** `- name (type, required): description; default …; one of …; {other keywords}`. */
export function parameterLine(name: string, schema: unknown, required: boolean): string {
  const s = isObject(schema) ? schema : {};
  const { type, description, default: dflt, enum: oneOf, items, title, ...rest } = s;
  const extra: Schema = { ...rest };
  if (title !== undefined && !restates(title, name)) extra.title = title;
  let typeText = typeName(type);
  if (items !== undefined) {
    const itemType = isObject(items) && Object.keys(items).length === 1 ? typeName(items.type) : '';
    if (itemType && typeText === 'array') typeText = `array of ${itemType}`;
    else extra.items = items;
  }
  if (type !== undefined && !typeText) extra.type = type;
  const head = [typeText, required ? 'required' : ''].filter(Boolean).join(', ');
  const parts = [
    ...(typeof description === 'string' && description.trim() ? [oneLine(description)] : []),
    ...(description !== undefined && typeof description !== 'string' ? [JSON.stringify(description)] : []),
    ...(dflt !== undefined ? [`default ${JSON.stringify(dflt)}`] : []),
    ...(Array.isArray(oneOf) ? [`one of ${oneOf.map((v) => JSON.stringify(v)).join(', ')}`] : []),
    ...(oneOf !== undefined && !Array.isArray(oneOf) ? [`enum ${JSON.stringify(oneOf)}`] : []),
    ...(Object.keys(extra).length > 0 ? [JSON.stringify(extra)] : []),
  ];
  return `- ${name}${head ? ` (${head})` : ''}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`;
}

/** A JSON Schema `type` as words: `string`, `number or string`; '' when it is not a type name or list of them. */
function typeName(type: unknown): string {
  if (typeof type === 'string') return type;
  if (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string')) return type.join(' or ');
  return '';
}

/** A title that only restates the parameter's name (`Max Results` for `max_results`), which the line already shows. */
function restates(title: unknown, name: string): boolean {
  const norm = (t: string) => t.toLowerCase().replace(/[^a-z0-9]/g, '');
  return typeof title === 'string' && norm(title) === norm(name);
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
