import { identifierKind, paramWords } from '../util/identifier-shape.js';
import type { CallObservation, NodeObservation } from './trace.js';
import { asSchema, findUngrounded, parseJsonText, SourceText } from './grounding-match.js';

/**
 * What the earlier calls of a run ground (the rules are in grounding.ts's module comment), in two
 * grades. For write calls: a call whose identifier-shaped arguments were grounded (for writes) and
 * that selected by one of them grounds its whole output; a listing (no identifying argument)
 * grounds only the items of its output that carry an identifier the request or such a source
 * names. For the identifiers of other calls: the whole output of every call whose own identifiers
 * were grounded (for reads). Kept per run in its scratch space and extended call by call, so each
 * call is judged once.
 */

/** An ok call of this run: its tool, arguments and output. */
export interface RunCall {
  tool: string;
  args: Record<string, unknown>;
  output: unknown;
}

const RUN_CALLS = 'flowscout.runCalls';
const RECORDED = 'flowscout.runCallsRecorded';
const GROUNDING = 'flowscout.grounding';

/**
 * Records ok calls (tool, arguments and output) in the run's scratch space, in the order they
 * ended, so later calls of the same run can be grounded in their outputs. A tool node records each
 * call as it returns (a later call of the same node may use it); the node executor records every
 * node it resolves, memo hits included (a cached node's calls count as this run's). A call object
 * recorded once is not recorded again.
 */
export function recordRunCallOutputs(scratch: Map<string, unknown>, observation: Pick<NodeObservation, 'calls'>): void {
  if (!observation.calls?.length) return;
  for (const c of observation.calls) recordRunCall(scratch, c);
}

/** `recordRunCallOutputs` of one call (a tool node records each ok call as it returns). */
export function recordRunCall(scratch: Map<string, unknown>, c: CallObservation): void {
  let list = scratch.get(RUN_CALLS) as RunCall[] | undefined;
  if (!list) scratch.set(RUN_CALLS, (list = []));
  let seen = scratch.get(RECORDED) as WeakSet<object> | undefined;
  if (!seen) scratch.set(RECORDED, (seen = new WeakSet()));
  if (c.status !== 'ok' || c.output === undefined || seen.has(c)) return;
  seen.add(c);
  list.push({ tool: c.tool, args: c.args, output: c.output });
}

/** The calls `recordRunCallOutputs` kept for this run, oldest first. */
export function runCalls(scratch: Map<string, unknown>): readonly RunCall[] {
  return (scratch.get(RUN_CALLS) as RunCall[] | undefined) ?? [];
}

/** The sources of a run so far: the request and what its earlier calls ground. */
export interface RunSources {
  /** For write calls: the request and the parts of earlier outputs that ground writes. */
  text: SourceText;
  /** For the identifiers of other calls: the request and the whole outputs of earlier grounded calls. */
  readText: SourceText;
  /** The parts of earlier outputs that ground writes, in call order (whole outputs, or a listing's matching items). */
  grounded: unknown[];
}

interface GroundingState extends RunSources {
  query: string;
  /** Calls of `runCalls` already judged. */
  seen: number;
}

/** The input schema of a tool, when known. */
export type SchemaOf = (tool: string) => Record<string, unknown> | undefined;

/** The run's sources, extended by the calls recorded since the last look (each call judged once). */
export function runSources(scratch: Map<string, unknown>, query: string, schemaOf: SchemaOf): RunSources {
  let state = scratch.get(GROUNDING) as GroundingState | undefined;
  if (!state || state.query !== query) {
    state = newState(query);
    scratch.set(GROUNDING, state);
  }
  const calls = runCalls(scratch);
  for (; state.seen < calls.length; state.seen++) addCall(state, calls[state.seen]!, schemaOf(calls[state.seen]!.tool));
  return state;
}

