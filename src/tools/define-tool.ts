import { z } from 'zod';
import type { JsonSchema, ToolCallContext, ToolEffect, ToolSpec } from '../contracts/tools.js';

/**
 * The helper users write their own tools with (the *functions* source): a name, a description, an
 * input schema — zod or plain JSON Schema — and `execute`, and optionally what a call does
 * (`effect`: read, write or destructive; `idempotent`), which the tool config can still override. A zod schema is converted once with
 * `z.toJSONSchema` (policies and the registry read JSON Schema) and also parses the arguments, so
 * `execute` receives typed values with defaults applied.
 *
 * ```ts
 * export const weather = defineTool({
 *   name: 'get_weather', description: 'Current weather of a city',
 *   inputSchema: z.object({ city: z.string() }),
 *   execute: async ({ city }) => fetchWeather(city),
 * });
 * ```
 */
export function defineTool<S extends z.ZodType>(def: {
  name: string;
  description: string;
  inputSchema: S;
  execute: (args: z.output<S>, ctx: ToolCallContext) => Promise<unknown> | unknown;
  effect?: ToolEffect;
  idempotent?: boolean;
}): ToolSpec;
export function defineTool(def: {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  execute: (args: Record<string, unknown>, ctx: ToolCallContext) => Promise<unknown> | unknown;
  effect?: ToolEffect;
  idempotent?: boolean;
}): ToolSpec;
export function defineTool(def: {
  name: string;
  description: string;
  inputSchema: z.ZodType | JsonSchema;
  execute: (args: never, ctx: ToolCallContext) => Promise<unknown> | unknown;
  effect?: ToolEffect;
  idempotent?: boolean;
}): ToolSpec {
  const execute = def.execute as (args: unknown, ctx: ToolCallContext) => Promise<unknown> | unknown;
  const effect = def.effect
    ? {
        effect: {
          effect: def.effect,
          ...(def.idempotent !== undefined ? { idempotent: def.idempotent } : {}),
          from: 'tool definition',
        },
      }
    : {};
  if (isZodSchema(def.inputSchema)) {
    const schema = def.inputSchema;
    return {
      name: def.name,
      description: def.description,
      inputSchema: zodToInputSchema(schema),
      execute: async (args, ctx) => execute(schema.parse(args), ctx),
      ...effect,
    };
  }
  return {
    name: def.name,
    description: def.description,
    inputSchema: def.inputSchema,
    execute: async (args, ctx) => execute(args, ctx),
    ...effect,
  };
}

/** True for zod (v4) schemas. */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** A zod object schema as a tool input schema (without the `$schema` marker). */
export function zodToInputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  return json;
}
