import type { TaskRecord } from '../records/schema.js';
import type { ToolCallContext, ToolCallOutcome, ToolRegistry, ToolStats } from '../contracts/tools.js';
import { changesState } from './effects.js';
import { createToolRegistry } from './registry.js';
import { createReplayTools } from './replay-tools.js';
import { notMadeOutcome } from './write-guard.js';

/**
 * Tools that call nothing live, for what only looks at a run (the projection of `search --dry-run`
 * and the `projected:` line before every search): a call to a live tool (a function, an MCP
 * server), read or write, is answered from the records' recorded response when one matches (the
 * canonical call key replay uses), and otherwise not made — an error observation
 * `not run: <why>`. Replay tools pass through: they answer from recorded responses and touch
 * nothing live. Every call to a live tool is counted, and so are its write calls.
 */

/** What became of the calls to live tools. */
export interface LiveCallCounts {
  /** Calls to live tools, read or write: none of them reached the tool. */
  calls: number;
  /** Of those, write or destructive ones. */
  writes: number;
  /** Answered from the records' recorded responses. */
  answeredFromRecords: number;
  /** Not made: no record answers them. */
  notMade: number;
}

/** A registry whose live tools are never called (see the module comment). */
export interface NoLiveCallsRegistry extends ToolRegistry {
  liveCalls(): LiveCallCounts;
}

/** Wraps `inner`; `why` ends the observation of a call not made (e.g. "dry run"). Closing the result does not close `inner`. */
export function withoutLiveCalls(
  inner: ToolRegistry,
  records: readonly Pick<TaskRecord, 'calls'>[],
  why: string,
): NoLiveCallsRegistry {
  const live = inner.list().filter((d) => inner.effectOf(d.name)?.live === true);
  const recorded = live.length > 0 ? createToolRegistry(createReplayTools(records, live)) : undefined;
  const counts: LiveCallCounts = { calls: 0, writes: 0, answeredFromRecords: 0, notMade: 0 };
  const call = async (name: string, args: Record<string, unknown>, ctx?: ToolCallContext): Promise<ToolCallOutcome> => {
    const effect = inner.effectOf(name);
    if (effect?.live !== true) return inner.call(name, args, ctx);
    counts.calls++;
    if (changesState(effect)) counts.writes++;
    const answer = recorded ? await recorded.call(name, args, ctx) : undefined;
    if (answer?.status === 'ok') {
      counts.answeredFromRecords++;
      return answer;
    }
    counts.notMade++;
    return notMadeOutcome(name, args, `not run: '${name}' is a live tool and no record answers this call (${why})`);
  };
  return {
    list: () => inner.list(),
    get: (name) => inner.get(name),
    effectOf: (name) => inner.effectOf(name),
    call,
    stats: (): ToolStats => inner.stats(),
    close: async () => {},
    liveCalls: () => ({ ...counts }),
  };
}
