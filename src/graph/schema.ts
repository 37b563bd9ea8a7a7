import { z } from 'zod';
import { NodeIdSchema, ToolBindingSchema, ToolHintSchema } from '../dataflow/schema.js';

export {
  BindingSourceSchema,
  BindingValueSchema,
  NodeIdSchema,
  ParamHintSchema,
  ToolBindingSchema,
  ToolHintSchema,
  VALUE_SHAPES,
} from '../dataflow/schema.js';
export type { BindingSource, ParamHint, ToolBinding, ToolHint, ValueShape } from '../dataflow/schema.js';

/**
 * The workflow IR (docs/DESIGN.md, "The workflow IR"). Plain data, validated by this one schema; the
 * TypeScript types below are inferred from it and nowhere else. Structural rules that need the whole
 * graph (acyclic, one entry, one exit, guards that read declared fields, …) live in `validate.ts`,
 * so that one call reports every problem at once.
 */

export const LLM_ROLES = ['plan', 'extract', 'reason', 'verify', 'judge', 'synthesize'] as const;
export const LlmRoleSchema = z.enum(LLM_ROLES);

/** A JSON Schema for an object (the declared output of a JSON LLM node). */
export const JsonObjectSchemaSchema = z.looseObject({
  type: z.literal('object'),
  properties: z.record(z.string(), z.record(z.string(), z.unknown())),
  required: z.array(z.string()).optional(),
});

/** The JSON schema of a (dotted) field of an object schema, or undefined when it is not declared. */
export function declaredField(
  schema: z.infer<typeof JsonObjectSchemaSchema>,
  field: string,
): Record<string, unknown> | undefined {
  let props: Record<string, unknown> | undefined = schema.properties;
  const parts = field.split('.');
  for (let k = 0; k < parts.length; k++) {
    const p = props?.[parts[k]!] as (Record<string, unknown> & { properties?: Record<string, unknown> }) | undefined;
    if (!p || typeof p !== 'object') return undefined;
    if (k === parts.length - 1) return p;
    props = p.properties;
  }
  return undefined;
}

export const LlmOutputSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text') }),
  z.strictObject({ type: z.literal('json'), schema: JsonObjectSchemaSchema }),
]);

/** A word requests use: lower-case, no digits (an identifier or a record's value is never one). */
export const AskWordSchema = z
  .string()
  .min(1)
  .refine((w) => w === w.toLowerCase() && !/\d/.test(w), {
    message: 'must be a lower-case word without digits (words requests use, never an identifier or a value)',
  });

/** One branch a choosing judge may take (see `ChoicesSchema`). */
export const ChoiceOptionSchema = z.strictObject({
  /** The value the judge answers for this branch: what the branch's guard tests. */
  value: z.string().min(1),
  /** The tools the branch calls, in order ([]: the branch makes no call). */
  tools: z.array(z.string().min(1)),
  /** What the branch's requests ask for, in a few words. */
  about: z.string().min(1).optional(),
  /** Words the branch's requests use (lower-case, no digits), most telling first. */
  asks: z.array(AskWordSchema).optional(),
});

/**
 * The branches a `judge` picks among (a router): the JSON field it answers in, one option per
 * branch, and the value for a request no option fits. Rendered into the judge's prompt
 * (`{{choices}}`) for a model; read as data by the offline policy.
 */
export const ChoicesSchema = z.strictObject({
  field: z.string().min(1),
  options: z.array(ChoiceOptionSchema).min(1),
  otherwise: z.string().min(1).optional(),
  /**
   * The option a request takes when no option clearly fits, instead of `otherwise`: one of the
   * options' values, learned by the search when such requests did better there (docs/DESIGN.md,
   * "Mining": routes). A model reads it as one line of its prompt; the offline router takes it.
   */
  fallback: z.string().min(1).optional(),
  /**
   * The branches do one part of the request, and other steps the rest (a choice inside the
   * workflow); without it they cover the whole request (a router in front of it).
   */
  part: z.boolean().optional(),
});