/** The parts of `calls`' outputs that ground later calls (see the module comment), in order. */
export function groundedOutputs(
  query: string,
  calls: readonly RunCall[],
  schemaOf: SchemaOf = () => undefined,
): unknown[] {
  const state = newState(query);
  for (const c of calls) addCall(state, c, schemaOf(c.tool));
  return state.grounded;
}

function newState(query: string): GroundingState {
  return { query, text: new SourceText(query), readText: new SourceText(query), grounded: [], seen: 0 };
}

const NO_CONSTANTS: ReadonlySet<string> = new Set();

function addCall(state: GroundingState, call: RunCall, schema: Record<string, unknown> | undefined): void {
  const groundedIn = (text: SourceText) =>
    findUngrounded(call.args, { text, constants: NO_CONSTANTS }, schema, 'identifiers').length === 0;
  if (!groundedIn(state.readText)) return;
  state.readText.add(call.output);
  if (!groundedIn(state.text)) return;
  const parts = selects(call.args, schema) ? [call.output] : listingItems(call.output, state.text);
  for (const p of parts) {
    state.grounded.push(p);
    state.text.add(p);
  }
}

/** True when an argument is shaped like an identifier: the call selects what it returns (it is no listing). */
export function selects(args: Record<string, unknown>, schema: Record<string, unknown> | undefined): boolean {
  const props = asSchema(schema?.properties);
  const visit = (v: unknown, name: string, s: Record<string, unknown> | undefined, depth: number): boolean => {
    if (depth > 64 || v === null || v === undefined) return false;
    if (Array.isArray(v)) return v.some((x) => visit(x, name, asSchema(s?.items), depth + 1));
    if (typeof v === 'object')
      return Object.entries(v as Record<string, unknown>).some(
        ([k, x]) =>
          identifierKind(k, { name: 'id' }) !== undefined ||
          visit(x, k, asSchema(asSchema(s?.properties)?.[k]), depth + 1),
      );
    return identifierKind(v, { name, ...(s ? { schema: s } : {}) }) !== undefined;
  };
  return Object.entries(args).some(([k, v]) => visit(v, k, asSchema(props?.[k]), 0));
}

/**
 * The items of a listing's output that carry an identifier `named` holds: an object one of whose
 * own values is such an identifier (judged with its key as the parameter's name) or whose name or
 * title field (`name`, `title`, `city_name`) holds a name `named` holds, the entry of a map whose
 * key is an identifier it holds, or a line of text holding one. Everything else of the listing grounds
 * nothing. A string that parses as JSON is read as that JSON.
 */
export function listingItems(output: unknown, named: SourceText): unknown[] {
  const out: unknown[] = [];
  const isNamed = (v: unknown, name: string) =>
    (typeof v === 'string' || typeof v === 'number') &&
    (identifierKind(v, { name }) !== undefined || (typeof v === 'string' && isNameField(name) && /\p{L}/u.test(v))) &&
    named.has(v);
  const visit = (v: unknown, depth: number): void => {
    if (depth > 64 || v === null || v === undefined) return;
    if (typeof v === 'string') {
      const json = parseJsonText(v);
      if (json !== undefined) return visit(json, depth + 1);
      for (const line of v.split(/\r?\n/))
        if (line.split(/[\s,;|()[\]{}<>"']+/).some((t) => t !== '' && isNamed(t.replace(/[.:]$/, ''), 'id')))
          out.push(line);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    if (typeof v !== 'object') return;
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.some(([k, x]) => isNamed(x, k))) {
      out.push(v);
      return;
    }
    for (const [k, x] of entries) {
      if (x !== null && typeof x === 'object' && isNamed(k, 'id')) out.push({ [k]: x });
      else visit(x, depth + 1);
    }
  };
  visit(output, 0);
  return out;
}

/** A field that names its item: `name`, `title`, `city_name`, `displayName`. */
function isNameField(key: string): boolean {
  return paramWords(key).some((w) => w === 'name' || w === 'title');
}
