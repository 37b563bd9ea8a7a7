import { FlowScoutError } from '../../errors/index.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { readJsonFile } from '../../util/json-file.js';
import { requireFile } from '../../util/require-file.js';
import { at, descriptor, isObj, kind } from './formats/common.js';

/**
 * Tool definitions given to an import in a file of their own (`--tools <file>`): an OpenAI `tools`
 * list (`{"type": "function", "function": {name, description, parameters}}`) or legacy `functions`,
 * an Anthropic tool list (`input_schema`), an MCP `tools/list` result (`{"tools": [{name,
 * inputSchema}]}`, also inside a JSON-RPC `result`), FlowScout's own `tools.json`, a bare list of
 * `{name, description, parameters | inputSchema | input_schema | schema}`, or an object of such
 * definitions keyed by name. Any problem names the file and the JSON path.
 */
export function readToolDefinitions(file: string): ToolDescriptor[] {
  requireFile(file, {
    what: 'tool definitions',
    hint: 'Pass a JSON file with the tool schemas (an OpenAI tools list, an Anthropic tool list or an MCP tools/list result).',
  });
  const doc = readJsonFile(file);
  const { list, path } = toolList(doc);
  const problem = (p: string, why: string) =>
    new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${file} (${p}): ${why}`,
      hint: 'Each tool needs a name and a JSON Schema of its parameters: {"type": "function", "function": {"name", "description", "parameters"}}, {"name", "input_schema"} or {"name", "inputSchema"}.',
      location: { file },
    });
  if (!list)
    throw problem(
      '$',
      `expected a list of tool definitions (an array, {"tools": [...]}, or an object keyed by tool name), found ${kind(doc)}`,
    );
  const out: ToolDescriptor[] = [];
  const seen = new Set<string>();
  list.forEach(([key, t]) => {
    const p = typeof key === 'number' ? at(path, key) : at(path, key);
    if (!isObj(t)) throw problem(p, `expected a tool definition object, found ${kind(t)}`);
    const f = isObj(t.function) ? t.function : t;
    const name = typeof f.name === 'string' && f.name.trim() ? f.name : typeof key === 'string' ? key : undefined;
    if (!name) throw problem(isObj(t.function) ? at(p, 'function') : p, 'the tool has no name');
    const schema = f.parameters ?? f.inputSchema ?? f.input_schema ?? f.schema;
    if (schema !== undefined && !isObj(schema))
      throw problem(p, `the parameters of '${name}' must be a JSON Schema object, found ${kind(schema)}`);
    if (seen.has(name)) throw problem(p, `'${name}' is defined twice`);
    seen.add(name);
    out.push(descriptor(name, f.description, schema));
  });
  if (out.length === 0) throw problem(path, 'the list of tools is empty');
  return out;
}

function toolList(doc: unknown): { list?: Array<[string | number, unknown]>; path: string } {
  if (Array.isArray(doc)) return { list: doc.map((t, i) => [i, t]), path: '$' };
  if (!isObj(doc)) return { path: '$' };
  if (isObj(doc.result) && Array.isArray(doc.result.tools))
    return { list: doc.result.tools.map((t, i) => [i, t]), path: '$.result.tools' };
  for (const key of ['tools', 'functions']) {
    const v = doc[key];
    if (Array.isArray(v)) return { list: v.map((t, i) => [i, t]), path: `$.${key}` };
  }
  if (Object.values(doc).every((v) => isObj(v))) return { list: Object.entries(doc), path: '$' };
  return { path: '$' };
}
