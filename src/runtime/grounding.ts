import { PENDING_PREFIX } from '../contracts/tools.js';
import { hintFor } from '../graph/hints.js';
import type { ParamHint, ToolNode, ValueShape } from '../graph/schema.js';
import { valueShape } from '../dataflow/value-shape.js';
import { keyParts } from '../util/key-parts.js';
import type { ToolDescriptor, ToolEffects, ToolRegistry } from '../contracts/tools.js';
import { needsGrounding } from '../tools/effects.js';
import type { PreCallCheck, PreCallDecision, PreCallRequest } from './pre-call.js';
import { asSchema, findUngrounded, leafTexts, normalize, SourceText, type UngroundedArg } from './grounding-match.js';
import { runSources } from './grounding-sources.js';

export type { UngroundedArg } from './grounding-match.js';
export {
  groundedOutputs,
  listingItems,
  recordRunCallOutputs,
  runCalls,
  selects,
  type RunCall,
} from './grounding-sources.js';

/**
 * Grounding: before a call is made (in `run`, `serve`, compiled modules and LangGraph exports
 * alike: the check sits in the one hook every runtime passes through, tool-node.ts
 * `PreCallCheck`), its argument values must come from somewhere this run can vouch for: the
 * request, what an earlier call of this run grounds (below), or a constant bound in the workflow.
 * Grounding is provenance — where a value came from — not ownership: any value the request writes
 * grounds, whoever it belongs to.
 *
 * Which arguments are checked:
 * - a `write` or `destructive` call to a live tool, or to a replay tool whose effect was declared
 *   (tools/effects.ts `needsGrounding`): every value;
 * - any other call, reads included: every part of a value that looks like a key, judged by what
 *   the value is rather than by the parameter's name (util/key-parts.ts `keyParts`: a value
 *   shaped like an identifier, or its tokens — cut at spaces and URL path and query separators —
 *   that are numbers of 3+ digits outside quantities, codes of letters and digits, or words that
 *   are no words of the language, such as names and codes without digits). Each such part must
 *   appear in a source; a part without digits may also be a word of the tool's own texts, and a
 *   value the parameter's schema documents (its enum, default, a value its description quotes)
 *   passes whole.
 * A checked value that appears in no source withholds the call; its observation names the argument
 * (`not run: write withheld: …` for writes, `not run: call withheld: …` for the rest).
 *
 * With the step's hint (graph/hints.ts `hintFor`), an identifier argument whose shape is none of
 * the shapes the hint learned for its parameter is withheld too, however grounded (`misshapenArgs`).
 * How often legitimate calls are withheld is measured by replaying real records' calls through this
 * check (grounding-replay.ts, benchmarks/grounding-false-withholds.ts).
 *
 * What counts as appearing (decisions written down here):
 * - a string or number appears when it occurs in a source as a whole token sequence (case and
 *   spacing ignored: "A-1003" appears in "cancel order a-1003," but "10" does not appear in "1003");
 * - free text (a string of three or more words, such as a reason) also appears when it is covered
 *   by phrases of the sources, in any order: each phrase is two or more consecutive words of one
 *   source, word for word and in order, or a single word of three or more characters without a
 *   digit. Short words and numbers count only beside the words they stand beside in a source, so
 *   "7 Harbour Road" is not grounded by "12 Harbour Road", while a reworded sentence of the request is;
 * - empty values, booleans and values the tool's schema lists (`enum`, `const`, `default`) carry no
 *   record data and are grounded;
 * - an earlier output grounds its values and the object keys shaped like identifiers, not its
 *   field names (`item_ids` grounds no `IDs`); an output that is JSON text is read as that JSON;
 * - objects and arrays are grounded when everything inside them is, and the keys of an object are
 *   values like any other unless the schema names them as properties: a map-shaped argument
 *   (`{"orders": {"1007": "damaged"}}`, JSON Schema `additionalProperties` or an object schema
 *   without `properties`) is checked key by key. Under an object with no schema at all, a key shaped
 *   like an identifier is checked;
 *
 * What an earlier call of this run grounds (grounding-sources.ts), in the order calls ended (a
 * call of the same node included):
 * - nothing, when one of its own identifier-shaped arguments was not grounded in the request or in
 *   what the calls before it ground (a lookup filled with another record's id returns that record);
 * - for the identifiers of a read (or a replayed call): its whole output. A read may look up what
 *   an earlier grounded call of this run returned (search hotels in Paris, then the details of a
 *   hotel it found): the value came from this run's tools, not from anywhere else;
 * - for the values of a write, in two cases:
 *   - its whole output when it selected with a grounded identifier-shaped argument (`get_order
 *     {"order_id": "1003"}` with 1003 in the request);
 *   - otherwise it is a listing (no arguments, or only words that identify nothing, such as
 *     `{"status": "open"}` when the request says "open"), and it grounds only the items of its
 *     output that carry an identifier the request or a grounded source names: an object one of
 *     whose own values is such an identifier (judged with its key as the parameter name:
 *     `{"order_id": "1003", …}`) or whose name or title field holds a name written there (`{"id":
 *     42, "name": "Oslo"}` for a request about Oslo), the entry of a map keyed by such an
 *     identifier, or a line of text holding one. A status, a category or any other field that many
 *     items share selects nothing, and the rest of the listing grounds nothing, so "list, then act"
 *     acts only on what the request named. A lookup of an item only the listing showed
 *     (`get_order {"order_id": "1007"}` after `list_orders`) is made, but grounds nothing for
 *     writes: its identifier was not grounded for writes.
 *
 * With `destructive: 'withhold'` (`serve` by default, and an option of a compiled module's `run`), a
 * grounded destructive call is not made either: it is returned as pending, awaiting approval.
 */

