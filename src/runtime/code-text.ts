import { FlowScoutError } from '../errors/index.js';
import { stableStringify } from '../contracts/canonical-args.js';
import type { Workflow, WorkflowNode } from '../graph/schema.js';

/**
 * Safe text for generated code (compile.ts, export/to-langgraph.ts). Every string that comes from a workflow goes through
 * `literal` (JSON.stringify, then checked) or `commentLines`, so no prompt — backticks, `${}`, a star-slash,
 * quotes, newlines, U+2028 — can break out of a string or a comment.
 */

/**
 * A JavaScript expression equal to `value` (plain JSON data). JSON text is valid JavaScript; U+2028
 * and U+2029 are escaped anyway, and a `__proto__` key (which an object literal would turn into a
 * prototype) makes the value go through `JSON.parse` of a string literal instead. The result is
 * parsed back and compared with the value before it is used.
 */
export function literal(value: unknown, indent?: number): string {
  const json = escapeSeparators(JSON.stringify(value, null, indent));
  if (json === undefined) throw internal('a value without a JSON form (undefined) reached the code generator');
  const text = /"__proto__"\s*:/.test(json) ? `JSON.parse(${escapeSeparators(JSON.stringify(json))})` : json;
  const back: unknown = text.startsWith('JSON.parse(')
    ? JSON.parse(JSON.parse(text.slice('JSON.parse('.length, -1)) as string)
    : JSON.parse(text);
  if (stableStringify(back) !== stableStringify(value))
    throw internal(`a literal did not survive the round trip: ${json.slice(0, 80)}`);
  return text;
}

/**
 * `// ` comment lines for free text: split at every JavaScript line terminator (\n, \r, U+2028,
 * U+2029) so nothing ends the comment early, a star-slash written as `*\/`, long texts capped.
 */
export function commentLines(text: string, indent = '', maxLines = 40): string[] {
  const lines = text.split(/\r\n|[\n\r\u2028\u2029]/).map((l) => l.replace(/\*\//g, '*\\/').replace(/\s+$/, ''));
  const shown =
    lines.length > maxLines ? [...lines.slice(0, maxLines), `… (${lines.length - maxLines} more lines)`] : lines;
  for (const l of shown) {
    if (/[\n\r\u2028\u2029]/.test(l)) throw internal('a comment line still holds a line terminator');
  }
  return shown.map((l) => `${indent}//${l ? ` ${l}` : ''}`);
}

/** Identifier-safe names for node ids (ids allow `-`; two ids may map to one name, so suffixes). */
export function identifierNames(ids: readonly string[], prefix: string): Map<string, string> {
  const used = new Set<string>();
  const out = new Map<string, string>();
  for (const id of ids) {
    const base = `${prefix}${id.replace(/[^A-Za-z0-9_]/g, '_')}`;
    let name = base;
    for (let k = 2; used.has(name); k++) name = `${base}_${k}`;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw internal(`'${name}' is not an identifier`);
    used.add(name);
    out.set(id, name);
  }
  return out;
}

function escapeSeparators(text: string): string;
function escapeSeparators(text: string | undefined): string | undefined;
function escapeSeparators(text: string | undefined): string | undefined {
  return text?.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function internal(message: string): FlowScoutError {
  return new FlowScoutError({
    code: 'INTERNAL',
    message: `code generation: ${message}`,
    hint: 'This is a bug in FlowScout; please report it with the workflow.',
  });
}

/** Indents every line after the first of a multi-line text. */
export function indentText(text: string, indent: string): string {
  return text.split('\n').join(`\n${indent}`);
}

/** One `const <name>: WorkflowNode = …;` line per node, in `order`. */
export function nodeConstLines(
  nodes: ReadonlyMap<string, WorkflowNode>,
  order: readonly string[],
  constName: ReadonlyMap<string, string>,
): string[] {
  return order.map((id) => `const ${constName.get(id)}: WorkflowNode = ${indentText(literal(nodes.get(id)!, 2), '')};`);
}

/**
 * The workflow as data in a generated module: `WORKFLOW_HASH` and `WORKFLOW`, whose nodes are the
 * node constants. `made` says how the module came from the workflow ("compiled", "exported") and
 * `controlFlow` where its control flow lives.
 */
export function workflowDataLines(
  w: Workflow,
  hash: string,
  constName: ReadonlyMap<string, string>,
  made: string,
  controlFlow: string,
): string[] {
  return [
    `/** \`workflowHash\` of the workflow this module was ${made} from; traces carry it. */`,
    `export const WORKFLOW_HASH = ${literal(hash)};`,
    '',
    `/** The workflow as data: policies receive it with every request. ${controlFlow} */`,
    'export const WORKFLOW: Workflow = {',
    '  version: 1,',
    `  name: ${literal(w.name)},`,
    ...(w.description !== undefined ? [`  description: ${literal(w.description)},`] : []),
    `  nodes: [${w.nodes.map((n) => constName.get(n.id)).join(', ')}],`,
    `  edges: ${indentText(literal(w.edges, 2), '  ')},`,
    ...(w.meta !== undefined ? [`  meta: ${indentText(literal(w.meta, 2), '  ')},`] : []),
    '};',
  ];
}
