import { z } from 'zod';

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

/**
 * The shapes a parameter's values take (retrieval/value-shape.ts gives a value its shape): a boolean,
 * a date (YYYY-MM-DD…), an integer, a decimal, a number of five or more digits, a coordinate pair, a
 * pair of codes (`BTC/USD`), a code of capitals by its length, an id of capitals and digits, a place
 * and its regions (`Paris, France`, `East Lansing, MI, US`; `London,UK` tight), a name of one or several mostly capitalised words, an
 * e-mail address, a path of words (`America/New_York`), a lower-case word or slug, other text (a
 * sentence is text).
 */
export const VALUE_SHAPES = [
  'bool',
  'date',
  'int',
  'float',
  'long-number',
  'coord',
  'pair',
  'code2',
  'code3',
  'code4',
  'code',
  'id',
  'place-region',
  'place-region-tight',
  'name',
  'multi-word-name',
  'email',
  'path',
  'lower',
  'text',
] as const;

const ShareSchema = z.number().min(0).max(1);
const SharesSchema = z.record(z.string().min(1), ShareSchema);
const HintValueSchema = z.union([z.string(), z.number(), z.boolean()]);

/**
 * What a step knows about one parameter of one of its tools (docs/DESIGN.md, "The workflow IR":
 * typed hints). Learned by the search from execution feedback on the optimisation records and
 * written for any policy to read (a model sees them rendered in its request). Shares are the part
 * of the optimisation calls that showed each thing (0–1). None of it is a value of one record: words
 * recur across requests, values across groups, and no identifier is kept.
 */
export const ParamHintSchema = z.strictObject({
  /** Whether the step sets it (an optional parameter): always, when the request asks for it, or never. */
  set: z.enum(['always', 'if-asked', 'never']).optional(),
  /**
   * How often calls set it: in all, when the part of the request that asked for the call names it,
   * when it does not, and when the request writes one of its `values`.
   */
  setRates: z
    .strictObject({
      overall: ShareSchema,
      named: ShareSchema.optional(),
      unnamed: ShareSchema.optional(),
      written: ShareSchema.optional(),
    })
    .optional(),
  /** Request words that go with setting it (positive) or leaving it out (negative), weights in [-1, 1]. */
  asked: z.record(z.string().min(1), z.number().min(-1).max(1)).optional(),
  /** Where its values came from: the request, an upstream step's result, or neither (a constant). */
  from: z.partialRecord(z.enum(['request', 'upstream', 'constant']), ShareSchema).optional(),
  /** Words written right before its value in requests ("hotel id 7000…"), with the share of the values found in requests each came before. */
  before: SharesSchema.optional(),
  /** Words written right after its value, with their shares (as `before`). */
  after: SharesSchema.optional(),
  /** Keys of upstream results that held its value, with the share of values from upstream each held. */
  keys: SharesSchema.optional(),
  /** The shapes its values take, with the share of values of each shape. */
  shapes: z.partialRecord(z.enum(VALUE_SHAPES), ShareSchema).optional(),
  /** How a value found in the request is written for it. */
  format: z
    .strictObject({
      /** A date is written into this template at `{date}` (YYYY-MM-DD), e.g. `{date}T12:00:00.000Z`. */
      template: z.string().includes('{date}').optional(),
      /** Names are passed lower-cased. */
      lower: z.boolean().optional(),
      /** Words of a name are joined by this string (`east-lansing`). */
      join: z.string().max(3).optional(),
      /** Values the request writes apart are passed as one, joined by this string (`BTC,USD` for "BTC and USD"). */
      listSep: z.string().min(1).max(3).optional(),
      /** A month named in the request is passed as its number (June → 6). */
      monthNumber: z.boolean().optional(),
      /** The JSON type values are passed as. */
      type: z.enum(['string', 'number', 'boolean']).optional(),
    })
    .optional(),
  /** Values it recurrently takes (a domain's vocabulary, never an identifier), with their shares, most frequent first. */
  values: z.array(z.strictObject({ value: HintValueSchema, share: ShareSchema })).optional(),
});

/** What a step knows about one of its tools: when requests ask for it, and its parameters. */
export const ToolHintSchema = z.strictObject({
  tool: z.string().min(1),
  /** Calls of this tool the hint was learned from: what its shares are shares of. */
  uses: z.number().int().min(1).optional(),
  /** Words requests use when they ask for this tool, with the share of its calls whose request part used each. */
  asks: SharesSchema.optional(),
  /** Tools called right before it (`^`: none, it opened the run), with their shares of its calls. */
  follows: SharesSchema.optional(),
  /** With `calls: 'many'`: one call per value the request gives for this parameter. */
  repeat: z.string().min(1).optional(),
  /** Combinations of optional parameters that calls set together, with their shares, most frequent first. */
  together: z.array(z.strictObject({ params: z.array(z.string().min(1)), share: ShareSchema })).optional(),
  params: z.record(z.string(), ParamHintSchema).optional(),
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
  /**
   * The step may make no call: the runs it was mined from did not all make it (a τ or a choice in
   * the process tree), so the policy decides from the request whether it applies. Default false.
   */
  optional: z.boolean().optional(),
  retry: RetrySchema.optional(),
  /** Tools the miner saw at this position: a soft prior, never a binding. */
  mined: z.array(z.string()).optional(),
  /** Parameters of its tools bound to a source (filled by the runtime, not the policy); the rest are the policy's. */
  bind: z.array(ToolBindingSchema).optional(),
  /** What the step knows about its tools and their parameters (learned by the search; any policy reads it). */
  hints: z.array(ToolHintSchema).optional(),
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
/** Where a bound parameter's value comes from (see `BindingSourceSchema`). */
export type BindingSource = z.infer<typeof BindingSourceSchema>;
/** A tool parameter bound to a source (see `ToolBindingSchema`). */
export type ToolBinding = z.infer<typeof ToolBindingSchema>;
/** A typed hint about one parameter (see `ParamHintSchema`). */
export type ParamHint = z.infer<typeof ParamHintSchema>;
/** A typed hint about one tool of a step (see `ToolHintSchema`). */
export type ToolHint = z.infer<typeof ToolHintSchema>;
/** A value shape of `VALUE_SHAPES`. */
export type ValueShape = (typeof VALUE_SHAPES)[number];
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