/** Where argument values may come from. */
export interface GroundingSources {
  /** The request. */
  query: string;
  /** What earlier calls of this run ground (whole outputs, or the items a listing grounds). */
  outputs: readonly unknown[];
  /** Constants bound in the workflow for this call (grounded whatever they are). */
  constants?: readonly unknown[];
}

/** Marks the observation of a write call withheld because an argument is ungrounded. */
export const UNGROUNDED_PREFIX = 'not run: write withheld';
/** Marks the observation of a call (a read, or a replayed call) withheld because an identifier argument is ungrounded. */
export const UNGROUNDED_CALL_PREFIX = 'not run: call withheld';
/** Marks the observation of a destructive call withheld for approval (defined with the tool contract, which answers read too). */
export { PENDING_PREFIX };

/** True for the error of a call a pre-call check of grounding withheld (it never reached the tools). */
export function isWithheldByGrounding(error: string | undefined): boolean {
  return (
    error !== undefined &&
    (error.startsWith(UNGROUNDED_PREFIX) ||
      error.startsWith(UNGROUNDED_CALL_PREFIX) ||
      error.startsWith(PENDING_PREFIX))
  );
}

/**
 * Every argument value of `args` that appears in none of the sources (empty: the call is grounded).
 * `scope` says which values are checked: all (write calls, the default) or those shaped like identifiers.
 */
export function ungroundedArgs(
  args: Record<string, unknown>,
  sources: GroundingSources,
  inputSchema?: Record<string, unknown>,
  scope: 'all' | 'identifiers' = 'all',
): UngroundedArg[] {
  const text = new SourceText(sources.query);
  for (const o of sources.outputs) text.add(o);
  return findUngrounded(args, { text, constants: constantSet(sources.constants) }, inputSchema, scope);
}

/** One line naming the ungrounded arguments, for the call's observation. */
export function describeUngrounded(
  tool: string,
  effect: ToolEffects['effect'] | 'replayed',
  problems: readonly UngroundedArg[],
  scope: 'all' | 'identifiers' = 'all',
): string {
  const list = problems
    .map((p) => {
      const parts = p.parts ? `, from nowhere: ${p.parts.map((x) => JSON.stringify(x)).join(', ')}` : '';
      return `${p.key ? `a key of '${p.path}'` : `'${p.path}'`} (${JSON.stringify(p.value)}${parts})`;
    })
    .join(', ');
  const what = scope === 'all' ? 'argument' : 'identifier argument';
  const plural = problems.length === 1 ? '' : 's';
  return `${scope === 'all' ? UNGROUNDED_PREFIX : UNGROUNDED_CALL_PREFIX}: ${effect} call ${tool} has ungrounded ${what}${plural} ${list}: not in the request, in what an earlier call of this run selected, or bound in the workflow`;
}

/** An identifier argument whose shape is none of the shapes its parameter's values take (the step's hint). */
export interface MisshapenArg {
  path: string;
  value: unknown;
  /** The value's shape (dataflow/value-shape.ts). */
  shape: ValueShape;
  /** The shapes the hint learned for the parameter, with their shares. */
  learned: Partial<Record<ValueShape, number>>;
}

/**
 * The identifier arguments of a call whose shape is not one the step's hint learned for their
 * parameter (`ParamHint.shapes`: a flight number `HAT072`, shaped `id`, passed as a reservation id
 * whose values were six capitals, `code`). Grounding says where a value came from; this says
 * whether it is the kind of value the parameter takes, so an identifier the run did see, but of
 * another kind, is not passed as this one. Judged only for values with a key part (`keyParts`):
 * a word, a date or an amount of another shape is the policy's mistake, not another record's key.
 * Values the schema lists pass; a parameter whose hint learned no shape takes any.
 */
export function misshapenArgs(
  args: Record<string, unknown>,
  params: Readonly<Record<string, ParamHint>>,
  inputSchema?: Record<string, unknown>,
): MisshapenArg[] {
  const props = asSchema(inputSchema?.properties);
  const out: MisshapenArg[] = [];
  for (const [name, value] of Object.entries(args)) {
    const learned = params[name]?.shapes;
    if (!learned || Object.keys(learned).length === 0) continue;
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const schema = asSchema(props?.[name]);
    if (keyParts(value, { name, ...(schema ? { schema } : {}) }).length === 0) continue;
    const shape = valueShape(value);
    if (learned[shape] === undefined) out.push({ path: name, value, shape, learned });
  }
  return out;
}

