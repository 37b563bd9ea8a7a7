import { z } from 'zod';
import { FIELD_NAME_RE } from '../prompt-templates.js';
import { SYNTHESIZE_DIRECTIVE_IDS, SYNTHESIZE_VARIANT_IDS } from '../synthesize-variants.js';
import {
  BindingSourceSchema,
  GuardSchema,
  LlmOutputSchema,
  LlmRoleSchema,
  NodeIdSchema,
  RETRY_ON,
  TaskPartSchema,
  ToolHintSchema,
  ToolNodeSchema,
} from '../schema.js';

/**
 * Edit plans (docs/DESIGN.md, "Search": the optimizer reads feedback and returns an edit plan). Plans are
 * data: this schema is the contract between an optimizer (LLM or rule-based) and `applyEditPlan`, and
 * it goes into an LLM prompt through `z.toJSONSchema`, so every edit is a flat object discriminated by
 * `op` and every field says what it means.
 */

const id = (what: string) => NodeIdSchema.describe(what);

/** A new LLM node. Without `prompt` it gets the template of its role (prompt-templates.ts). */
export const NewLlmNodeSchema = z
  .strictObject({
    kind: z.literal('llm'),
    id: id('A new, unused node id (letters, digits, _ and -; starts with a letter or _).'),
    role: LlmRoleSchema.describe('plan | extract | reason | verify | judge | synthesize'),
    prompt: z
      .string()
      .min(1)
      .optional()
      .describe('The instruction. May use {{query}} and {{inputs}}. Omit to use the template of the role.'),
    task: z
      .string()
      .min(1)
      .optional()
      .describe('extract / reason / verify without a prompt: what the node must do (fills the template).'),
    question: z.string().min(1).optional().describe('judge without a prompt: the yes/no question it answers.'),
    field: z
      .string()
      .regex(FIELD_NAME_RE)
      .optional()
      .describe('judge: the boolean JSON field it returns (default "decision").'),
    output: LlmOutputSchema.optional().describe('Default: text; for a judge, JSON declaring its boolean field.'),
    model: z.string().min(1).optional().describe('A model string that overrides the run model for this node.'),
  })
  .describe('A new LLM node.');

/** A new step: a node that calls tools (the IR's ToolNode). */
export const NewToolNodeSchema = ToolNodeSchema.describe(
  'A new tool node: {kind: "tool", id, task, tools?: tool-name hint, calls?: "one" | "many", retry?: {attempts: 1-5, on: "error" | "error-or-empty"}}.',
);

/** A node an edit creates: LLM (prompt optional) or tool. */
export const NewNodeSchema = z.discriminatedUnion('kind', [NewLlmNodeSchema, NewToolNodeSchema]);

// Node edits.

/** Node edit: add. */
export const AddNodeEditSchema = z
  .strictObject({
    op: z.literal('add_node'),
    node: NewNodeSchema,
    from: z
      .array(NodeIdSchema)
      .min(1)
      .describe('Existing nodes that feed the new node (edges from each of them to it).'),
    to: z.array(NodeIdSchema).min(1).describe('Existing nodes the new node feeds (edges from it to each of them).'),
    kind: z.enum(['data', 'control']).optional().describe('Kind of the new edges (default "data").'),
    keepDirectEdges: z
      .boolean()
      .optional()
      .describe(
        'Default false: an edge going straight from a "from" node to a "to" node is removed, so the new node sits between them. true keeps it.',
      ),
  })
  .describe('Insert a new LLM or tool node between existing nodes.');

/** Node edit: remove (bridging its predecessors to its successors). */
export const RemoveNodeEditSchema = z
  .strictObject({ op: z.literal('remove_node'), id: id('The node to remove (not the entry or the exit).') })
  .describe('Remove a node; its predecessors are connected straight to its successors.');

/** Node edit: replace (edges kept, renamed with the id). */
export const ReplaceNodeEditSchema = z
  .strictObject({
    op: z.literal('replace_node'),
    id: id('The node to replace.'),
    node: NewNodeSchema.describe('The replacement; its edges are kept. A different id renames the node in every edge.'),
  })
  .describe('Replace a node by another (LLM or tool), keeping its edges.');

// Edge edits.

