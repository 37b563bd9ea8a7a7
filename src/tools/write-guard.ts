import type { TaskRecord } from '../records/schema.js';
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

/** A registry that keeps write calls away from live tools while evaluating. */
export interface GuardedToolRegistry extends ToolRegistry {
  writeGuard(): WriteGuardReport;
}

export interface WriteGuardOptions {
  /** Send write calls to live tools anyway (`--allow-live-writes`); they are still counted. */
  allowLiveWrites?: boolean;
  /** Records whose recorded calls answer write calls (the run's records). */
  records?: readonly TaskRecord[];
}

/** The observation of a refused write call. */
export const REFUSED_WRITE = 'not run: write tool during evaluation';

/** Wraps `inner` (closing the result closes `inner`). */
export function guardLiveWrites(inner: ToolRegistry, opts: WriteGuardOptions = {}): GuardedToolRegistry {
  const allow = opts.allowLiveWrites === true;
  const writeTools = inner
    .list()
    .map((d) => d.name)
    .filter((name) => isLiveWrite(inner, name));
  const recorded =
    writeTools.length > 0 && !allow && opts.records && opts.records.length > 0
      ? createToolRegistry(
          createReplayTools(
            opts.records,
            writeTools.map((n) => inner.get(n)!),
          ),
        )
      : undefined;
  const counts = { answeredFromReplay: 0, refused: 0, sentLive: 0 };
  const extra = { calls: 0, errors: 0, replayHits: 0 };
  const call = async (name: string, args: Record<string, unknown>, ctx?: ToolCallContext): Promise<ToolCallOutcome> => {
    if (!isLiveWrite(inner, name)) return inner.call(name, args, ctx);
    if (allow) {
      counts.sentLive++;
      return inner.call(name, args, ctx);
    }
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
    return {
      tool: name,
      args,
      status: 'error',
      error: `${REFUSED_WRITE}: '${name}' is a live ${effect.effect} tool (${effect.from}) and no record answers this call; pass --allow-live-writes to send write calls to live tools`,
      durationMs: 0,
      origin: 'replay',
    };
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

/** One line for a run's header: what happens to write calls to live tools. */
export function writeGuardHeader(report: WriteGuardReport): string | undefined {
  if (report.writeTools.length === 0) return undefined;
  const n = report.writeTools.length;
  const tools = `${n} live write tool${n === 1 ? '' : 's'} (${report.writeTools.slice(0, 6).join(', ')}${n > 6 ? ', …' : ''})`;
  return report.allowLiveWrites
    ? `Live writes: ALLOWED (--allow-live-writes): write calls to ${tools} are sent to the live tools`
    : `Live writes: off: write calls to ${tools} are answered from replay or refused (--allow-live-writes sends them)`;
}

/** One line for a run's summary: how many write calls were answered from replay, refused or sent. */
export function writeGuardSummary(report: WriteGuardReport): string | undefined {
  if (report.writeTools.length === 0) return undefined;
  return report.allowLiveWrites
    ? `Write calls: ${report.sentLive} sent to live tools (--allow-live-writes)`
    : `Write calls: ${report.answeredFromReplay} answered from replay, ${report.refused} refused (not run), 0 sent to live tools`;
}