/** One line naming the misshapen arguments, for the call's observation. */
export function describeMisshapen(
  tool: string,
  effect: ToolEffects['effect'] | 'replayed',
  problems: readonly MisshapenArg[],
  scope: 'all' | 'identifiers' = 'all',
): string {
  const list = problems
    .map(
      (p) =>
        `'${p.path}' (${JSON.stringify(p.value)}, shaped ${p.shape}; its values were ${Object.keys(p.learned).join(', ')})`,
    )
    .join(', ');
  const plural = problems.length === 1 ? '' : 's';
  return `${scope === 'all' ? UNGROUNDED_PREFIX : UNGROUNDED_CALL_PREFIX}: ${effect} call ${tool} has identifier argument${plural} of a shape its parameter does not take: ${list}, as the step's hint learned them`;
}

/** How grounded calls are treated. */
export interface GroundedWritesOptions {
  /** `withhold`: destructive calls are not made even when grounded; they come back as pending (default `allow`). */
  destructive?: 'allow' | 'withhold';
  /** Constants the workflow binds for a call (grounded whatever they are); default: none. */
  constantsOf?: (node: ToolNode, tool: string) => readonly unknown[];
}

/** The pre-call check of grounding (see the module comment). */
export function groundedWritesCheck(tools: ToolRegistry, opts: GroundedWritesOptions = {}): PreCallCheck {
  const schemaOf = (name: string) => tools.get(name)?.inputSchema;
  // A registry's effects are fixed when it is built: each tool's are looked up once per check.
  const effectsOf = new Map<
    string,
    { effects: ToolEffects | undefined; scope: 'all' | 'identifiers'; documented: SourceText | undefined }
  >();
  return (req: PreCallRequest): PreCallDecision => {
    let known = effectsOf.get(req.tool.name);
    if (!known) {
      const e = tools.effectOf(req.tool.name);
      const scope = e && needsGrounding(e) ? 'all' : 'identifiers';
      effectsOf.set(req.tool.name, (known = { effects: e, scope, documented: undefined }));
    }
    const { effects, scope } = known;
    const entry = known;
    // The run's sources are looked at only when an argument needs them (most reads need none).
    const problems = findUngrounded(
      req.args,
      () => ({
        text: runSources(req.scratch, req.query, schemaOf)[scope === 'all' ? 'text' : 'readText'],
        constants: constantSet((opts.constantsOf ?? boundConstants)(req.node, req.tool.name)),
        ...(scope === 'identifiers' ? { documented: (entry.documented ??= documentedText(req.tool)) } : {}),
      }),
      req.tool.inputSchema,
      scope,
    );
    const effect = scope === 'identifiers' && effects?.effect !== 'read' ? 'replayed' : (effects?.effect ?? 'read');
    if (problems.length > 0)
      return { withhold: { status: 'error', error: describeUngrounded(req.tool.name, effect, problems, scope) } };
    const params = hintFor(req.workflow, req.node, req.tool.name)?.params;
    const misshapen = params ? misshapenArgs(req.args, params, req.tool.inputSchema) : [];
    if (misshapen.length > 0)
      return { withhold: { status: 'error', error: describeMisshapen(req.tool.name, effect, misshapen, scope) } };
    if (scope === 'all' && effects!.effect === 'destructive' && opts.destructive === 'withhold') {
      return {
        withhold: {
          status: 'error',
          error: `${PENDING_PREFIX}: ${req.tool.name} is destructive; pass --allow destructive to serve (or destructive: 'allow' to run) to make such calls`,
        },
      };
    }
    return undefined;
  };
}

/** A tool's own texts: its name, description and input schema (descriptions, documented values, examples). */
function documentedText(tool: ToolDescriptor): SourceText {
  const text = new SourceText(tool.name);
  if (tool.description) text.addText(tool.description);
  for (const t of leafTexts(tool.inputSchema)) text.addText(t);
  return text;
}

function constantSet(constants: readonly unknown[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const c of constants ?? []) for (const t of leafTexts(c)) out.add(normalize(t));
  return out;
}

/** What decides a run's pre-call checks (a subset of `RunOptions`). */
export interface WriteCheckOptions {
  tools: ToolRegistry;
  preCallChecks?: readonly PreCallCheck[];
  groundWrites?: boolean;
  destructive?: 'allow' | 'withhold';
}

/**
 * A run's pre-call checks: the caller's own (argument bindings among them) first, then grounding
 * unless `groundWrites` is false. Used by the run object and the exported graph's steps alike.
 */
export function runPreCallChecks(opts: WriteCheckOptions): PreCallCheck[] {
  const own = [...(opts.preCallChecks ?? [])];
  if (opts.groundWrites === false) return own;
  return [...own, groundedWritesCheck(opts.tools, opts.destructive ? { destructive: opts.destructive } : {})];
}

/** The constants a tool node binds for `tool`'s parameters (`bind: [{ tool, param, source: { from: 'const', value } }]`). */
export function boundConstants(node: ToolNode, tool: string): unknown[] {
  return (node.bind ?? []).flatMap((b) => (b.tool === tool && b.source.from === 'const' ? [b.source.value] : []));
}
