import { z } from 'zod';
import { offlineTableIssues, type TableIssue } from './offline-table.js';

/**
 * The workflow IR (docs/DESIGN.md, "The workflow IR"). Plain data, validated by this one schema; the
 * TypeScript types below are inferred from it and nowhere else. Structural rules that need the whole
 * graph (acyclic, one entry, one exit, guards that read declared fields, …) live in `validate.ts`,
 * so that one call reports every problem at once.
 */

/** Node ids double as function names in compiled modules, so they are identifier-like. */
export const NodeIdSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, {
  message: 'must start with a letter or _ and hold only letters, digits, _ and - (at most 64 characters)',
});

export const LLM_ROLES = ['plan', 'extract', 'reason', 'verify', 'judge', 'synthesize'] as const;
export const LlmRoleSchema = z.enum(LLM_ROLES);

/** A JSON Schema for an object (the declared output of a JSON LLM node). */
export const JsonObjectSchemaSchema = z.looseObject({
  type: z.literal('object'),
  properties: z.record(z.string(), z.record(z.string(), z.unknown())),
  required: z.array(z.string()).optional(),
});

export const LlmOutputSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text') }),
  z.strictObject({ type: z.literal('json'), schema: JsonObjectSchemaSchema }),
]);

export const LlmNodeSchema = z.strictObject({
  id: NodeIdSchema,
  kind: z.literal('llm'),
  role: LlmRoleSchema,
  /** The instruction; may use the placeholders of `prompt-templates.ts` ({{query}}, {{inputs}}, …). */
  prompt: z.string().min(1),
  output: LlmOutputSchema,
  /** A model string ("openai:gpt-4o-mini") that overrides the run's model for this node. */
  model: z.string().min(1).optional(),
});

export const RETRY_ON = ['error', 'error-or-empty'] as const;
export const RetrySchema = z.strictObject({
  /** Total attempts, 1..5 (the range is checked by validateWorkflow so all problems come together). */
  attempts: z.number().int(),
  on: z.enum(RETRY_ON),
});

/** A JSON value a constant binding gives. */
export const BindingValueSchema: z.ZodType<unknown> = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  z.record(z.string(), z.unknown()),
]);

/**
 * Where a bound parameter's value comes from (docs/DESIGN.md, "The workflow IR": argument bindings).
 * The runtime resolves it with no model; when it yields nothing the policy fills the parameter.
 * - `const`: a constant of the domain;
 * - `request`: a regular expression over the request; the value is capture `group` (default 1) of
 *   its first match (`flags` may hold `i`);
 * - `known`: the first of a list of known values the request names (whole words, any case);
 * - `extract`: a field of an upstream `extract` LLM node's JSON output;
 * - `output`: a JSON path (`a.b[0].c`, `[*]` over a list's items) into the results of an upstream
 *   tool node's calls; `pick` chooses among the values found (`first` default, `last`);
 * - `model`: the policy fills it (the default for every parameter; explicit to pin it).
 */
export const BindingSourceSchema = z.discriminatedUnion('from', [
  z.strictObject({ from: z.literal('const'), value: BindingValueSchema }),
  z.strictObject({
    from: z.literal('request'),
    pattern: z.string().min(1),
    group: z.number().int().min(0).optional(),
    flags: z.enum(['', 'i']).optional(),
  }),
  z.strictObject({ from: z.literal('known'), values: z.array(z.string().min(1)).min(1) }),
  z.strictObject({ from: z.literal('extract'), node: NodeIdSchema, field: z.string().min(1) }),
  z.strictObject({
    from: z.literal('output'),
    node: NodeIdSchema,
    path: z.string().min(1),
    pick: z.enum(['first', 'last']).optional(),
  }),
  z.strictObject({ from: z.literal('model') }),
]);

/** One bound parameter of one tool of a tool node. */
export const ToolBindingSchema = z.strictObject({
  tool: z.string().min(1),
  param: z.string().min(1),
  source: BindingSourceSchema,
});

export const ToolNodeSchema = z.strictObject({
  id: NodeIdSchema,
  kind: z.literal('tool'),
  /** What this position must achieve; the policy picks a concrete tool and its arguments from it. */
  task: z.string().min(1),
  /** Tool hint: restrict selection to these tools of T. */
  tools: z.array(z.string().min(1)).optional(),
  /** 'many' lets one position issue several calls (a repeated activity). Default 'one'. */
  calls: z.enum(['one', 'many']).optional(),
  retry: RetrySchema.optional(),
  /** Tools the miner saw at this position: a soft prior, never a binding. */
  mined: z.array(z.string()).optional(),
  /** Parameters of its tools bound to a source (filled by the runtime, not the policy); the rest are the policy's. */
  bind: z.array(ToolBindingSchema).optional(),
});

export const NodeSchema = z.discriminatedUnion('kind', [LlmNodeSchema, ToolNodeSchema]);

export const GuardLiteralSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const GUARD_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'truthy', 'falsy', 'exists'] as const;
export type GuardOp = (typeof GUARD_OPS)[number];

