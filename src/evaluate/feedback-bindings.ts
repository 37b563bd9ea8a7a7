import { canonicalArgs, stableStringify, type ParamSchema } from '../contracts/canonical-args.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { learnBindings, type LearnedBinding } from '../dataflow/learn-bindings.js';
import { describeBinding } from '../dataflow/render.js';
import { bindingsFor } from '../graph/hints.js';
import type { Workflow } from '../graph/schema.js';
import type { TaskRecord } from '../records/schema.js';
import type { CallAlignment } from './align-calls.js';
import { toolPlacer } from './feedback-hints.js';
import type { BindablePattern } from './feedback-types.js';
import type { RecordEvaluation } from './types.js';

/**
 * Binding evidence of the feedback (docs/DESIGN.md, "Arguments by example": bindings from feedback): the programs
 * dataflow/learn-bindings.ts finds in the evaluated records' reference calls and the results recorded
 * before them, each written on the node that calls its tool (as hints are: feedback-hints.ts
 * `toolPlacer`), where every node that picks the tool reads it (graph/hints.ts `bindingsFor`). Only
 * programs the workflow does not read yet are proposed; the search keeps them if D_val rises.
 */

// Programs depend only on the records and the tools, not on the candidate: learned once per records list.
const learned = new WeakMap<readonly TaskRecord[], { tools: readonly ToolDescriptor[]; programs: LearnedBinding[] }>();

function programsOf(records: readonly TaskRecord[], tools: readonly ToolDescriptor[]): LearnedBinding[] {
  const hit = learned.get(records);
  if (hit && hit.tools === tools) return hit.programs;
  const programs = learnBindings(records, tools);
  learned.set(records, { tools, programs });
  return programs;
}

/** Per (tool, parameter), the reference calls whose value the workflow's paired call passed right. */
function rightNow(
  xs: ReadonlyArray<{ r: RecordEvaluation; record: TaskRecord; a: CallAlignment }>,
  tools: readonly ToolDescriptor[],
): Map<string, number> {
  const schemas = new Map(tools.map((t) => [t.name, t.inputSchema as ParamSchema | undefined]));
  const out = new Map<string, number>();
  const bump = (k: string) => out.set(k, (out.get(k) ?? 0) + 1);
  for (const { r, record, a } of xs) {
    for (const [ref] of a.matchedNodes) {
      const call = record.calls[ref]!;
      for (const [param, v] of Object.entries(call.args))
        if (v !== undefined && v !== null) bump(`${call.tool}\u0000${param}`);
    }
    for (const w of a.wrongArgs) {
      const call = record.calls[w.refIndex]!;
      const got = canonicalArgs(r.trace.calls[w.predIndex]?.args ?? {}, schemas.get(call.tool));
      const want = canonicalArgs(call.args, schemas.get(call.tool));
      for (const param of Object.keys(want))
        if (stableStringify(got[param]) === stableStringify(want[param])) bump(`${call.tool}\u0000${param}`);
    }
  }
  return out;
}

/** Binding evidence over the evaluation (see the module comment). */
export function bindablePatterns(
  workflow: Workflow,
  xs: ReadonlyArray<{ r: RecordEvaluation; record: TaskRecord; a: CallAlignment }>,
  records: readonly TaskRecord[],
  tools: readonly ToolDescriptor[],
): BindablePattern[] {
  if (xs.length === 0 || tools.length === 0 || !workflow.nodes.some((n) => n.kind === 'tool')) return [];
  const place = toolPlacer(workflow, xs);
  const current = rightNow(xs, tools);
  const out: BindablePattern[] = [];
  for (const p of programsOf(records, tools)) {
    // A parameter the workflow already passes right as often as the program would needs no binding.
    const now0 = current.get(`${p.tool}\u0000${p.param}`) ?? 0;
    if (now0 >= p.hits - p.wrong) continue;
    const node = place(p.tool);
    const now = bindingsFor(workflow, node, p.tool).find((b) => b.param === p.param);
    if (now && stableStringify(now.source) === stableStringify(p.source)) continue;
    const b = { tool: p.tool, param: p.param, source: p.source };
    out.push({
      kind: 'bindable',
      node: node.id,
      tool: p.tool,
      param: p.param,
      source: p.source,
      calls: p.calls,
      reproduced: p.hits,
      current: now0,
      evidence: p.hits - p.wrong - now0,
      text: `argument ${p.param} of ${p.tool}: ${describeBinding(b).split(' ← ')[1]} gives the reference value in ${p.hits} of ${p.calls} reference calls (another value in ${p.wrong}; ${p.groups} groups); as an edit: ${JSON.stringify({ op: 'set_binding', id: node.id, tool: p.tool, param: p.param, source: p.source })}`,
    });
  }
  return out;
}
