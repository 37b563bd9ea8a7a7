import type { ToolDescriptor } from '../../contracts/tools.js';
import type { Call } from '../schema.js';

/**
 * Fits imported tool schemas to what the real tools accepted. ToolBench parameter types are loose
 * (RapidAPI sends every parameter as text): recorded *successful* TRAJECT-Bench calls pass "1" for
 * a BOOLEAN, "50.05,8.6" for a NUMBER, an object for a STRING. A schema that rejects a value the live
 * API accepted would make the replayed tool refuse its own recordings, so such a parameter's `type`
 * is widened to also allow the recorded kind (and its description says so, without quoting a
 * recorded value).
 *
 * Values the canonical argument form already reads as the declared type are no reason to widen:
 * a numeric string for a number, "true"/"false" for a boolean, a number or boolean for a string.
 * The declared type stays first in the widened list, and the canonical form (`canonical-args.ts`)
 * reads a type list by its first type: on a widened number parameter `"5"` is still 5.
 */

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A widened parameter, for the import report: `tool.param: number → number|string`. */
export interface WidenedParam {
  tool: string;
  param: string;
  from: string;
  added: string[];
}

/** Widens in place the properties of `tools` that successful `calls` passed values of another kind to. */
export function widenSchemasToRecordedCalls(tools: ToolDescriptor[], calls: Iterable<Call>): WidenedParam[] {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const added = new Map<string, { tool: string; param: string; from: string; kinds: Set<string> }>();
  for (const call of calls) {
    if (call.status === 'error') continue;
    const props = (
      byName.get(call.tool)?.inputSchema as { properties?: Record<string, { type?: unknown }> } | undefined
    )?.properties;
    if (!props) continue;
    for (const [param, value] of Object.entries(call.args)) {
      const declared = props[param]?.type;
      if (typeof declared !== 'string' || value === null || value === undefined || fits(declared, value)) continue;
      const key = `${call.tool}\u0000${param}`;
      const entry = added.get(key) ?? {
        tool: call.tool,
        param,
        from: declared,
        kinds: new Set<string>(),
      };
      entry.kinds.add(kindOf(value));
      added.set(key, entry);
    }
  }
  const out: WidenedParam[] = [];
  for (const { tool, param, from, kinds } of added.values()) {
    const schema = (byName.get(tool)!.inputSchema as { properties: Record<string, Record<string, unknown>> })
      .properties[param]!;
    const extra = [...kinds].sort();
    schema.type = [from, ...extra];
    // No recorded value as an example: it belongs to one record, and a tool's description is read as
    // its documentation by every policy (an example there is taken as the form every value has).
    const note = `Recorded calls also pass ${extra.join(' or ')} values.`;
    schema.description = schema.description ? `${String(schema.description)} ${note}` : note;
    out.push({ tool, param, from, added: extra });
  }
  return out;
}

function fits(declared: string, value: unknown): boolean {
  switch (declared) {
    case 'number':
    case 'integer':
      return typeof value === 'number' || (typeof value === 'string' && NUMERIC.test(value.trim()));
    case 'boolean':
      return typeof value === 'boolean' || (typeof value === 'string' && /^(true|false)$/i.test(value.trim()));
    case 'string':
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
    case 'object':
      return typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    default:
      return true;
  }
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  return typeof value;
}
