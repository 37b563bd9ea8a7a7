import type { JsonSchema, ToolDescriptor } from '../../contracts/tools.js';
import type { Call } from '../schema.js';

/**
 * Tool descriptors for tools a log called but never defined (traces rarely carry definitions):
 * one per tool name, in order of first call, with an input schema built from the recorded
 * arguments — each parameter typed by the JSON kinds its values had, required when every call
 * passed it. The description says it was inferred, so nobody mistakes it for the tool's own.
 */
export function inferToolDescriptors(calls: Iterable<Pick<Call, 'tool' | 'args'>>): ToolDescriptor[] {
  const byTool = new Map<string, { count: number; params: Map<string, { count: number; kinds: Set<string> }> }>();
  for (const call of calls) {
    const entry = byTool.get(call.tool) ?? { count: 0, params: new Map() };
    entry.count++;
    for (const [name, value] of Object.entries(call.args ?? {})) {
      const p = entry.params.get(name) ?? { count: 0, kinds: new Set<string>() };
      p.count++;
      p.kinds.add(kindOf(value));
      entry.params.set(name, p);
    }
    byTool.set(call.tool, entry);
  }
  return [...byTool].map(([name, { count, params }]) => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [param, p] of params) {
      const kinds = [...p.kinds].filter((k) => k !== 'null');
      const type = kinds.length === 0 ? 'string' : kinds.length === 1 ? kinds[0]! : kinds.sort();
      properties[param] = { type };
      if (p.count === count) required.push(param);
    }
    return {
      name,
      description: `${name} (no definition in the logs; parameters inferred from ${count} recorded call${count === 1 ? '' : 's'})`,
      inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
    };
  });
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'boolean' : 'string';
}
