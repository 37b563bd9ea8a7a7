import { JsonTooDeepError, MAX_VALUE_DEPTH, parseJsonBounded } from '../../../util/json-depth.js';
import type { JsonSchema, ToolDescriptor } from '../../../contracts/tools.js';
import { UnitProblem, type InputUnit } from '../unit.js';
import type { InputDocument } from '../read-inputs.js';

/** Helpers the agent-log format parsers share. */

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `$.messages` + `[3]` / `.content`. */
export function at(path: string, key: string | number): string {
  return typeof key === 'number'
    ? `${path}[${key}]`
    : /^[A-Za-z_$][\w$]*$/.test(key)
      ? `${path}.${key}`
      : `${path}[${JSON.stringify(key)}]`;
}

/** The value of a unit as an object, or a problem saying what was expected. */
export function unitObject(unit: InputUnit, expected: string): Obj {
  if (!isObj(unit.value)) throw new UnitProblem('$', `expected ${expected}, found ${kind(unit.value)}`);
  return unit.value;
}

export function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Tool arguments: a JSON object, or a string holding one (Chat Completions `function.arguments`). */
export function parseArgs(value: unknown, path: string): Record<string, unknown> {
  if (value === undefined || value === null || value === '') return {};
  let v: unknown = value;
  if (typeof v === 'string') {
    try {
      v = parseJsonBounded(v, MAX_VALUE_DEPTH);
    } catch (e) {
      if (e instanceof JsonTooDeepError) throw new UnitProblem(path, `the arguments are ${e.message}`);
      const why = e instanceof Error ? e.message.replace(/ in JSON at position \d+.*$/s, '') : String(e);
      throw new UnitProblem(path, `the arguments are not valid JSON (${why}): ${clip(value as string)}`);
    }
  }
  if (!isObj(v)) throw new UnitProblem(path, `the arguments must be a JSON object, found ${kind(v)}`);
  return v;
}

/** A tool observation kept as recorded: a string stays a string. */
export function observation(value: unknown): unknown {
  return value;
}

/** Text of a message content: a string, or the text of its text parts joined by newlines. */
export function textOf(content: unknown, textKeys: readonly string[] = ['text']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    else if (
      isObj(part) &&
      (part.type === undefined || part.type === 'text' || part.type === 'input_text' || part.type === 'output_text')
    ) {
      for (const k of textKeys) if (typeof part[k] === 'string') texts.push(part[k] as string);
    }
  }
  return texts.join('\n');
}

/** A required non-empty string field. */
export function requireString(o: Obj, key: string, path: string, what: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v.trim() === '')
    throw new UnitProblem(
      at(path, key),
      `${what} is required (a non-empty string), found ${v === undefined ? 'nothing' : kind(v)}`,
    );
  return v;
}

/** A descriptor from a name, a description and a JSON Schema (made an object schema when it is not one). */
export function descriptor(name: string, description: unknown, schema: unknown): ToolDescriptor {
  let inputSchema: JsonSchema = isObj(schema) ? { ...schema } : { type: 'object', properties: {} };
  if (isObj(inputSchema.jsonSchema)) inputSchema = { ...(inputSchema.jsonSchema as JsonSchema) };
  if (inputSchema.type !== 'object') inputSchema = { ...inputSchema, type: 'object' };
  if (!isObj(inputSchema.properties)) inputSchema.properties = {};
  return { name, description: typeof description === 'string' ? description : '', inputSchema };
}

/** Units of conversation documents: an array of conversations gives one unit each, else the document is one. */
export function conversationUnits(doc: InputDocument, isMessageList: (v: unknown[]) => boolean): InputUnit[] {
  const base = { file: doc.file, ...(doc.line !== undefined ? { line: doc.line } : {}) };
  if (Array.isArray(doc.value) && !isMessageList(doc.value))
    return doc.value.map((value, i) => ({ ...base, path: `$[${i}]`, value }));
  return [{ ...base, path: '$', value: doc.value }];
}

/** True when the array's first element looks like a chat message (`role`). */
export function looksLikeMessages(v: unknown[]): boolean {
  return v.length > 0 && isObj(v[0]) && typeof v[0].role === 'string';
}

export function clip(s: string, n = 60): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
