import type { CueModel, ParamStats, ToolStats } from './cue-model.js';
import { FILL_WEIGHTS } from './fill-weights.js';
import { fits, typed, type PropSchema } from './param-schema.js';

/**
 * Which records a parameter is filled from, and its usual value there (fill-args.ts reads them):
 * the tool's own statistics or, for a tool the records never called, those of every tool's parameter
 * of that name; the most frequent recorded value, or the schema default where other tools' values
 * show it is what such parameters take.
 */

const W = FILL_WEIGHTS;

/** The most frequent learned value and its share. */
function dominant(ps: ParamStats): { value: unknown; share: number } | undefined {
  const best = [...ps.values].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  return best ? { value: ps.raw.get(best[0]), share: best[1] / ps.set } : undefined;
}

/**
 * The statistics a parameter is filled with: the tool's own when the records called the tool, else
 * those of every tool's parameter of that name (`shared`: a held-out API chain still passes
 * `function`, `interval`, `units`). Shared statistics decide only whether an optional parameter is
 * set (presence.ts) and whether the tool's schema default is the usual value; scoring found values
 * by other tools' shapes, cues and sources was measured worse (by-group split, Weather).
 */
export interface Stats {
  ps: ParamStats;
  shared: boolean;
}

export function statsFor(name: string, ts: ToolStats | undefined, model: CueModel): Stats | undefined {
  const own = ts && ts.uses > 0 ? ts.params.get(name) : undefined;
  if (own) return { ps: own, shared: false };
  const shared = model.params.get(name);
  return shared && shared.calls > 0 ? { ps: shared, shared: true } : undefined;
}

/**
 * The usual value: the most frequent learned one; under shared statistics (other tools' values), the
 * tool's own schema default when parameters of this name took their default at least as often as
 * their most frequent value, else that value.
 */
export function usual(
  stats: Stats | undefined,
  prop: PropSchema | undefined,
): { value: unknown; share: number } | undefined {
  if (!stats) return undefined;
  const mostFrequent = dominant(stats.ps);
  if (!stats.shared) return mostFrequent;
  const ps = stats.ps;
  const hasDefault = prop?.default !== undefined && prop.default !== '';
  if (ps.set === 0) return undefined;
  if (hasDefault && ps.asDefault / ps.set >= (mostFrequent?.share ?? 0))
    return { value: typed(String(prop!.default), prop, ps), share: ps.asDefault / ps.set };
  return mostFrequent && fits(String(mostFrequent.value), prop) ? mostFrequent : undefined;
}

/**
 * The usual value of an optional parameter: its most frequent recorded value (the tool's own, else
 * every tool's parameter of that name, `usual`), when it is at least `optionalUsual.minShare` of the values set.
 */
export function usualOfOptional(
  name: string,
  ts: ToolStats | undefined,
  model: CueModel,
  prop: PropSchema | undefined,
): unknown {
  const own = statsFor(name, ts, model);
  let found = own && own.ps.values.size > 0 ? usual(own, prop) : undefined;
  const shared = model.params.get(name);
  if (!found && shared && shared.set > 0) found = usual({ ps: shared, shared: true }, prop);
  return found && found.share >= W.optionalUsual.minShare ? found.value : undefined;
}
