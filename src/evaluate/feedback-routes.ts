import type { Workflow } from '../graph/schema.js';
import type { TaskRecord } from '../records/schema.js';
import { alignInOrder } from '../util/in-order-alignment.js';
import type { RouteFallbackPattern } from './feedback-types.js';
import type { RecordEvaluation } from './types.js';

/**
 * Routes the router's requests would do better on (docs/DESIGN.md, "Mining": routes): a router sends
 * a request no route fits to `otherwise` (the skeleton). Over the records it sent there, each
 * route's tools are compared with the reference's tools in order (runs of one tool counted once),
 * and so are the tools the run called: each route (at most three, best first) that covers the
 * references clearly better is proposed as the router's `fallback`; the search races them on D_val
 * like any edit (the coverage of tools says nothing of the arguments, so it only ranks them).
 * Tool names only, never a value.
 */

/** Least records sent to `otherwise`, and least lead of the route's coverage over the calls made. */
const MIN_RECORDS = 3;
const MIN_LEAD = 0.05;
/** At most this many routes are proposed per router, best coverage first (the search races them). */
const MAX_OPTIONS = 3;

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** A tool sequence with each run of one tool counted once (a lookup repeated per order is one step). */
const steps = (tools: readonly string[]) => tools.filter((t, i) => i === 0 || tools[i - 1] !== t);

/** The share of `reference`'s steps `made` covers in order, over the longer of the two. */
function coverage(made: readonly string[], reference: readonly string[]): number {
  const a = steps(made);
  const b = steps(reference);
  if (a.length === 0 && b.length === 0) return 1;
  const { value } = alignInOrder(a.length, b.length, (i, j) => (a[i] === b[j] ? 1 : undefined));
  return value / Math.max(a.length, b.length);
}

/** The `route-fallback` patterns of an evaluation (see the module comment). */
export function routeFallbacks(
  workflow: Workflow,
  records: readonly TaskRecord[],
  perRecord: readonly RecordEvaluation[],
): RouteFallbackPattern[] {
  const out: RouteFallbackPattern[] = [];
  for (const judge of workflow.nodes) {
    const choices = judge.kind === 'llm' ? judge.choices : undefined;
    if (!choices || choices.part || choices.otherwise === undefined || choices.fallback !== undefined) continue;
    const sent = perRecord
      .map((r, i) => ({ r, record: records[i]! }))
      .filter(({ r }) => {
        const o = r.trace.observations.find((x) => x.nodeId === judge.id)?.output;
        return !!o && typeof o === 'object' && (o as Record<string, unknown>)[choices.field] === choices.otherwise;
      });
    if (sent.length < MIN_RECORDS) continue;
    const refs = sent.map(({ record }) => record.calls.map((c) => c.tool));
    const madeCover = sent.map(({ r }, k) =>
      coverage(
        r.trace.calls.map((c) => c.tool),
        refs[k]!,
      ),
    );
    const made = mean(madeCover);
    const ranked = choices.options
      .map((o) => ({ value: o.value, cover: refs.map((ref) => coverage(o.tools, ref)) }))
      .filter((o) => mean(o.cover) >= made + MIN_LEAD)
      .sort((a, b) => mean(b.cover) - mean(a.cover))
      .slice(0, MAX_OPTIONS);
    for (const o of ranked) {
      const better = o.cover.filter((c, k) => c > madeCover[k]!).length;
      out.push({
        kind: 'route-fallback',
        judge: judge.id,
        option: o.value,
        covered: mean(o.cover),
        made,
        evidence: better,
        text: `${judge.id} sends ${sent.length} records to '${choices.otherwise}'; the tools of '${o.value}' cover their references better (${mean(o.cover).toFixed(2)} of the steps, in order) than the calls made there (${made.toFixed(2)}), in ${better} of them`,
      });
    }
  }
  return out;
}
