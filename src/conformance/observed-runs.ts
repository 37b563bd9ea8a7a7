import { z } from 'zod';
import { stableStringify } from '../contracts/canonical-args.js';
import { isErrorOutput } from '../records/import/dialogue.js';
import { recordOutcome, type RunOutcome } from '../records/import/outcome.js';
import type { TaskRecord } from '../records/schema.js';
import type { CountedTrace } from './align-log.js';

/**
 * One run as conformance and drift read it, whatever it came from (a case of an event log, a
 * record, a prediction, a trace of `run` or of `serve`): the tools it called in order, and the
 * evidence the run itself carries of how it went — calls that failed, answers that were errors,
 * calls withheld, calls it repeated, and its outcome when the log states one. Nothing of the
 * request or the arguments is kept.
 *
 * Every call the run attempted counts: a record whose import left failed calls out of its
 * reference log (`--where` on a successful run) keeps them in its turns, and they are read from
 * there. A run that made no call is an empty sequence, aligned as such.
 */
export interface ObservedRun {
  id: string;
  /** Tool names of its calls, in order (failed and withheld calls included: each was an attempt). */
  tools: string[];
  /** Calls that failed: an error status, or an answer that was an error by its text (withheld calls not counted). */
  failedCalls: number;
  /** Of the calls, answers that were errors by their text ("Error: …", {"error": …}; records/import/dialogue.ts). */
  errorAnswers: number;
  /** Calls the run did not make: an ungrounded argument, or awaiting approval (runtime/grounding.ts). */
  withheldCalls: number;
  /** Calls with the same tool and arguments as an earlier call of the run. */
  repeatedCalls: number;
  /** What the log says of the run's outcome (a `reward`, a status: records/import/outcome.ts), when it says. */
  outcome?: RunOutcome;
  /** When it ran (ISO time), when known. */
  at?: string;
}

/** One call as a run's evidence is read from it. */
export interface ObservedCall {
  tool: string;
  args?: unknown;
  status?: 'ok' | 'error';
  output?: unknown;
}

/** A run from its calls in order; `withheld` of them were withheld (and carry an error status). */
export function observedRun(
  id: string,
  calls: readonly ObservedCall[],
  extra: { withheld?: number; outcome?: RunOutcome; at?: string } = {},
): ObservedRun {
  const seen = new Set<string>();
  let failed = 0;
  let errorAnswers = 0;
  let repeated = 0;
  for (const c of calls) {
    const errorAnswer = c.output !== undefined && isErrorOutput(c.output);
    if (errorAnswer) errorAnswers++;
    if (c.status === 'error' || errorAnswer) failed++;
    const key = `${c.tool}\u0000${stableStringify(c.args ?? {})}`;
    if (seen.has(key)) repeated++;
    else seen.add(key);
  }
  const withheld = extra.withheld ?? 0;
  return {
    id,
    tools: calls.map((c) => c.tool),
    failedCalls: Math.max(0, failed - withheld),
    errorAnswers,
    withheldCalls: withheld,
    repeatedCalls: repeated,
    ...(extra.outcome ? { outcome: extra.outcome } : {}),
    ...(extra.at !== undefined ? { at: extra.at } : {}),
  };
}

/** A run known only by its activities (an event log's case): no evidence beyond the order. */
export function observedRunOfTools(id: string, tools: readonly string[]): ObservedRun {
  return { id, tools: [...tools], failedCalls: 0, errorAnswers: 0, withheldCalls: 0, repeatedCalls: 0 };
}

const CallShape = z.looseObject({
  tool: z.string(),
  args: z.unknown().optional(),
  status: z.enum(['ok', 'error']).optional(),
  output: z.unknown().optional(),
});

/**
 * The part of a run's Trace (runtime/trace.ts) read here: π̂ (`calls`), or, in the traces a search
 * stores per record, the calls of each node's observation in order (which are π̂ flattened).
 */
const TraceShape = z.looseObject({
  calls: z.array(CallShape).optional(),
  observations: z.array(z.looseObject({ calls: z.array(CallShape).optional() })).optional(),
  withheld: z.array(z.unknown()).optional(),
});

/**
 * A run from its trace; undefined when `trace` has neither calls nor observations (it is no trace).
 * A trace whose `calls` is empty is a run that made no call.
 */
export function observedRunOfTrace(trace: unknown, id: string, at?: string): ObservedRun | undefined {
  const parsed = TraceShape.safeParse(trace);
  if (!parsed.success) return undefined;
  const t = parsed.data;
  const calls = t.calls ?? t.observations?.flatMap((o) => o.calls ?? []);
  if (!calls) return undefined;
  return observedRun(id, calls, { withheld: t.withheld?.length ?? 0, ...(at !== undefined ? { at } : {}) });
}

/**
 * A run from a record: every call it attempted. A record whose turns hold tool results (a
 * multi-turn dialogue, or a run whose failed calls import left out of its reference log) is read
 * from its turns, which hold every call; otherwise from its calls (π). Its outcome is the one
 * import kept in `meta.outcome`.
 */
export function observedRunOfRecord(record: TaskRecord): ObservedRun {
  const outcome = recordOutcome(record.meta);
  return observedRun(record.id, recordCalls(record), outcome ? { outcome } : {});
}

/** Every call a record's run attempted, in order: from its turns when they hold tool results, else its calls (π). */
export function recordCalls(record: TaskRecord): ObservedCall[] {
  return callsOfTurns(record) ?? record.calls;
}

/** The calls of a record's turns in order (each tool result with the arguments its assistant turn gave), or undefined when its turns hold none. */
function callsOfTurns(record: TaskRecord): ObservedCall[] | undefined {
  const turns = record.turns;
  if (!turns?.some((t) => t.role === 'tool')) return undefined;
  const asked: { tool: string; args: unknown }[] = [];
  const out: ObservedCall[] = [];
  for (const t of turns) {
    if (t.role === 'assistant') asked.push(...(t.calls ?? []));
    else if (t.role === 'tool' && t.tool !== undefined) {
      const i = asked.findIndex((c) => c.tool === t.tool);
      const args = i >= 0 ? asked.splice(i, 1)[0]!.args : undefined;
      out.push({
        tool: t.tool,
        ...(args !== undefined ? { args } : {}),
        ...(t.status ? { status: t.status } : {}),
        ...(t.output !== undefined ? { output: t.output } : {}),
      });
    }
  }
  // A call an assistant turn asked for that no tool turn answered was still an attempt.
  for (const c of asked) out.push({ tool: c.tool, args: c.args });
  return out;
}

/** The runs' distinct tool sequences with their counts, in first-seen order. */
export function variantsOfRuns(runs: readonly ObservedRun[]): CountedTrace[] {
  const byKey = new Map<string, CountedTrace>();
  for (const r of runs) {
    const key = JSON.stringify(r.tools);
    const v = byKey.get(key);
    if (v) v.count++;
    else byKey.set(key, { activities: r.tools, count: 1 });
  }
  return [...byKey.values()];
}
