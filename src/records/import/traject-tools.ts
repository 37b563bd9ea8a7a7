import type { ToolDescriptor } from '../../contracts/tools.js';
import { findNameCollisions, toolbenchFunctionName, type NameCollision } from './toolbench-names.js';
import { toolbenchParamsToSchema, type ToolbenchParam } from './toolbench-params.js';
import type { TrajectToolDef } from './traject-format.js';

/**
 * TRAJECT-Bench tool definitions (`<Domain>_tool.json`, one entry per API) → tool descriptors named
 * with ToolBench function names, with JSON-Schema inputs (see toolbench-params.ts).
 */

export interface TrajectToolsResult {
  tools: ToolDescriptor[];
  /** `"<Parent>: <API name>"` display name → function name, for every definition. */
  nameOf: Map<string, string>;
  /** Entries that repeat an API already defined (the first definition is kept). */
  duplicateDefs: number;
  /** Different APIs whose function names coincide (the first definition is kept). */
  collisions: NameCollision[];
}

/**
 * Builds one descriptor per distinct function name, in file order; the description joins the API and
 * parent tool descriptions. When different APIs share a function name (a collision), the one the
 * records call (`used`, display names) is described, else the first; a repeated API keeps its first entry.
 */
export function trajectToolDescriptors(
  defs: readonly TrajectToolDef[],
  used: ReadonlySet<string> = new Set(),
): TrajectToolsResult {
  const tools: ToolDescriptor[] = [];
  const chosen = new Map<string, TrajectToolDef>();
  const nameOf = new Map<string, string>();
  for (const def of defs) {
    const name = toolbenchFunctionName(def['API name'], def['parent tool name']);
    nameOf.set(def['tool name'], name);
    const current = chosen.get(name);
    if (!current || (!used.has(current['tool name']) && used.has(def['tool name']))) chosen.set(name, def);
  }
  const firstDef = new Map<string, TrajectToolDef>();
  let duplicateDefs = 0;
  for (const def of defs) {
    const name = toolbenchFunctionName(def['API name'], def['parent tool name']);
    const first = firstDef.get(name);
    if (first) {
      if (first['API name'] === def['API name'] && first['parent tool name'] === def['parent tool name'])
        duplicateDefs++;
      continue;
    }
    firstDef.set(name, def);
    const picked = chosen.get(name) ?? def;
    const descriptor: ToolDescriptor = {
      name,
      description: describe(picked),
      inputSchema: toolbenchParamsToSchema(params(picked.required_parameters), params(picked.optional_parameters)),
    };
    tools.push(descriptor);
  }
  const collisions = findNameCollisions(defs.map((d) => ({ tool: d['parent tool name'], api: d['API name'] })));
  return { tools, nameOf, duplicateDefs, collisions };
}

function describe(def: TrajectToolDef): string {
  const api = (def['tool description'] ?? '').trim() || def['API name'];
  const parent = (def['parent tool description'] ?? '').trim();
  return `${def['API name']}: ${api}\nPart of ${def['parent tool name']}${parent ? `: ${parent}` : '.'}`;
}

function params(list: TrajectToolDef['required_parameters']): ToolbenchParam[] {
  return (list ?? []).map((p) => ({
    name: p.name,
    type: p.type,
    description: p.description ?? undefined,
    default: p.default,
  }));
}