export const LlmNodeSchema = z.strictObject({
  id: NodeIdSchema,
  kind: z.literal('llm'),
  role: LlmRoleSchema,
  /**
   * The instruction; may use the placeholders of `prompt-templates.ts`: {{query}} and {{inputs}}
   * (filled per request), {{question}} and {{choices}} (filled from the fields below).
   */
  prompt: z.string().min(1),
  output: LlmOutputSchema,
  /** A model string ("openai:gpt-4o-mini") that overrides the run's model for this node. */
  model: z.string().min(1).optional(),
  /** A judge: the yes/no question it answers (its prompt's {{question}}). */
  question: z.string().min(1).optional(),
  /** A judge that picks a branch: the branches (its prompt's {{choices}}). */
  choices: ChoicesSchema.optional(),
  /**
   * A synthesize node: how to write the answer, as directive ids of the template library
   * (`SYNTHESIZE_DIRECTIVES`), in order (a later one wins where two set the same thing). Their
   * sentences are appended to the prompt when it is rendered for a model.
   */
  directives: z.array(z.string().min(1)).optional(),
});

export const RETRY_ON = ['error', 'error-or-empty'] as const;
export const RetrySchema = z.strictObject({
  /** Total attempts, 1..5 (the range is checked by validateWorkflow so all problems come together). */
  attempts: z.number().int(),
  on: z.enum(RETRY_ON),
});

/**
 * Which part of the request a neutral task the search wrote looks up (see `ToolNodeSchema.taskPart`):
 * the k-th (the step's ordinal among the tool steps when the task was written), or the next one.
 */
export const TaskPartSchema = z.union([z.number().int().min(1), z.literal('next')]);

export const ToolNodeSchema = z.strictObject({
  id: NodeIdSchema,
  kind: z.literal('tool'),
  /** What this step must achieve; the policy picks a concrete tool and its arguments from it. */
  task: z.string().min(1),
  /** Tool hint: restrict selection to these tools of T. */
  tools: z.array(z.string().min(1)).optional(),
  /** 'many' lets one step issue several calls (a repeated activity). Default 'one'. */
  calls: z.enum(['one', 'many']).optional(),
  /**
   * The step may make no call: the runs it was mined from did not all make it (a τ or a choice in
   * the process tree), so the policy decides from the request whether it applies. Default false.
   */
  optional: z.boolean().optional(),
  retry: RetrySchema.optional(),
  /** Tools the miner saw at this step: a soft prior, never a binding. */
  mined: z.array(z.string()).optional(),
  /** Parameters of its tools bound to a source (filled by the runtime, not the policy); the rest are the policy's. */
  bind: z.array(ToolBindingSchema).optional(),
  /** What the step knows about its tools and their parameters (learned by the search; any policy reads it). */
  hints: z.array(ToolHintSchema).optional(),
  /**
   * Set when `task` is a neutral task the search's rules wrote (it names no tool, the request's part
   * decides; graph/neutral-tasks.ts): the part it looks up. The search reads this field to know its
   * own tasks, never the task's text; no policy or runtime reads it, and the workflow's hash ignores
   * it. `set_task` sets it or, without it, clears it. A file written before the field existed gets it
   * when read (`parseWorkflow`).
   */
  taskPart: TaskPartSchema.optional(),
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
   * Written by older versions of FlowScout: the offline policy's own table of what it learned. No
   * longer read (a search now writes what it learns as bindings and hints on the tool nodes); accepted
   * so that such files still load, and `run`, `eval` and `serve` say it is ignored.
   */
  learned: z.unknown().optional(),
});

export type LlmRole = z.infer<typeof LlmRoleSchema>;
export type JsonObjectSchema = z.infer<typeof JsonObjectSchemaSchema>;
export type LlmOutput = z.infer<typeof LlmOutputSchema>;
/** A node where a model writes text or JSON from a prompt, in one of six roles. */
export type LlmNode = z.infer<typeof LlmNodeSchema>;
/** The branches a choosing judge picks among (see `ChoicesSchema`). */
export type Choices = z.infer<typeof ChoicesSchema>;
/** One branch of a choosing judge (see `ChoiceOptionSchema`). */
export type ChoiceOption = z.infer<typeof ChoiceOptionSchema>;
export type Retry = z.infer<typeof RetrySchema>;
/** The part of the request a neutral task of the search looks up (see `TaskPartSchema`). */
export type TaskPart = z.infer<typeof TaskPartSchema>;
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
