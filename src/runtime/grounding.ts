import type { ToolNode } from '../graph/schema.js';
import type { ToolEffects, ToolRegistry } from '../contracts/tools.js';
import { needsGrounding } from '../tools/effects.js';
import type { NodeObservation } from './trace.js';
import type { PreCallCheck, PreCallDecision, PreCallRequest } from './tool-node.js';

/**
 * Grounded writes: before a `write` or `destructive` call is made (in `run`, `serve`, compiled
 * modules and LangGraph exports alike: the check sits in the one hook every runtime passes
 * through, tool-node.ts `PreCallCheck`), every argument value must come from somewhere this run
 * can vouch for: the request, an output of a tool call made earlier in this run, or a constant
 * bound in the workflow. A value that appears in none of them (an order id another customer's
 * record taught the policy) withholds the call; the call's observation names the argument.
 *
 * What counts as appearing (decisions written down here):
 * - a string or number appears when it occurs in a source as a whole token sequence (case and
 *   spacing ignored: "A-1003" appears in "cancel order a-1003," but "10" does not appear in "1003");
 * - a string of three or more words (free text such as a reason) appears when each of its words
 *   of three or more characters occurs in the sources, so a reworded sentence of the request is
 *   grounded and a sentence from elsewhere is not;
 * - empty values, booleans and values the tool's schema lists (`enum`, `const`, `default`) carry no
 *   record data and are grounded;
 * - objects and arrays are grounded when every value inside them is;
 * - an earlier call's output counts only when that call's own arguments were grounded the same way
 *   (in the request or in outputs that count): a lookup the policy filled with another record's id
 *   returns that record's data, which must not ground a write.
 *
 * With `destructive: 'withhold'` (`serve` by default, and an option of a compiled module's `run`), a
 * grounded destructive call is not made either: it is returned as pending, awaiting approval.
 */

/** Where argument values may come from. */
export interface GroundingSources {
  /** The request. */
  query: string;
  /** Outputs of tool calls made earlier in this run. */
  outputs: readonly unknown[];
  /** Constants bound in the workflow for this call (grounded whatever they are). */
  constants?: readonly unknown[];
}

/** An argument value that appears in no source. */
export interface UngroundedArg {
  /** The argument's path, e.g. `order_id` or `items[0].sku`. */
  path: string;
  value: unknown;
}

/** Marks the observation of a call withheld because an argument is ungrounded. */
export const UNGROUNDED_PREFIX = 'not run: write withheld';
/** Marks the observation of a destructive call withheld for approval. */
export const PENDING_PREFIX = 'not run: destructive call awaiting approval';

/** Every argument value of `args` that appears in none of the sources (empty: the call is grounded). */
export function ungroundedArgs(
  args: Record<string, unknown>,
  sources: GroundingSources,
  inputSchema?: Record<string, unknown>,
): UngroundedArg[] {
  const texts = [normalize(sources.query), ...sources.outputs.flatMap((o) => leafTexts(o))];
  const joined = ` ${texts.join(' \u0000 ')} `;
  const words = new Set(joined.split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  const constants = new Set((sources.constants ?? []).flatMap((c) => leafTexts(c)));
  const props = (inputSchema?.properties ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const out: UngroundedArg[] = [];
  const visit = (value: unknown, path: string, schema: Record<string, unknown> | undefined) => {
    if (value === null || value === undefined || typeof value === 'boolean') return;
    if (schemaAllows(schema, value)) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, `${path}[${i}]`, asSchema(schema?.items)));
      return;
    }
    if (typeof value === 'object') {
      const inner = asSchema(schema?.properties) as Record<string, Record<string, unknown> | undefined> | undefined;
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        visit(v, path ? `${path}.${k}` : k, inner?.[k]);
      return;
    }
    const text = normalize(String(value));
    if (text === '' || constants.has(text)) return;
    if (appearsIn(joined, text)) return;
    const long = text.split(' ').filter(Boolean);
    if (typeof value === 'string' && long.length >= 3) {
      const content = text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3);
      if (content.length > 0 && content.every((w) => words.has(w))) return;
    }
    out.push({ path, value });
  };
  for (const [k, v] of Object.entries(args)) visit(v, k, props[k]);
  return out;
}

/** One line naming the ungrounded arguments, for the call's observation. */
export function describeUngrounded(
  tool: string,
  effect: ToolEffects['effect'],
  problems: readonly UngroundedArg[],
): string {
  const list = problems.map((p) => `'${p.path}' (${JSON.stringify(p.value)})`).join(', ');
  return `${UNGROUNDED_PREFIX}: ${effect} call ${tool} has ungrounded argument${problems.length === 1 ? '' : 's'} ${list}: not in the request, in an output of an earlier call of this run, or bound in the workflow`;
}

