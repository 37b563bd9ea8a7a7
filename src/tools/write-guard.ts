import type { Call, TaskRecord } from '../records/schema.js';
import { changesState } from './effects.js';
import { createToolRegistry } from './registry.js';
import { createReplayTools } from './replay-tools.js';
import type { ToolCallContext, ToolCallOutcome, ToolRegistry, ToolStats } from '../contracts/tools.js';

/**
 * The evaluation-time write guard: `search`, `eval`, `bench`, `baseline` and `worker` run a
 * workflow on every record many times, so a `write` or `destructive` call to a *live* tool (a
 * function or an MCP server, not replay) would make real bookings and cancellations hundreds of
 * times. Through this registry such a call is answered from the records' recorded response when one
 * matches (the same canonical call key replay uses), and otherwise refused as an error observation
 * "not run: write tool during evaluation"; nothing reaches the live tool unless the user allowed
 * live writes. Read calls and replay tools pass through untouched.
 *
 * A `flowscout worker` has no records of the run: the coordinator ships the recorded write calls
 * its own guard answers from (`recordedWrites()`) with the run's jobs, and the worker's guard of
 * each job answers from them (`recordedWrites` option, or a prebuilt `WriteAnswers` shared by the
 * jobs of a run), so a write call gets the answer it would get in one process.
 */

/** What the guard did, for the run's header, summary and store. */
export interface WriteGuardReport {
  /** True when the user passed `--allow-live-writes`: write calls went to the live tools. */
  allowLiveWrites: boolean;
  /** Live tools whose effect is write or destructive (declared, or unknown and so counted as write). */
  writeTools: string[];
  /** Write calls answered from a recorded response instead of the live tool. */
  answeredFromReplay: number;
  /** Write calls no record answered: refused, not run. */
  refused: number;
  /** Write calls sent to the live tools (only with --allow-live-writes). */
  sentLive: number;
}

/** The counters of a guard's write calls (what a worker's job returns to its coordinator). */
export type WriteCallCounts = Pick<WriteGuardReport, 'answeredFromReplay' | 'refused' | 'sentLive'>;

/** A registry that keeps write calls away from live tools while evaluating. */
export interface GuardedToolRegistry extends ToolRegistry {
  writeGuard(): WriteGuardReport;
  /**
   * The recorded calls of the live write tools this guard answers write calls from, in the order
   * that decides which one answers a key (record order, then call order; failed calls left out).
   * Given whether or not live writes are allowed, so a worker that does not allow them answers as
   * a local run without `--allow-live-writes` would.
   */
  recordedWrites(): Call[];
}

export interface WriteGuardOptions {
  /** Send write calls to live tools anyway (`--allow-live-writes`); they are still counted. */
  allowLiveWrites?: boolean;
  /** Records whose recorded calls answer write calls (the run's records). */
  records?: readonly TaskRecord[];
  /** Recorded write calls that answer write calls, as another guard's `recordedWrites()` gave them (after `records`' own). */
  recordedWrites?: readonly Call[];
  /** The answers, indexed once by `createWriteAnswers` over the same registry (instead of `records` and `recordedWrites`). */
  answers?: WriteAnswers;
}

/** Recorded write calls indexed by canonical call key, ready for any number of guards over one registry. */
export interface WriteAnswers {
  /** The recorded calls of the registry's live write tools (see `GuardedToolRegistry.recordedWrites`). */
  readonly calls: readonly Call[];
  /** Replay of `calls` (absent when there is none). */
  readonly replay: ToolRegistry | undefined;
}

/**
 * Indexes the recorded calls of `inner`'s live write tools found in `records`, then in `calls`: the
 * same replay (canonical call key, first recorded answer wins) a guard given the records uses.
 */
export function createWriteAnswers(
  inner: ToolRegistry,
  recorded: { records?: readonly Pick<TaskRecord, 'calls'>[]; calls?: readonly Call[] },
): WriteAnswers {
  const writeTools = liveWriteTools(inner);
  const names = new Set(writeTools);
  const calls: Call[] = [...(recorded.records ?? []).flatMap((r) => r.calls), ...(recorded.calls ?? [])]
    .filter((c) => names.has(c.tool) && c.status !== 'error')
    .map((c) => ({ tool: c.tool, args: c.args, ...(c.output !== undefined ? { output: c.output } : {}) }));
  const replay =
    calls.length > 0
      ? createToolRegistry(
          createReplayTools(
            [{ calls }],
            writeTools.map((n) => inner.get(n)!),
          ),
        )
      : undefined;
  return { calls, replay };
}

/** The observation of a refused write call. */
export const REFUSED_WRITE = 'not run: write tool during evaluation';

/** The outcome of a call to a live tool that was not made (no record answers it): an error saying why. */
export function notMadeOutcome(tool: string, args: Record<string, unknown>, error: string): ToolCallOutcome {
  return { tool, args, status: 'error', error, durationMs: 0, origin: 'replay' };
}

