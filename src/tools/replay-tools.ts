import { canonicalArgs, canonicalCallKey, stableStringify } from '../contracts/canonical-args.js';
import type { TaskRecord } from '../records/schema.js';
import { toolResult } from './tool-result.js';
import type { ToolDescriptor, ToolSpec } from '../contracts/tools.js';

/**
 * The *replay* tool source (docs/DESIGN.md, "Data formats" §5, StableToolBench's approach): tools answer from the
 * responses recorded in records. The cache key is `canonicalCallKey(tool, args, inputSchema)`, the
 * same canonical form TC compares calls in, so a call TC counts as correct is a hit.
 *
 * - A hit returns the recorded `output` verbatim (`origin: 'replay'`).
 * - When several recorded calls share a key with different outputs, the **first** one in record
 *   order (then call order) answers; the others are ignored. This keeps replay deterministic.
 * - A miss returns an error outcome `no recorded response for <tool> with <canonical args>`, or, with
 *   `onMiss: 'simulate'` and a `simulate` function (an LLM simulator), the simulated response tagged
 *   `origin: 'simulated'`.
 * - Only calls with `status !== 'error'` are replayable unless `includeErrors` is set (a recorded
 *   failure is not a response worth replaying).
 * - A recorded call is admitted even if its arguments fail the tool's input schema (`vouchesFor`):
 *   the live API accepted it; a new call must still pass the schema.
 */

/** One recorded example of a tool, given to a simulator as few-shot material. */
export interface ReplayExample {
  args: Record<string, unknown>;
  output: unknown;
}

/** Produces a plausible response for a call no record answers (e.g. an LLM simulator). */
export type SimulateFn = (
  tool: ToolDescriptor,
  args: Record<string, unknown>,
  examples: ReplayExample[],
  signal?: AbortSignal,
) => Promise<unknown>;

/** How misses are answered and which recorded calls count. */
export interface ReplayOptions {
  onMiss?: 'error' | 'simulate';
  simulate?: SimulateFn;
  /** Replay recorded calls whose status is 'error' too (default false). */
  includeErrors?: boolean;
  /** At most this many examples per tool go to the simulator (default 5). */
  maxExamples?: number;
}

/** What the cache holds, for reporting (`flowscout run` prints it). */
export interface ReplayIndexStats {
  keys: number;
  /** Keys recorded with more than one distinct output (the first one answers). */
  conflictingKeys: number;
  /** Recorded calls whose tool is not among the descriptors (never replayable). */
  unknownToolCalls: number;
}

/** The replay tools (an array, so it goes straight into `createToolRegistry`) and what their cache holds. */
export type ReplayTools = ToolSpec[] & { index: ReplayIndexStats };

/** Builds one replay tool per descriptor, answering from the recorded calls of `records`. */
export function createReplayTools(
  records: readonly Pick<TaskRecord, 'calls'>[],
  descriptors: readonly ToolDescriptor[],
  opts: ReplayOptions = {},
): ReplayTools {
  const byName = new Map(descriptors.map((d) => [d.name, d]));
  const cache = new Map<string, unknown>();
  const outputsSeen = new Map<string, Set<string>>();
  const examples = new Map<string, ReplayExample[]>();
  const maxExamples = opts.maxExamples ?? 5;
  let unknownToolCalls = 0;
  for (const record of records) {
    for (const call of record.calls) {
      if (call.status === 'error' && !opts.includeErrors) continue;
      const d = byName.get(call.tool);
      if (!d) {
        unknownToolCalls++;
        continue;
      }
      const key = canonicalCallKey(call.tool, call.args, d.inputSchema);
      const outText = stableStringify(call.output);
      if (!cache.has(key)) {
        cache.set(key, call.output);
        outputsSeen.set(key, new Set([outText]));
        const list = examples.get(call.tool) ?? [];
        if (list.length < maxExamples) list.push({ args: call.args, output: call.output });
        examples.set(call.tool, list);
      } else {
        outputsSeen.get(key)!.add(outText);
      }
    }
  }
  const simulate = opts.onMiss === 'simulate' ? opts.simulate : undefined;
  const tools: ToolSpec[] = descriptors.map((d) => ({
    name: d.name,
    description: d.description,
    inputSchema: d.inputSchema,
    replay: true,
    // A recorded successful call was accepted by the live API, whatever the imported schema says.
    vouchesFor: (args) => cache.has(canonicalCallKey(d.name, args, d.inputSchema)),
    execute: async (args, ctx) => {
      const key = canonicalCallKey(d.name, args, d.inputSchema);
      if (cache.has(key)) return toolResult({ status: 'ok', output: cache.get(key), origin: 'replay', cache: 'hit' });
      const missMessage = `no recorded response for ${d.name} with ${stableStringify(canonicalArgs(args, d.inputSchema))}`;
      if (!simulate) return toolResult({ status: 'error', error: missMessage, origin: 'replay', cache: 'miss' });
      try {
        const output = await simulate(d, args, examples.get(d.name) ?? [], ctx.signal);
        return toolResult({ status: 'ok', output, origin: 'simulated', cache: 'miss' });
      } catch (e) {
        return toolResult({
          status: 'error',
          error: `${missMessage}; simulation failed: ${e instanceof Error ? e.message : String(e)}`,
          origin: 'replay',
          cache: 'miss',
        });
      }
    },
  }));
  const conflictingKeys = [...outputsSeen.values()].filter((s) => s.size > 1).length;
  return Object.assign(tools, { index: { keys: cache.size, conflictingKeys, unknownToolCalls } });
}
