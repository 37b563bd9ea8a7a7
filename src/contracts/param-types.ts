import type { ToolDescriptor } from './tools.js';

/**
 * What a tool schema's JSON types say of a parameter, with no reading of its prose (that is
 * retrieval/param-schema.ts): its declared types, whether it is a flag, and a value found as text
 * passed as the JSON type the parameter takes.
 */

export interface PropSchema {
  type?: string | string[];
  default?: unknown;
  enum?: unknown[];
  description?: unknown;
  /** An array parameter's item schema. */
  items?: PropSchema;
}

export function propsOf(tool: ToolDescriptor): { props: Record<string, PropSchema>; required: string[] } {
  const s = tool.inputSchema as { properties?: Record<string, PropSchema>; required?: string[] };
  return { props: s.properties ?? {}, required: s.required ?? [] };
}

export function typesOf(p: PropSchema | undefined): Set<string> {
  const t = p?.type;
  return new Set(t === undefined ? [] : Array.isArray(t) ? t : [t]);
}

/**
 * Converts a found text value to the parameter's type: numbers for number parameters, and for a
 * parameter that accepts both, the JSON type its hint says values are passed as (`format.type`); a
 * one-item list for a list parameter.
 */
export function typed(value: string, prop: PropSchema | undefined, passedAs?: string): unknown {
  const types = typesOf(prop);
  // A list parameter given one value found in text takes a list of that value.
  if (types.has('array') && !types.has('string')) return [typed(value, prop?.items, passedAs)];
  const numeric = /^-?\d+(\.\d+)?$/.test(value);
  const numberParam = types.has('number') || types.has('integer');
  if (numberParam && numeric && (!types.has('string') || passedAs === 'number')) return Number(value);
  if (types.has('boolean') && !types.has('string') && /^(true|false)$/i.test(value))
    return value.toLowerCase() === 'true';
  return value;
}

/** A parameter that is a boolean only: a flag, set to true when it is set at all. */
export function isFlag(prop: PropSchema | undefined): boolean {
  const types = typesOf(prop);
  return types.size === 1 && types.has('boolean');
}
