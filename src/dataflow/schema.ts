import { z } from 'zod';

/**
 * What a workflow knows of its tools' arguments, as IR data (docs/DESIGN.md, "The workflow IR"):
 * bindings — small programs that give a parameter its value from the request, an earlier call's
 * result or a constant, resolved with no model (resolve.ts) — and typed hints, the statistics a
 * policy reads where no program fits. Learned from the optimisation records (learn-bindings.ts,
 * learn-hints.ts), rendered for people and models (render.ts, hint-text.ts). The workflow schema
 * (graph/schema.ts) holds them on its tool nodes.
 */

/** Node ids double as function names in compiled modules, so they are identifier-like. */
export const NodeIdSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, {
  message: 'must start with a letter or _ and hold only letters, digits, _ and - (at most 64 characters)',
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

/** How a value found in an earlier result is chosen among a list's items (see `BindingSourceSchema`). */
export const PICKS = ['first', 'last', 'match'] as const;

/**
 * How a value found in an earlier result becomes the argument:
 * - `last-segment`: the last part of an embedded id (`urn:shop:item:8412` → `8412`, `/orders/77` → `77`);
 * - `split`: part `index` of the value split at `sep` (from the end when negative);
 * - `join`: the value and its sibling field `with` (a key of the same object) joined by `sep`, the
 *   sibling first when `withFirst` (`lon` and `lat` → `"139.7,35.6"`);
 * - `number`: the value as a number, with `digits` decimals when given.
 */
export const TransformSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('last-segment') }),
  z.strictObject({ op: z.literal('split'), sep: z.string().min(1).max(3), index: z.number().int().min(-8).max(8) }),
  z.strictObject({
    op: z.literal('join'),
    with: z.string().min(1),
    sep: z.string().max(3),
    withFirst: z.boolean().optional(),
  }),
  z.strictObject({ op: z.literal('number'), digits: z.number().int().min(0).max(12).optional() }),
]);

/**
 * Where a bound parameter's value comes from (docs/DESIGN.md, "The workflow IR": argument bindings).
 * The runtime resolves it with no model; when it yields nothing the policy fills the parameter.
 * - `const`: a constant of the domain;
 * - `request`: a regular expression over the request; the value is capture `group` (default 1) of
 *   its first match (`flags` may hold `i`);
 * - `known`: the first of a list of known values the request names (whole words, any case);
 * - `extract`: a field of an upstream `extract` LLM node's JSON output;
 * - `output`: a JSON path (`a.b[0].c`, `[*]` over a list's items) into the result of an earlier
 *   call: of upstream tool node `node`, else the latest earlier call of `tool` (any upstream step, or
 *   this step's own earlier calls), else the latest earlier call whose result the path reaches.
 *   `pick` chooses among the values found: `first` (default), `last`, or `match`: the value of the
 *   first list item (the items at the path's last `[*]`) whose field `by` the request names.
 *   `transform` turns the value found into the argument (resolve.ts);
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
    node: NodeIdSchema.optional(),
    tool: z.string().min(1).optional(),
    path: z.string().min(1),
    pick: z.enum(PICKS).optional(),
    by: z.string().min(1).optional(),
    transform: TransformSchema.optional(),
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
 * The shapes a parameter's values take (value-shape.ts gives a value its shape): a boolean,
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
   * and when it does not. (`written`, how often when the request writes one of its `values`, is no
   * longer learned: it moved no domain, docs/guides/benchmarks.md, History; it is still read.)
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
      /**
       * A month named in the request is passed as its number (June → 6). No longer learned (it paid on
       * no domain but one, docs/guides/benchmarks.md, History): read so that workflows holding it stay
       * valid, and told to a model.
       */
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

/** Where a bound parameter's value comes from (see `BindingSourceSchema`). */
export type BindingSource = z.infer<typeof BindingSourceSchema>;
/** A tool parameter bound to a source (see `ToolBindingSchema`). */
export type ToolBinding = z.infer<typeof ToolBindingSchema>;
/** How a found value becomes an argument (see `TransformSchema`). */
export type Transform = z.infer<typeof TransformSchema>;
/** A typed hint about one parameter (see `ParamHintSchema`). */
export type ParamHint = z.infer<typeof ParamHintSchema>;
/** A typed hint about one tool of a step (see `ToolHintSchema`). */
export type ToolHint = z.infer<typeof ToolHintSchema>;
/** A value shape of `VALUE_SHAPES`. */
export type ValueShape = (typeof VALUE_SHAPES)[number];
