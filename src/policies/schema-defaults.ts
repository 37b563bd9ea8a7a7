import type { JsonObjectSchema } from '../graph/schema.js';

/**
 * A JSON object for a simple object schema, one value per property: the first `enum` value, else
 * by `type` — `true` for a boolean (a judge's yes/no field then says yes, so the guarded branch
 * runs), `0` for a number or integer, `[]`, `{}`, and `""` for anything else. The oracle policy
 * answers JSON nodes with it; the scripted test policy uses it as its default answer.
 */
export function schemaDefaults(schema: JsonObjectSchema | Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [key, prop] of Object.entries(props)) out[key] = schemaDefault(prop);
  return out;
}

/** The default value of one property schema (see `schemaDefaults`). */
export function schemaDefault(prop: Record<string, unknown>): unknown {
  if (Array.isArray(prop.enum) && prop.enum.length > 0) return prop.enum[0];
  switch (prop.type) {
    case 'boolean':
      return true;
    case 'number':
    case 'integer':
      return 0;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return '';
  }
}