/** A test on a JSON field of the source LLM node's output. `field` is a dotted path into it. */
export const FieldGuardSchema = z
  .strictObject({
    kind: z.literal('field'),
    field: z.string().min(1),
    op: z.enum(GUARD_OPS),
    value: z.union([GuardLiteralSchema, z.array(GuardLiteralSchema)]).optional(),
  })
  .superRefine((g, ctx) => {
    const unary = g.op === 'truthy' || g.op === 'falsy' || g.op === 'exists';
    const list = g.op === 'in' || g.op === 'not_in';
    if (unary && g.value !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `op '${g.op}' takes no value; remove "value"` });
    }
    if (!unary && g.value === undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `op '${g.op}' needs a "value" to compare with` });
    }
    if (list && g.value !== undefined && !Array.isArray(g.value)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `op '${g.op}' needs an array "value"` });
    }
    if (!list && Array.isArray(g.value)) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `op '${g.op}' compares with one literal, not an array`,
      });
    }
  });

/** A test on the source tool node's status. */
export const StatusGuardSchema = z.strictObject({
  kind: z.literal('status'),
  status: z.enum(['ok', 'error']),
});

export const GuardSchema = z.discriminatedUnion('kind', [FieldGuardSchema, StatusGuardSchema]);

export const EdgeSchema = z.strictObject({
  from: NodeIdSchema,
  to: NodeIdSchema,
  /** data: the target sees the source's output; control: ordering (and guards) only. */
  kind: z.enum(['data', 'control']),
  when: GuardSchema.optional(),
});

/** What every problem of `learned.offline` adds: where the table comes from and how to recover. */
const LEARNED_TABLE_HINT =
  " (this is the offline policy's table a search wrote into the workflow: run the search again, or delete `learned.offline` and the offline policy decides from the tool descriptions alone)";

// A table is checked once per object: a search's candidates share their parent's table (the edits
// never change it) and are validated after every edit.
const checkedTables = new WeakMap<object, TableIssue[]>();
function tableIssues(table: Record<string, unknown>): TableIssue[] {
  let issues = checkedTables.get(table);
  if (!issues) checkedTables.set(table, (issues = offlineTableIssues(table)));
  return issues;
}

/** The workflow IR as a zod schema: version 1, a name, nodes and edges (docs/DESIGN.md, "The workflow IR"). Structure only; `validateWorkflow` checks the rest. */
export const WorkflowSchema = z.strictObject({
  version: z.literal(1),
  name: z.string().min(1),
  description: z.string().optional(),
  nodes: z.array(NodeSchema),
  edges: z.array(EdgeSchema),
  /** Provenance: the mined tree, the domain, the edit that produced it, … Never read by the runtime. */
  meta: z.record(z.string(), z.unknown()).optional(),
  /**
   * What a policy learned from the optimisation records, distilled so that it holds no record text
   * (`offline`: the offline policy's cue table). Read by that policy, so the workflow needs no other
   * file to decide as it did in the search; like `meta`, it does not change the workflow's hash.
   */
  learned: z
    .strictObject({
      offline: z
        .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
          message: `expected an object${LEARNED_TABLE_HINT}`,
        })
        .superRefine((table, ctx) => {
          for (const issue of tableIssues(table))
            ctx.addIssue({ code: 'custom', path: issue.path, message: `${issue.message}${LEARNED_TABLE_HINT}` });
        })
        .optional(),
    })
    .optional(),
});

export type LlmRole = z.infer<typeof LlmRoleSchema>;
export type JsonObjectSchema = z.infer<typeof JsonObjectSchemaSchema>;
export type LlmOutput = z.infer<typeof LlmOutputSchema>;
/** A node where a model writes text or JSON from a prompt, in one of six roles. */
export type LlmNode = z.infer<typeof LlmNodeSchema>;
export type Retry = z.infer<typeof RetrySchema>;
/** Where a bound parameter's value comes from (see `BindingSourceSchema`). */
export type BindingSource = z.infer<typeof BindingSourceSchema>;
/** A tool parameter bound to a source (see `ToolBindingSchema`). */
export type ToolBinding = z.infer<typeof ToolBindingSchema>;
/** A node that calls one or more tools of its candidate list, with an optional retry. */
export type ToolNode = z.infer<typeof ToolNodeSchema>;
/** An LLM node or a tool node (`kind`). */
export type WorkflowNode = z.infer<typeof NodeSchema>;
export type GuardLiteral = z.infer<typeof GuardLiteralSchema>;
export type FieldGuard = z.infer<typeof FieldGuardSchema>;
export type StatusGuard = z.infer<typeof StatusGuardSchema>;
/** The condition on an edge: a field of the source's output, or the source's status. */
export type Guard = z.infer<typeof GuardSchema>;
/** A directed edge: `data` (the target reads the source's output) or `control`, optionally guarded. */
export type Edge = z.infer<typeof EdgeSchema>;
/** A workflow as data (see `WorkflowSchema`). */
export type Workflow = z.infer<typeof WorkflowSchema>;
