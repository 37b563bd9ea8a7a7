import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FlowScoutError } from '../errors/index.js';
import { requireFile } from '../util/require-file.js';
import { isZodSchema, zodToInputSchema } from './define-tool.js';
import type { ToolEffect, ToolSpec } from '../contracts/tools.js';

/**
 * The *functions* tool source: a user's ES module whose exports are tools. Accepted shapes: named
 * exports that are tool specs, a default export that is a spec or an array of specs, and a `tools`
 * array export. Every candidate is checked (name, description, inputSchema object, execute function)
 * and every problem is reported at once, naming the export.
 */

/** Imports `modulePath` (resolved from the current directory) and returns its tools. */
export async function loadFunctionTools(modulePath: string): Promise<ToolSpec[]> {
  const file = resolve(modulePath);
  requireFile(file, {
    what: 'tool module',
    hint: 'Check the "module" path of the functions source; it is resolved from the config file\'s folder.',
  });
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(file);
  } catch (e) {
    throw new FlowScoutError({
      code: 'TOOL_ERROR',
      message: `could not load tool module ${file}: ${e instanceof Error ? e.message : String(e)}`,
      hint: 'The module must be an ES module that imports cleanly: .js or .ts next to a package.json with "type": "module", or .mjs / .mts anywhere.',
      location: { file },
      cause: e,
    });
  }
  return toolsFromModule(mod, file);
}

let typeScriptLoader: Promise<void> | undefined;

/**
 * Imports a tool module. For a TypeScript module, tsx's loader (a dependency of FlowScout) is
 * registered first, once, so `.ts` / `.mts` tool modules load from the built CLI as from the sources.
 */
async function importModule(file: string): Promise<Record<string, unknown>> {
  if (/\.[cm]?tsx?$/.test(file)) {
    typeScriptLoader ??= import('tsx/esm/api').then(({ register }) => void register());
    await typeScriptLoader;
  }
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** Collects and checks the tool exports of an already-imported module (exported for tests). */
export function toolsFromModule(mod: Record<string, unknown>, file: string): ToolSpec[] {
  const candidates: Array<{ where: string; value: unknown }> = [];
  const seen = new Set<unknown>();
  const add = (where: string, value: unknown) => {
    if (seen.has(value)) return;
    seen.add(value);
    candidates.push({ where, value });
  };
  for (const key of ['default', 'tools']) {
    const v = mod[key];
    if (Array.isArray(v)) v.forEach((item, i) => add(`${key}[${i}]`, item));
    else if (looksLikeTool(v)) add(key, v);
    else if (key === 'tools' && v !== undefined) add(key, v);
  }
  for (const [key, v] of Object.entries(mod)) {
    if (key === 'default' || key === 'tools') continue;
    if (looksLikeTool(v)) add(key, v);
  }
  if (candidates.length === 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${file} exports no tools`,
      hint: 'Export tool specs ({name, description, inputSchema, execute}) — e.g. made with defineTool — as named exports, a default array, or a "tools" array.',
      location: { file },
    });
  }
  const problems: string[] = [];
  const tools: ToolSpec[] = [];
  const names = new Map<string, string>();
  for (const { where, value } of candidates) {
    const found = checkSpec(value);
    if (found.problems.length > 0) {
      problems.push(...found.problems.map((p) => `export '${where}': ${p}`));
      continue;
    }
    const spec = found.spec!;
    const prev = names.get(spec.name);
    if (prev) problems.push(`export '${where}': tool name '${spec.name}' is already used by export '${prev}'`);
    names.set(spec.name, where);
    tools.push(spec);
  }
  if (problems.length > 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${file}: ${problems.length} tool export problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${p}`).join('\n')}`,
      hint: 'Each tool needs a name, a description, an inputSchema (a JSON Schema object or a zod schema) and an execute function; defineTool() builds one.',
      location: { file },
    });
  }
  return tools;
}

function looksLikeTool(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && ('execute' in v || 'inputSchema' in v);
}

function checkSpec(v: unknown): { spec?: ToolSpec; problems: string[] } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { problems: ['is not a tool spec object'] };
  const o = v as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof o.name !== 'string' || !/^[A-Za-z0-9_.:-]{1,128}$/.test(o.name)) {
    problems.push(
      `"name" must be a non-empty string of letters, digits, _ . : - (got ${JSON.stringify(o.name) ?? 'nothing'})`,
    );
  }
  if (typeof o.description !== 'string') problems.push('"description" must be a string saying what the tool does');
  let inputSchema = o.inputSchema;
  if (isZodSchema(inputSchema)) inputSchema = zodToInputSchema(inputSchema);
  if (typeof inputSchema !== 'object' || inputSchema === null || Array.isArray(inputSchema)) {
    problems.push('"inputSchema" must be a JSON Schema object like {"type": "object", "properties": {…}}');
  } else if ((inputSchema as Record<string, unknown>).type !== 'object') {
    problems.push(
      `"inputSchema" must have "type": "object" (tools take named parameters); got ${JSON.stringify((inputSchema as Record<string, unknown>).type) ?? 'no type'}`,
    );
  }
  if (typeof o.execute !== 'function') problems.push('"execute" must be a function (args, ctx) => result');
  const declared = o.effect as { effect?: unknown; idempotent?: unknown; from?: unknown } | string | undefined;
  const effectName = typeof declared === 'string' ? declared : declared?.effect;
  if (declared !== undefined && !['read', 'write', 'destructive'].includes(effectName as string)) {
    problems.push(`"effect" must be "read", "write" or "destructive" (got ${JSON.stringify(effectName) ?? 'nothing'})`);
  }
  if (problems.length > 0) return { problems };
  const execute = o.execute as ToolSpec['execute'];
  // A defineTool spec carries {effect, idempotent, from}; a plain export may say `effect: "write"` and `idempotent`.
  const idempotent = typeof declared === 'object' ? declared.idempotent : o.idempotent;
  const effect: ToolSpec['effect'] =
    declared === undefined
      ? undefined
      : {
          effect: effectName as ToolEffect,
          ...(typeof idempotent === 'boolean' ? { idempotent } : {}),
          from: typeof declared === 'object' && typeof declared.from === 'string' ? declared.from : 'tool definition',
        };
  return {
    spec: {
      name: o.name as string,
      description: o.description as string,
      inputSchema: inputSchema as ToolSpec['inputSchema'],
      execute: async (args, ctx) => execute.call(o, args, ctx),
      ...(effect ? { effect } : {}),
    },
    problems,
  };
}
