import { z } from 'zod';

/**
 * The tool config file (`--tools <file>`): which sources make up the tools T of a run, so the CLI
 * loads the same tools every time. Relative paths are resolved from the config file's folder.
 *
 * ```json
 * { "version": 1, "timeoutMs": 30000, "effects": { "get_*": "read", "cancel_order": "destructive" }, "sources": [
 *   { "type": "replay", "records": "records.jsonl", "tools": "tools.json" },
 *   { "type": "functions", "module": "./my-tools.js" },
 *   { "type": "mcp", "name": "weather", "transport": "stdio", "command": "node", "args": ["server.js"] },
 *   { "type": "mcp", "name": "search", "transport": "http", "url": "http://127.0.0.1:3000/mcp" } ] }
 * ```
 */

export const ReplaySourceSchema = z.strictObject({
  type: z.literal('replay'),
  /** Records (JSONL) whose calls' recorded outputs answer replayed calls. */
  records: z.string().min(1),
  /** Tool descriptors (JSON array of {name, description, inputSchema}). */
  tools: z.string().min(1),
  /** What a miss returns: an error observation (default) or, with a model configured, an LLM simulation. */
  onMiss: z.enum(['error', 'simulate']).optional(),
});

export const FunctionsSourceSchema = z.strictObject({
  type: z.literal('functions'),
  /** An ES module whose exports are tool specs (or an array / a `tools` export of them). */
  module: z.string().min(1),
});

export const McpStdioSourceSchema = z.strictObject({
  type: z.literal('mcp'),
  name: z.string().min(1),
  transport: z.literal('stdio'),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  /** Extra environment; values like "${OPENWEATHER_KEY}" are read from the environment. */
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  /** Only these tools of the server (default: all). */
  include: z.array(z.string()).optional(),
  /** How long the server may take to start and list its tools (default: the config's timeoutMs, else 30000). */
  startTimeoutMs: z.number().int().positive().optional(),
});

export const McpHttpSourceSchema = z.strictObject({
  type: z.literal('mcp'),
  name: z.string().min(1),
  transport: z.literal('http'),
  url: z.string().url(),
  headers: z.record(z.string(), z.string()).optional(),
  include: z.array(z.string()).optional(),
  /** How long connecting and listing the tools may take (default: the config's timeoutMs, else 30000). */
  startTimeoutMs: z.number().int().positive().optional(),
});

// Discriminated by `type` (then `transport` for MCP), so an error names the member the user meant.
export const ToolSourceSchema = z.discriminatedUnion('type', [
  ReplaySourceSchema,
  FunctionsSourceSchema,
  z.discriminatedUnion('transport', [McpStdioSourceSchema, McpHttpSourceSchema]),
]);

const ToolEffectSchema = z.enum(['read', 'write', 'destructive']);

/** A tool's effect in the config: "read" | "write" | "destructive", or {effect, idempotent}. */
export const EffectSettingSchema = z.union([
  ToolEffectSchema,
  z.strictObject({ effect: ToolEffectSchema, idempotent: z.boolean().optional() }),
]);

export const ToolConfigSchema = z.strictObject({
  version: z.literal(1),
  sources: z.array(ToolSourceSchema).min(1),
  /**
   * What calling a tool does, by tool name or name pattern (`*` stands for any characters):
   * `{"get_order": "read", "cancel_*": "destructive", "update_*": {"effect": "write", "idempotent": true}}`.
   * An exact name wins over patterns; among patterns the first one written that matches wins; both
   * win over what a source declares (MCP annotations). A live tool nobody describes counts as "write".
   */
  effects: z.record(z.string().min(1), EffectSettingSchema).optional(),
  /** Per-call timeout in milliseconds (default 30000). */
  timeoutMs: z.number().int().positive().optional(),
});

export type ReplaySource = z.infer<typeof ReplaySourceSchema>;
export type FunctionsSource = z.infer<typeof FunctionsSourceSchema>;
export type McpStdioSource = z.infer<typeof McpStdioSourceSchema>;
export type McpHttpSource = z.infer<typeof McpHttpSourceSchema>;
export type ToolSource = z.infer<typeof ToolSourceSchema>;
export type ToolConfig = z.infer<typeof ToolConfigSchema>;
