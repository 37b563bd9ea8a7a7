import { canonicalArgs, stableStringify, type ParamSchema } from '../contracts/canonical-args.js';
import { valueSource, type ValueSource } from './locate.js';

/** A call as it is compared: tool and arguments. */
interface CallKey {
  tool: string;
  args: Record<string, unknown>;
}

/** The pairs of TC's alignment (metrics/tool-call-lcs.ts `TcResult`) that say which reference call a made call answers. */
export interface AlignedPairs {
  matched: ReadonlyArray<readonly [number, number]>;
  wrongArgs: ReadonlyArray<{ reference: number; predicted: number }>;
  reordered: ReadonlyArray<{ reference: number; predicted: number }>;
}

/**
 * Where calls go wrong, per argument source: every reference argument is classed by where its value
 * stands (written in the request, found in an earlier reference call's output, or neither:
 * dataflow/locate.ts), and counted as called when the run made a call of that reference call's tool
 * at its place in the alignment of TC (a matched, reordered or wrong-argument pair), and right when
 * that call passed the same value (canonical form, as TC compares). A user reads it as: of the values
 * my requests state, how many did the workflow pass; of the values an earlier result gave, how many.
 */

export interface SourceCounts {
  /** Reference arguments with a value of this source. */
  args: number;
  /** Of those, the ones whose call's tool the run called at that place. */
  called: number;
  /** Of those, the ones the run passed right. */
  right: number;
}

export type ArgumentSources = Record<ValueSource, SourceCounts>;

export const VALUE_SOURCES: readonly ValueSource[] = ['request', 'upstream', 'neither'];

export function emptySources(): ArgumentSources {
  return {
    request: { args: 0, called: 0, right: 0 },
    upstream: { args: 0, called: 0, right: 0 },
    neither: { args: 0, called: 0, right: 0 },
  };
}

/** The sum of several counts (a record set's). */
export function addSources(into: ArgumentSources, more: ArgumentSources): ArgumentSources {
  for (const s of VALUE_SOURCES) {
    into[s].args += more[s].args;
    into[s].called += more[s].called;
    into[s].right += more[s].right;
  }
  return into;
}

const canon = (v: unknown, schema: ParamSchema | undefined) =>
  stableStringify(canonicalArgs({ v }, { type: 'object', properties: { v: schema ?? {} } }).v);

/** A record as it is scored: its request and reference calls (with their recorded outputs). */
interface ReferenceRecord {
  query: string;
  calls: ReadonlyArray<CallKey & { output?: unknown }>;
}

/** The tools' input schemas by tool name, as TC reads them. */
type Schemas = Readonly<Record<string, ParamSchema | undefined>>;

/**
 * Every reference argument of a record with where its value stands and what the run did with it
 * (see the module comment): the one walk both the per-source and the per-parameter counts read.
 */
function eachArgument(
  record: ReferenceRecord,
  predicted: readonly CallKey[],
  detail: AlignedPairs,
  schemas: Schemas,
  visit: (tool: string, param: string, source: ValueSource, called: boolean, right: boolean) => void,
): void {
  const paired = new Map<number, number>();
  for (const [i, j] of detail.matched) paired.set(i, j);
  for (const r of detail.reordered) paired.set(r.reference, r.predicted);
  for (const w of detail.wrongArgs) paired.set(w.reference, w.predicted);
  record.calls.forEach((call, i) => {
    const j = paired.get(i);
    const made = j === undefined ? undefined : predicted[j];
    const props = (schemas[call.tool] as { properties?: Record<string, ParamSchema> } | undefined)?.properties;
    for (const [param, value] of Object.entries(call.args)) {
      if (value === null || value === undefined || value === '') continue;
      const source = valueSource(value, record.query, record.calls.slice(0, i));
      const right = made !== undefined && canon(made.args[param], props?.[param]) === canon(value, props?.[param]);
      visit(call.tool, param, source, made !== undefined, right);
    }
  });
}

const count = (c: SourceCounts, called: boolean, right: boolean) => {
  c.args++;
  if (called) c.called++;
  if (right) c.right++;
};

