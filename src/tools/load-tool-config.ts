import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { FlowScoutError } from '../errors/index.js';
import { readRecordsFile } from '../records/read-records.js';
import { readJsonFile } from '../util/json-file.js';
import { ToolConfigSchema, type ReplaySource, type ToolSource } from './config-schema.js';
import { checkEffectRules, describePatternLowerings, loweredByPattern } from './effects.js';
import { loadFunctionTools } from './function-tools.js';
import { guardLiveWrites, type GuardedToolRegistry, type WriteGuardOptions } from './write-guard.js';
import { connectMcpTools } from './mcp-tools.js';
import { createToolRegistry } from './registry.js';
import { createReplayTools, type SimulateFn } from './replay-tools.js';
import type { ToolDescriptor, ToolRegistry, ToolSet } from '../contracts/tools.js';

/**
 * `--tools <file>`: builds the tools T of a run from a tool config (see `config-schema.ts`), so the
 * CLI loads the same tools every time. Relative paths are resolved from the config file's folder
 * (an MCP stdio server also starts there unless it names its own `cwd`). Every source is built;
 * if one fails, the ones already started are closed before the error is thrown.
 */

/** What the config file cannot say: the simulator (it needs a model), the environment, a default timeout. */
export interface LoadToolConfigOptions {
  /** The simulator for replay sources with `onMiss: "simulate"` (an LLM simulator; needs a model). */
  simulate?: SimulateFn;
  /** Environment for `${VAR}` expansion in MCP sources (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Default per-call timeout when the config sets none. */
  timeoutMs?: number;
  /**
   * Evaluating (search, eval, bench, baseline, worker): keep write calls away from live tools —
   * answered from these records' recorded responses, else refused — unless `allowLiveWrites`.
   */
  guardWrites?: WriteGuardOptions;
  /** Where warnings about the config go (an `effects` pattern not applied; default: stderr). */
  warn?: (line: string) => void;
}

/** Reads a tool config and returns a registry over all its sources (close it when done). */
export async function loadToolConfig(
  path: string,
  opts: LoadToolConfigOptions & { guardWrites: WriteGuardOptions },
): Promise<GuardedToolRegistry>;
export async function loadToolConfig(path: string, opts?: LoadToolConfigOptions): Promise<ToolRegistry>;
export async function loadToolConfig(path: string, opts: LoadToolConfigOptions = {}): Promise<ToolRegistry> {
  const file = resolve(path);
  const data = readJsonFile(file);
  if (Array.isArray(data)) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message:
        'the tool config is not valid: this file is a list of tool descriptors, which says what the tools are but not how to call them',
      hint: 'Pass a tool config {"version": 1, "sources": [...]}, e.g. the tools.config.json that `flowscout import` writes next to tools.json.',
      location: { file, path: '$' },
    });
  }
  const parsed = ToolConfigSchema.safeParse(data);
  if (!parsed.success) throw configError(file, parsed.error);
  const config = parsed.data;
  const base = dirname(file);
  const sets: ToolSet[] = [];
  try {
    const timeoutMs = config.timeoutMs ?? opts.timeoutMs;
    // The config's timeout also bounds an MCP server's start-up (connect and list its tools), unless
    // the source gives its own `startTimeoutMs`.
    for (const [i, source] of config.sources.entries())
      sets.push(
        await buildSource(source, i, base, file, { ...opts, ...(timeoutMs !== undefined ? { timeoutMs } : {}) }),
      );
    const effects = config.effects ? { entries: Object.entries(config.effects), file } : undefined;
    if (effects) {
      const specs = sets.flatMap((s) => s.tools);
      checkEffectRules(
        effects,
        specs.map((t) => t.name),
      );
      const lowered = loweredByPattern(specs, effects);
      if (lowered.length > 0)
        (opts.warn ?? ((line: string) => process.stderr.write(`${line}\n`)))(describePatternLowerings(lowered, file));
    }
    const registry = createToolRegistry(sets, {
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(effects ? { effects } : {}),
    });
    return opts.guardWrites ? guardLiveWrites(registry, opts.guardWrites) : registry;
  } catch (e) {
    await Promise.allSettled(sets.map((s) => s.close?.()));
    throw e;
  }
}

