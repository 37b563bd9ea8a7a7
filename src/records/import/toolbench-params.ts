import type { JsonSchema } from '../../contracts/tools.js';

/**
 * ToolBench-style parameter lists (`{name, type, description, default}`, docs/DESIGN.md, "Data formats" §2) → a JSON
 * Schema tool input, so imported tools can be validated, shown to a model and canonicalised by type.
 *
 * Type mapping: STRING → string, NUMBER/INTEGER/FLOAT → number, BOOLEAN → boolean, ENUM → string,
 * `DATE (YYYY-MM-DD)` and other DATE/TIME types → string with the format appended to the description,
 * OBJECT → object, ARRAY → array, anything else → string with `Type: <original>.` in the description.
 * Case is ignored (`string` occurs too).
 * `default` is kept, coerced to the parameter's type (`"3"` of a NUMBER → 3); an empty default or one
 * that does not fit the type is left out. Extra properties stay allowed: recorded calls sometimes pass
 * parameters the definitions do not list.
 */

/** One ToolBench parameter as the tool definitions write it. */
export interface ToolbenchParam {
  name: string;
  type?: string;
  description?: string;
  default?: unknown;
}

/** The JSON-Schema input of a tool whose parameters are given as ToolBench lists. */
export function toolbenchParamsToSchema(
  required: readonly ToolbenchParam[] | null | undefined,
  optional: readonly ToolbenchParam[] | null | undefined,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const requiredNames: string[] = [];
  for (const [list, isRequired] of [
    [required ?? [], true],
    [optional ?? [], false],
  ] as const) {
    for (const param of list) {
      if (!param || typeof param.name !== 'string' || param.name === '' || properties[param.name]) continue;
      properties[param.name] = paramSchema(param);
      if (isRequired) requiredNames.push(param.name);
    }
  }
  return { type: 'object', properties, required: requiredNames };
}

/** One parameter's schema (exported for tests and other ToolBench-style sources). */
export function paramSchema(param: ToolbenchParam): JsonSchema {
  const rawType = (param.type ?? 'STRING').trim();
  const upper = rawType.toUpperCase();
  const type = jsonType(upper);
  const descriptionParts: string[] = [];
  if (param.description && param.description.trim()) descriptionParts.push(param.description.trim());
  if (/DATE|TIME/.test(upper)) {
    const format = /\(([^)]+)\)/.exec(rawType)?.[1];
    descriptionParts.push(format ? `Format: ${format}.` : `A ${rawType.toLowerCase()} value.`);
  } else if (!KNOWN_TYPES.has(upper)) {
    descriptionParts.push(`Type: ${rawType}.`);
  }
  const schema: JsonSchema = { type };
  if (descriptionParts.length) schema.description = descriptionParts.join(' ');
  const def = coerceDefault(param.default, type);
  if (def !== undefined) schema.default = def;
  return schema;
}

const KNOWN_TYPES = new Set([
  'STRING',
  'NUMBER',
  'INTEGER',
  'INT',
  'FLOAT',
  'DOUBLE',
  'BOOLEAN',
  'BOOL',
  'OBJECT',
  'DICT',
  'ARRAY',
  'LIST',
  'ENUM',
]);

function jsonType(upper: string): string {
  if (upper === 'NUMBER' || upper === 'INTEGER' || upper === 'INT' || upper === 'FLOAT' || upper === 'DOUBLE')
    return 'number';
  if (upper === 'BOOLEAN' || upper === 'BOOL') return 'boolean';
  if (upper === 'OBJECT' || upper === 'DICT') return 'object';
  if (upper === 'ARRAY' || upper === 'LIST') return 'array';
  return 'string';
}

function coerceDefault(value: unknown, type: string): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  switch (type) {
    case 'number': {
      if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      const s = String(value).trim().toLowerCase();
      return s === 'true' ? true : s === 'false' ? false : undefined;
    }
    case 'string':
      return typeof value === 'string'
        ? value
        : typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : undefined;
    case 'object':
      return typeof value === 'object' && !Array.isArray(value) ? value : undefined;
    case 'array':
      return Array.isArray(value) ? value : undefined;
    default:
      return undefined;
  }
}
