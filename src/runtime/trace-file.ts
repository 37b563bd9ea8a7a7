import type { Trace } from './trace.js';

/**
 * A trace as written to a file (`flowscout run --trace`, `--json`). In memory a tool call's output
 * is one object seen from three places: π̂ (`calls[i].output`), the node's observation
 * (`observations[j].calls[k].output`) and the tool node's output (`observations[j].output[k].output`).
 * Written as plain JSON it would be copied three times (a 10 MB tool result became a 31 MB trace).
 * Here π̂ keeps every output in full, and an observation's copy of an output larger than
 * `INLINE_LIMIT` characters is replaced by `{"sameAs": "calls[i].output"}`; small outputs stay
 * inline, so a trace stays readable on its own. `serve` answers and stores a trace in the same
 * form (`traceWithOutputsOnce`). Each output is bounded by the run already (output-bound.ts).
 */

/** Outputs up to this many characters (as JSON) are repeated inline. */
export const INLINE_LIMIT = 1024;

/** The JSON text of `trace` with large outputs written once (see the module comment). */
export function traceToJson(trace: Trace, extra: Record<string, unknown> = {}, indent = 2): string {
  return JSON.stringify({ ...traceWithOutputsOnce(trace), ...extra }, null, indent);
}

/** `trace` with its observations' copies of large outputs replaced by `{"sameAs": "calls[i].output"}` (see the module comment). */
export function traceWithOutputsOnce(trace: Trace): Trace {
  const where = new Map<unknown, string>();
  trace.calls.forEach((c, i) => {
    if (c.output !== null && typeof c.output === 'object' && !where.has(c.output))
      where.set(c.output, `calls[${i}].output`);
    if (typeof c.output === 'string' && c.output.length > INLINE_LIMIT && !where.has(c.output))
      where.set(c.output, `calls[${i}].output`);
  });
  const large = new Map<unknown, boolean>();
  const isLarge = (v: unknown): boolean => {
    if (!large.has(v))
      large.set(v, (typeof v === 'string' ? v.length : (JSON.stringify(v) ?? '').length) > INLINE_LIMIT);
    return large.get(v)!;
  };
  const ref = (v: unknown): unknown => {
    const at = where.get(v);
    return at && isLarge(v) ? { sameAs: at } : v;
  };
  const observations = trace.observations.map((o) => {
    if (o.kind !== 'tool') return o;
    const out = { ...o } as typeof o & { output?: unknown };
    if (Array.isArray(o.output))
      out.output = o.output.map((c: unknown) =>
        c && typeof c === 'object' && 'output' in c ? { ...c, output: ref((c as { output: unknown }).output) } : c,
      );
    if (o.calls) out.calls = o.calls.map((c) => (c.output !== undefined ? { ...c, output: ref(c.output) } : c));
    return out;
  });
  return { ...trace, observations };
}