async function buildSource(
  source: ToolSource,
  index: number,
  base: string,
  file: string,
  opts: LoadToolConfigOptions,
): Promise<ToolSet> {
  switch (source.type) {
    case 'replay':
      return buildReplay(source, index, base, file, opts);
    case 'functions':
      return { name: `functions ${source.module}`, tools: await loadFunctionTools(resolve(base, source.module)) };
    case 'mcp': {
      const resolved = source.transport === 'stdio' ? { ...source, cwd: resolve(base, source.cwd ?? '.') } : source;
      const start = source.startTimeoutMs ?? opts.timeoutMs;
      return connectMcpTools(resolved, {
        ...(opts.env ? { env: opts.env } : {}),
        ...(start !== undefined ? { connectTimeoutMs: start } : {}),
      });
    }
  }
}

async function buildReplay(
  source: ReplaySource,
  index: number,
  base: string,
  file: string,
  opts: LoadToolConfigOptions,
): Promise<ToolSet> {
  if (source.onMiss === 'simulate' && !opts.simulate) {
    throw new FlowScoutError({
      code: 'MODEL_CONFIG',
      message: `replay source $.sources[${index}] asks for simulated responses on a miss, but no model is configured`,
      hint: 'Pass --model (an LLM simulates missing responses), or set "onMiss": "error" in the tool config.',
      location: { file, path: `$.sources[${index}].onMiss` },
    });
  }
  const { records } = await readRecordsFile(resolve(base, source.records));
  const descriptors = readDescriptors(resolve(base, source.tools));
  const tools = createReplayTools(records, descriptors, {
    onMiss: source.onMiss ?? 'error',
    ...(opts.simulate ? { simulate: opts.simulate } : {}),
  });
  return { name: `replay ${source.records}`, tools };
}

/** A tool descriptor file: a JSON array of {name, description, inputSchema} (or `{tools: [...]}`). */
export function readDescriptors(file: string): ToolDescriptor[] {
  const data = readJsonFile(file);
  const list = Array.isArray(data) ? data : (data as { tools?: unknown } | null)?.tools;
  const where = Array.isArray(data) ? '$' : '$.tools';
  if (!Array.isArray(list)) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: 'a tool descriptor file must hold a JSON array of {name, description, inputSchema}',
      location: { file, path: '$' },
    });
  }
  const problems: string[] = [];
  list.forEach((d: unknown, i) => {
    const o = (d ?? {}) as Record<string, unknown>;
    if (typeof o.name !== 'string' || o.name === '') problems.push(`${where}[${i}].name: expected a non-empty string`);
    if (typeof o.description !== 'string') problems.push(`${where}[${i}].description: expected a string`);
    const s = o.inputSchema as Record<string, unknown> | undefined;
    if (typeof s !== 'object' || s === null || Array.isArray(s) || s.type !== 'object')
      problems.push(`${where}[${i}].inputSchema: expected a JSON Schema with "type": "object"`);
  });
  if (problems.length > 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${problems.length} problem${problems.length === 1 ? '' : 's'} in tool descriptors:\n  ${problems.slice(0, 20).join('\n  ')}`,
      hint: 'Each descriptor needs name, description and inputSchema; `flowscout import` writes this file for imported records.',
      location: { file },
    });
  }
  return list as ToolDescriptor[];
}

function configError(file: string, error: z.ZodError): FlowScoutError {
  const lines = error.issues.flatMap((issue) => describe(issue, []));
  return new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `the tool config is not valid:\n  ${lines.join('\n  ')}`,
    hint: 'Each source is {"type": "replay", "records", "tools"}, {"type": "functions", "module"} or {"type": "mcp", "name", "transport": "stdio" | "http", …}; see docs/guides/safety.md ("Your tools: the tool config").',
    location: { file, path: pathOf(error.issues[0]?.path ?? []) },
  });
}

function pathOf(segments: ReadonlyArray<PropertyKey>): string {
  return segments.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : `${acc}.${String(s)}`), '$');
}

/** A union failure is explained by its closest branch (the one with the fewest issues). */
function describe(issue: z.core.$ZodIssue, prefix: ReadonlyArray<PropertyKey>): string[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const best = [...issue.errors].sort((a, b) => a.length - b.length)[0]!;
    if (best.length > 0 && best.length <= 3) return best.flatMap((sub) => describe(sub, path));
    return [
      `${pathOf(path)}: does not match any source type (replay, functions, mcp stdio, mcp http); check "type", "transport" and the required fields`,
    ];
  }
  return [`${pathOf(path)}: ${explain(issue)}`];
}

function explain(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
  if (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined)
    return `is required (expected ${issue.expected})`;
  return issue.message;
}