/** Edge edit: add. */
export const AddEdgeEditSchema = z
  .strictObject({
    op: z.literal('add_edge'),
    from: id('Source node.'),
    to: id('Target node.'),
    kind: z
      .enum(['data', 'control'])
      .optional()
      .describe('"data" (default): the target sees the source output; "control": ordering only.'),
    when: GuardSchema.optional().describe('Guard on the source output: the edge is live only when it holds.'),
  })
  .describe('Add an edge.');

/** Edge edit: remove. */
export const RemoveEdgeEditSchema = z
  .strictObject({ op: z.literal('remove_edge'), from: id('Source node.'), to: id('Target node.') })
  .describe('Remove the edge from → to.');

/** Edge edit: reconnect one or both ends. */
export const ReconnectEdgeEditSchema = z
  .strictObject({
    op: z.literal('reconnect_edge'),
    from: id('Current source of the edge.'),
    to: id('Current target of the edge.'),
    newFrom: id('New source (omit to keep).').optional(),
    newTo: id('New target (omit to keep).').optional(),
  })
  .describe('Move one or both ends of an edge; its kind and guard are kept.');

// Control-flow edits.

/** Control-flow edit: add a conditional branch (judge + guarded edge + skip edge). */
export const AddBranchEditSchema = z
  .strictObject({
    op: z.literal('add_branch'),
    judge: id('Id of the new judge node that decides whether the branch runs.'),
    field: z
      .string()
      .regex(FIELD_NAME_RE)
      .describe('The boolean JSON field the judge returns; the branch runs when it is true.'),
    question: z
      .string()
      .min(1)
      .optional()
      .describe("The yes/no question the judge answers (the judge's question field; its template shows it)."),
    prompt: z
      .string()
      .min(1)
      .optional()
      .describe('A full judge prompt instead of the template; must ask for JSON {"<field>": true|false}.'),
    target: id('An existing node to make optional (its incoming edges move to the judge).').optional(),
    node: NewNodeSchema.optional().describe(
      'A new node to add as the optional branch (instead of target); needs after and before.',
    ),
    after: id('With node: the node the judge follows.').optional(),
    before: id('With node: the join point the branch (and the skip edge) lead to.').optional(),
  })
  .describe(
    'Make a node optional behind a new judge: judge → node only when field is true; a skip edge judge → join point keeps the join running either way. The judge also passes on "facts" the optional node needs.',
  );

/** Control-flow edit: change a branch guard or the judge's question / prompt. */
export const RefineBranchEditSchema = z
  .strictObject({
    op: z.literal('refine_branch'),
    judge: id('The node whose JSON output the branch guards read.'),
    to: id('Target of the guarded edge to change (with when).').optional(),
    when: GuardSchema.nullable().optional().describe('The new guard of the edge judge → to; null removes the guard.'),
    question: z
      .string()
      .min(1)
      .optional()
      .describe("A new yes/no question: sets the judge's question field and gives it the judge template."),
    prompt: z.string().min(1).optional().describe('A new full judge prompt.'),
    fallback: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .describe(
        "A choosing judge (a router): the option a request takes when no option clearly fits, instead of its 'otherwise' value; null removes it.",
      ),
  })
  .describe("Change a branch guard, the judge's question or prompt, or a router's fallback option.");

/** Control-flow edit: a sequence becomes siblings. */
export const ParallelizeEditSchema = z
  .strictObject({
    op: z.literal('parallelize'),
    first: id('A node directly followed by second.'),
    second: id('The node after first.'),
  })
  .describe(
    "Two nodes in sequence become siblings: second also takes first's predecessors, first also feeds second's successors.",
  );

/** Control-flow edit: siblings become a sequence. */
export const SequentializeEditSchema = z
  .strictObject({
    op: z.literal('sequentialize'),
    first: id('The sibling that runs first.'),
    second: id('The sibling that runs after first.'),
  })
  .describe('Two independent siblings become a sequence first → second (shared shortcut edges are dropped).');

/** Control-flow edit: set or clear a retry loop. */
export const SetRetryEditSchema = z
  .strictObject({
    op: z.literal('set_retry'),
    id: id('A tool node.'),
    attempts: z
      .number()
      .int()
      .nullable()
      .describe('Total attempts 1-5 (the first call counts); null removes the retry.'),
    on: z.enum(RETRY_ON).optional().describe('Retry on "error" (default) or on "error-or-empty" results.'),
  })
  .describe("Set or clear a tool node's retry loop.");

