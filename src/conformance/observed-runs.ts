import { z } from 'zod';
import type { TaskRecord } from '../records/schema.js';
import type { CountedTrace } from './align-log.js';

/**
 * One run as conformance and drift read it, whatever it came from (a case of an event log, a
 * record, a prediction, a trace of `run` or of `serve`): the tools it called in order, and how many
 * of its calls failed or were withheld. Nothing of the request or the arguments.
 */
export interface ObservedRun {
  id: string;
  /** Tool names of its calls, in order (failed and withheld calls included: each was an attempt). */
  tools: string[];
  failedCalls: number;
  withheldCalls: number;
  /** When it ran (ISO time), when known. */
  at?: string;
}

const CallShape = z.looseObject({ tool: z.string(), status: z.enum(['ok', 'error']).optional() });

/**
 * The part of a run's Trace (runtime/trace.ts) read here: π̂ (`calls`), or, in the traces a search
 * stores per record, the calls of each node's observation in order (which are π̂ flattened).
 */
const TraceShape = z.looseObject({
  calls: z.array(CallShape).optional(),
  observations: z.array(z.looseObject({ calls: z.array(CallShape).optional() })).optional(),
  withheld: z.array(z.unknown()).optional(),
});

/** A run from its trace; undefined when `trace` has neither calls nor observations. */
export function observedRunOfTrace(trace: unknown, id: string, at?: string): ObservedRun | undefined {
  const parsed = TraceShape.safeParse(trace);
  if (!parsed.success) return undefined;
  const t = parsed.data;
  const calls = t.calls ?? t.observations?.flatMap((o) => o.calls ?? []);
  if (!calls) return undefined;
  return {
    id,
    tools: calls.map((c) => c.tool),
    failedCalls: calls.filter((c) => c.status === 'error').length,
    withheldCalls: t.withheld?.length ?? 0,
    ...(at !== undefined ? { at } : {}),
  };
}

/** A run from a record: its calls (π). */
export function observedRunOfRecord(record: TaskRecord): ObservedRun {
  return {
    id: record.id,
    tools: record.calls.map((c) => c.tool),
    failedCalls: record.calls.filter((c) => c.status === 'error').length,
    withheldCalls: 0,
  };
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