/** How grounded write calls are treated. */
export interface GroundedWritesOptions {
  /** `withhold`: destructive calls are not made even when grounded; they come back as pending (default `allow`). */
  destructive?: 'allow' | 'withhold';
  /** Constants the workflow binds for a call (grounded whatever they are); default: none. */
  constantsOf?: (node: ToolNode, tool: string) => readonly unknown[];
}

/** The pre-call check of grounded writes (see the module comment). */
export function groundedWritesCheck(tools: ToolRegistry, opts: GroundedWritesOptions = {}): PreCallCheck {
  return (req: PreCallRequest): PreCallDecision => {
    const effects = tools.effectOf(req.tool.name);
    if (!effects || !needsGrounding(effects)) return undefined;
    const constants = (opts.constantsOf ?? boundConstants)(req.node, req.tool.name);
    const outputs = groundedOutputs(req.query, runCalls(req.scratch));
    const problems = ungroundedArgs(req.args, { query: req.query, outputs, constants }, req.tool.inputSchema);
    if (problems.length > 0)
      return { withhold: { status: 'error', error: describeUngrounded(req.tool.name, effects.effect, problems) } };
    if (effects.effect === 'destructive' && opts.destructive === 'withhold') {
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

const RUN_CALLS = 'flowscout.runCalls';

/** An ok call of this run: its arguments and its output. */
export interface RunCall {
  args: Record<string, unknown>;
  output: unknown;
}

/**
 * Records a finished node's ok calls (arguments and output) in the run's scratch space, in the
 * order nodes finish, so later write calls of the same run can be grounded in their outputs. The
 * node executor calls it for every node it resolves, memo hits included (a cached node's calls
 * count as this run's).
 */
export function recordRunCallOutputs(scratch: Map<string, unknown>, observation: Pick<NodeObservation, 'calls'>): void {
  if (!observation.calls?.length) return;
  let list = scratch.get(RUN_CALLS) as RunCall[] | undefined;
  if (!list) scratch.set(RUN_CALLS, (list = []));
  for (const c of observation.calls)
    if (c.status === 'ok' && c.output !== undefined) list.push({ args: c.args, output: c.output });
}

/** The calls `recordRunCallOutputs` kept for this run, oldest first. */
export function runCalls(scratch: Map<string, unknown>): readonly RunCall[] {
  return (scratch.get(RUN_CALLS) as RunCall[] | undefined) ?? [];
}

/** The outputs that count as sources: those of calls whose own arguments were grounded, in order. */
export function groundedOutputs(query: string, calls: readonly RunCall[]): unknown[] {
  const outputs: unknown[] = [];
  for (const c of calls) if (ungroundedArgs(c.args, { query, outputs }).length === 0) outputs.push(c.output);
  return outputs;
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Every string and number inside `value`, normalized (a JSON string output is read as text). */
function leafTexts(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 64 || value === null || value === undefined) return out;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint')
    out.push(normalize(String(value)));
  else if (Array.isArray(value)) for (const v of value) leafTexts(v, out, depth + 1);
  else if (typeof value === 'object')
    for (const v of Object.values(value as Record<string, unknown>)) leafTexts(v, out, depth + 1);
  return out;
}

/** True when `needle` occurs in `hay` with no letter or digit right before or after it. */
function appearsIn(hay: string, needle: string): boolean {
  let from = 0;
  for (;;) {
    const i = hay.indexOf(needle, from);
    if (i < 0) return false;
    const before = hay[i - 1] ?? ' ';
    const after = hay[i + needle.length] ?? ' ';
    if (!isWordChar(before) && !isWordChar(after)) return true;
    from = i + 1;
  }
}

function isWordChar(ch: string): boolean {
  return /[\p{L}\p{N}]/u.test(ch);
}

function asSchema(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Values the schema itself lists: enum members, a const, the default. */
function schemaAllows(schema: Record<string, unknown> | undefined, value: unknown): boolean {
  if (!schema) return false;
  const same = (x: unknown) => JSON.stringify(x) === JSON.stringify(value);
  if (Array.isArray(schema.enum) && schema.enum.some(same)) return true;
  if ('const' in schema && same(schema.const)) return true;
  return 'default' in schema && same(schema.default);
}

/** What decides a run's pre-call checks (a subset of `RunOptions`). */
export interface WriteCheckOptions {
  tools: ToolRegistry;
  preCallChecks?: readonly PreCallCheck[];
  groundWrites?: boolean;
  destructive?: 'allow' | 'withhold';
}

/**
 * A run's pre-call checks: the caller's own (argument bindings among them) first, then grounded
 * writes unless `groundWrites` is false. Used by the run object and the exported graph's steps alike.
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