/** Wraps `inner` (closing the result closes `inner`). */
export function guardLiveWrites(inner: ToolRegistry, opts: WriteGuardOptions = {}): GuardedToolRegistry {
  const allow = opts.allowLiveWrites === true;
  const writeTools = liveWriteTools(inner);
  const answers =
    opts.answers ??
    (writeTools.length > 0
      ? createWriteAnswers(inner, {
          ...(opts.records ? { records: opts.records } : {}),
          ...(opts.recordedWrites ? { calls: opts.recordedWrites } : {}),
        })
      : { calls: [], replay: undefined });
  const recorded = allow ? undefined : answers.replay;
  const counts = { answeredFromReplay: 0, refused: 0, sentLive: 0 };
  const extra = { calls: 0, errors: 0, replayHits: 0 };
  // Reads and replayed calls (nearly every call) go straight to the inner registry's promise: no
  // async wrapper of their own, which would add a promise and its ticks to every call.
  const call = (name: string, args: Record<string, unknown>, ctx?: ToolCallContext): Promise<ToolCallOutcome> => {
    try {
      if (!isLiveWrite(inner, name)) return inner.call(name, args, ctx);
      if (allow) {
        counts.sentLive++;
        return inner.call(name, args, ctx);
      }
    } catch (e) {
      return Promise.reject(e);
    }
    return guardedCall(name, args, ctx);
  };
  const guardedCall = async (
    name: string,
    args: Record<string, unknown>,
    ctx?: ToolCallContext,
  ): Promise<ToolCallOutcome> => {
    extra.calls++;
    const replayed = recorded ? await recorded.call(name, args, ctx) : undefined;
    if (replayed && replayed.status === 'ok' && replayed.origin === 'replay') {
      counts.answeredFromReplay++;
      extra.replayHits++;
      return replayed;
    }
    counts.refused++;
    extra.errors++;
    const effect = inner.effectOf(name)!;
    return notMadeOutcome(
      name,
      args,
      `${REFUSED_WRITE}: '${name}' is a live ${effect.effect} tool (${effect.from}) and no record answers this call; pass --allow-live-writes to send write calls to live tools`,
    );
  };
  return {
    list: () => inner.list(),
    get: (name) => inner.get(name),
    effectOf: (name) => inner.effectOf(name),
    call,
    stats: (): ToolStats => {
      const s = inner.stats();
      return {
        ...s,
        calls: s.calls + extra.calls,
        errors: s.errors + extra.errors,
        replayHits: s.replayHits + extra.replayHits,
      };
    },
    close: () => inner.close(),
    writeGuard: () => ({ allowLiveWrites: allow, writeTools: [...writeTools], ...counts }),
    recordedWrites: () => answers.calls.map((c) => ({ ...c })),
  };
}

function liveWriteTools(registry: ToolRegistry): string[] {
  return registry
    .list()
    .map((d) => d.name)
    .filter((name) => isLiveWrite(registry, name));
}

/** `report` (a guard's report, or counts being summed) with the write calls made elsewhere (a distributed run's workers) added to its counters. */
export function addWriteCalls<T extends WriteCallCounts>(report: T, more: WriteCallCounts | undefined): T {
  if (!more) return report;
  return {
    ...report,
    answeredFromReplay: report.answeredFromReplay + more.answeredFromReplay,
    refused: report.refused + more.refused,
    sentLive: report.sentLive + more.sentLive,
  };
}

function isLiveWrite(registry: ToolRegistry, name: string): boolean {
  const e = registry.effectOf(name);
  return e !== undefined && e.live && changesState(e);
}

/** True for a registry made by `guardLiveWrites`. */
export function isGuarded(registry: ToolRegistry): registry is GuardedToolRegistry {
  return typeof (registry as Partial<GuardedToolRegistry>).writeGuard === 'function';
}

/**
 * One line for a run's header: what happens to write calls to live tools. With `workers` (a run on
 * `flowscout worker`s) it says what the workers do: the run's decision travels with its jobs and a
 * worker's own `--allow-live-writes` is only a ceiling, so without the run's flag no worker sends
 * one, and with it only the workers started with the flag do.
 */
export function writeGuardHeader(report: WriteGuardReport, where: { workers?: boolean } = {}): string | undefined {
  if (report.writeTools.length === 0) return undefined;
  const n = report.writeTools.length;
  const tools = `${n} live write tool${n === 1 ? '' : 's'} (${report.writeTools.slice(0, 6).join(', ')}${n > 6 ? ', …' : ''})`;
  if (where.workers) {
    return report.allowLiveWrites
      ? `Live writes: ALLOWED (--allow-live-writes): write calls to ${tools} are sent to the live tools by the workers started with --allow-live-writes; the other workers answer them from replay or refuse them`
      : `Live writes: off: write calls to ${tools} are answered from replay or refused on every worker, those started with --allow-live-writes included (--allow-live-writes here lets those send them)`;
  }
  return report.allowLiveWrites
    ? `Live writes: ALLOWED (--allow-live-writes): write calls to ${tools} are sent to the live tools`
    : `Live writes: off: write calls to ${tools} are answered from replay or refused (--allow-live-writes sends them)`;
}

/** One line for a run's summary: how many write calls were answered from replay, refused or sent. */
export function writeGuardSummary(report: WriteGuardReport): string | undefined {
  if (report.writeTools.length === 0) return undefined;
  const guarded = report.answeredFromReplay + report.refused;
  // With --allow-live-writes on workers, those started without it still answer from replay or refuse.
  return report.allowLiveWrites
    ? `Write calls: ${report.sentLive} sent to live tools (--allow-live-writes)${guarded > 0 ? `, ${report.answeredFromReplay} answered from replay and ${report.refused} refused by workers without --allow-live-writes` : ''}`
    : `Write calls: ${report.answeredFromReplay} answered from replay, ${report.refused} refused (not run), ${report.sentLive} sent to live tools${report.sentLive > 0 ? ' (by workers of an older FlowScout started with --allow-live-writes, which ignore the run: update them)' : ''}`;
}