/** Control-flow edit: one call or many at a step. */
export const SetCallsEditSchema = z
  .strictObject({
    op: z.literal('set_calls'),
    id: id('A tool node.'),
    calls: z.enum(['one', 'many']).describe('"many" lets the position issue several calls (a repeated activity).'),
  })
  .describe('Set how many calls a tool node may issue.');

/** Control-flow edit: every tool step becomes one repeating step. */
export const CollapseStepsEditSchema = z
  .strictObject({
    op: z.literal('collapse_steps'),
    id: id('The id of the one repeating step (a new id, or the id of a tool node it replaces).'),
  })
  .describe(
    'Replace every node between the plan and the synthesis by one repeating tool step that reads the request part by part and keeps the hints and bindings of the steps it replaces (the mined layout does not fit the requests).',
  );

/** Control-flow edit: the steps keep their places but no longer prefer the tools the runs used there. */
export const DropMinedEditSchema = z
  .strictObject({ op: z.literal('drop_mined') })
  .describe(
    "Clear every tool step's mined tools (the tools past runs used at that step): the steps keep their order, hints and bindings, and each chooses among all tools for its part of the request (the mined tools do not fit the requests).",
  );

// Prompt edits.

/** Prompt edit: an LLM node's prompt. */
export const SetPromptEditSchema = z
  .strictObject({
    op: z.literal('set_prompt'),
    id: id('An LLM node.'),
    prompt: z.string().min(1).describe('The new instruction; may use {{query}} and {{inputs}}.'),
  })
  .describe("Replace an LLM node's prompt.");

/** Prompt edit: how a synthesize node writes the answer (its directives, or a named variant). */
export const SetDirectivesEditSchema = z
  .strictObject({
    op: z.literal('set_directives'),
    id: id('A synthesize node.'),
    directives: z
      .array(z.enum(SYNTHESIZE_DIRECTIVE_IDS as [string, ...string[]]))
      .optional()
      .describe(
        'The directive ids, in order (a later one wins where two set the same thing); [] removes them. The prompt is kept; the sentences are appended when it is rendered.',
      ),
    variant: z
      .enum(SYNTHESIZE_VARIANT_IDS as [string, ...string[]])
      .optional()
      .describe("A named variant instead of directives: sets the variant's directives and its prompt text."),
  })
  .describe("Set a synthesize node's directives (give directives or variant, exactly one): how it writes the answer.");

/** Prompt edit: a tool node's task. */
export const SetTaskEditSchema = z
  .strictObject({
    op: z.literal('set_task'),
    id: id('A tool node.'),
    task: z.string().min(1).describe('What the position must achieve; guides tool selection and arguments.'),
    /**
     * The search's rules set it with a neutral task they write (the node's `taskPart`); left out,
     * the node's `taskPart` is cleared. Not offered to a model (see search/optimizers/llm-optimizer-prompt.ts).
     */
    taskPart: TaskPartSchema.optional(),
  })
  .describe("Replace a tool node's task.");

/** Prompt edit: a tool node's tool hint. */
export const SetToolHintEditSchema = z
  .strictObject({
    op: z.literal('set_tool_hint'),
    id: id('A tool node.'),
    tools: z
      .array(z.string().min(1))
      .nullable()
      .describe('Tool names the position may use (from T); null or [] removes the hint.'),
  })
  .describe("Set or clear a tool node's tool hint.");

// Binding edits.

/** Binding edit: bind (or rebind) a parameter of a tool node's tool to a source, or unbind it. */
export const SetBindingEditSchema = z
  .strictObject({
    op: z.literal('set_binding'),
    id: id('A tool node.'),
    tool: z.string().min(1).describe("One of the node's tools."),
    param: z.string().min(1).describe("A parameter in that tool's input schema."),
    source: BindingSourceSchema.nullable().describe(
      'Where the value comes from: {from: "const", value} | {from: "request", pattern, group?, flags?} (a regex with a capture over the request) | {from: "known", values} | {from: "extract", node, field} | {from: "output", node, path, pick?} (a JSON path like "results[0].id" into an upstream tool node\'s results; that node must feed this one) | {from: "model"}. null unbinds.',
    ),
  })
  .describe(
    "Bind, rebind or unbind one parameter of a tool node's tool: the runtime fills a bound parameter from its source with no model.",
  );