/** One record's counts (see the module comment). `schemas`: the tools' input schemas, as TC reads them. */
export function argumentSources(
  record: ReferenceRecord,
  predicted: readonly CallKey[],
  detail: AlignedPairs,
  schemas: Schemas = {},
): ArgumentSources {
  const out = emptySources();
  eachArgument(record, predicted, detail, schemas, (_t, _p, source, called, right) =>
    count(out[source], called, right),
  );
  return out;
}

/** The counts of one parameter's reference arguments of one source. */
export interface ParameterCounts extends SourceCounts {
  tool: string;
  param: string;
  source: ValueSource;
}

/**
 * The same counts per parameter and source, added into `into` (keyed by tool, parameter and source),
 * so that a user sees which parameters lose their values: `mostLost` ranks them.
 */
export function addParameterCounts(
  into: Map<string, ParameterCounts>,
  record: ReferenceRecord,
  predicted: readonly CallKey[],
  detail: AlignedPairs,
  schemas: Schemas = {},
): Map<string, ParameterCounts> {
  eachArgument(record, predicted, detail, schemas, (tool, param, source, called, right) =>
    count(countsOf(into, { tool, param, source }), called, right),
  );
  return into;
}

/** Adds counts made before (each seed's `parameterSources`) into `into`, by parameter and source. */
export function addParameterRows(
  into: Map<string, ParameterCounts>,
  rows: readonly ParameterCounts[],
): Map<string, ParameterCounts> {
  for (const x of rows) {
    const c = countsOf(into, x);
    c.args += x.args;
    c.called += x.called;
    c.right += x.right;
  }
  return into;
}

/** The entry of `into` for a parameter and source, made empty when it has none. */
function countsOf(into: Map<string, ParameterCounts>, at: Pick<ParameterCounts, 'tool' | 'param' | 'source'>) {
  const key = `${at.tool}\u0000${at.param}\u0000${at.source}`;
  let c = into.get(key);
  if (!c) into.set(key, (c = { tool: at.tool, param: at.param, source: at.source, args: 0, called: 0, right: 0 }));
  return c;
}

/** Every parameter's counts, those with the most reference arguments not passed right first (ties by name). */
export function mostLost(counts: Iterable<ParameterCounts>): ParameterCounts[] {
  const lost = (c: ParameterCounts) => c.args - c.right;
  return [...counts].sort(
    (a, b) =>
      lost(b) - lost(a) ||
      `${a.tool}.${a.param}`.localeCompare(`${b.tool}.${b.param}`) ||
      a.source.localeCompare(b.source),
  );
}

/**
 * One line for people: the first `n` parameters of `mostLost` that lost any argument, as
 * `tool.param (from the request: 3 of 20 right, 15 called)`; empty when none lost one.
 */
export function formatMostLost(rows: readonly ParameterCounts[], n = 3): string {
  const from = { request: 'from the request', upstream: 'from an earlier result', neither: 'from neither' } as const;
  return rows
    .filter((c) => c.args > c.right)
    .slice(0, n)
    .map((c) => `${c.tool}.${c.param} (${from[c.source]}: ${c.right} of ${c.args} right, ${c.called} called)`)
    .join('; ');
}

/** `right / args` per source, as shares (undefined where there were no arguments). */
export function sourceShares(s: ArgumentSources): Record<ValueSource, number | undefined> {
  return {
    request: s.request.args ? s.request.right / s.request.args : undefined,
    upstream: s.upstream.args ? s.upstream.right / s.upstream.args : undefined,
    neither: s.neither.args ? s.neither.right / s.neither.args : undefined,
  };
}

/** One line for people: `from the request 678 (called 79 %, right 53 %); from an earlier result 13 (…); neither 212 (…)`. */
export function formatSources(s: ArgumentSources): string {
  const pct = (n: number, of: number) => `${Math.round((100 * n) / of)} %`;
  const part = (name: string, c: SourceCounts) =>
    c.args === 0 ? `${name} 0` : `${name} ${c.args} (called ${pct(c.called, c.args)}, right ${pct(c.right, c.args)})`;
  return [
    part('from the request', s.request),
    part('from an earlier result', s.upstream),
    part('neither', s.neither),
  ].join('; ');
}