// Hint edits.

/** Hint edit: what a tool node knows about one of its tools (set, replace or clear). */
export const SetHintEditSchema = z
  .strictObject({
    op: z.literal('set_hint'),
    id: id('A tool node.'),
    tool: z.string().min(1).describe('A tool of T.'),
    hint: ToolHintSchema.omit({ tool: true })
      .nullable()
      .describe(
        'The hint: {asks?: {word: share}, follows?: {tool: share}, repeat?, together?: [{params, share}], params?: {<param>: {set?, setRates?, asked?, from?, before?, after?, keys?, shapes?, format?, values?}}} (see the workflow IR); null removes it.',
      ),
  })
  .describe(
    "Set or clear a tool node's hint about one tool: when requests ask for it and how its parameters are filled. Any step that calls the tool reads it.",
  );

/** Any one edit, discriminated by `op`. */
export const EditSchema = z.discriminatedUnion('op', [
  AddNodeEditSchema,
  RemoveNodeEditSchema,
  ReplaceNodeEditSchema,
  AddEdgeEditSchema,
  RemoveEdgeEditSchema,
  ReconnectEdgeEditSchema,
  AddBranchEditSchema,
  RefineBranchEditSchema,
  ParallelizeEditSchema,
  SequentializeEditSchema,
  SetRetryEditSchema,
  SetCallsEditSchema,
  CollapseStepsEditSchema,
  DropMinedEditSchema,
  SetPromptEditSchema,
  SetDirectivesEditSchema,
  SetTaskEditSchema,
  SetToolHintEditSchema,
  SetBindingEditSchema,
  SetHintEditSchema,
]);

/** An optimizer's answer: edits applied in order, then validated as a whole. */
export const EditPlanSchema = z
  .strictObject({
    summary: z.string().optional().describe('One sentence: what the plan changes and why.'),
    edits: z.array(EditSchema).describe('Edits, applied in order.'),
  })
  .describe('A plan of edits to a workflow.');

/** Every edit kind, in schema order. */
export const EDIT_OPS = EditSchema.options.map((o) => o.shape.op.value);

// Types inferred from the schemas above, their only source (house style: zod is the source of IR types).
export type NewLlmNode = z.infer<typeof NewLlmNodeSchema>;
export type NewNode = z.infer<typeof NewNodeSchema>;
export type AddNodeEdit = z.infer<typeof AddNodeEditSchema>;
export type RemoveNodeEdit = z.infer<typeof RemoveNodeEditSchema>;
export type ReplaceNodeEdit = z.infer<typeof ReplaceNodeEditSchema>;
export type AddEdgeEdit = z.infer<typeof AddEdgeEditSchema>;
export type RemoveEdgeEdit = z.infer<typeof RemoveEdgeEditSchema>;
export type ReconnectEdgeEdit = z.infer<typeof ReconnectEdgeEditSchema>;
export type AddBranchEdit = z.infer<typeof AddBranchEditSchema>;
export type RefineBranchEdit = z.infer<typeof RefineBranchEditSchema>;
export type ParallelizeEdit = z.infer<typeof ParallelizeEditSchema>;
export type SequentializeEdit = z.infer<typeof SequentializeEditSchema>;
export type SetRetryEdit = z.infer<typeof SetRetryEditSchema>;
export type SetCallsEdit = z.infer<typeof SetCallsEditSchema>;
export type CollapseStepsEdit = z.infer<typeof CollapseStepsEditSchema>;
export type DropMinedEdit = z.infer<typeof DropMinedEditSchema>;
export type SetPromptEdit = z.infer<typeof SetPromptEditSchema>;
export type SetDirectivesEdit = z.infer<typeof SetDirectivesEditSchema>;
export type SetTaskEdit = z.infer<typeof SetTaskEditSchema>;
export type SetToolHintEdit = z.infer<typeof SetToolHintEditSchema>;
export type SetBindingEdit = z.infer<typeof SetBindingEditSchema>;
export type SetHintEdit = z.infer<typeof SetHintEditSchema>;
export type Edit = z.infer<typeof EditSchema>;
export type EditOp = Edit['op'];
/** An optimizer's answer: an optional summary and the edits, applied in order (see `EditPlanSchema`). */
export type EditPlan = z.infer<typeof EditPlanSchema>;
