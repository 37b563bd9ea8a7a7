import { canonicalArgs, stableStringify, type ParamSchema } from '../contracts/canonical-args.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { learnBindings, type LearnedBinding } from '../dataflow/learn-bindings.js';
import { describeBinding } from '../dataflow/render.js';
import { resolveSource } from '../dataflow/resolve.js';
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
 *
 * A program's evidence is in the unit TC counts, whole calls: the calls of the run it would make
 * exactly right (read on the results the run itself got before each call, as the binding reads them
 * at run time; a call with several wrong arguments counts when programs fix all of them, a share to
 * each), less the calls now right that it would make wrong. A program that fixes one argument of
 * calls whose other arguments stay wrong moves no score, and offered at its per-argument count it
 * took a search's iterations from the edits that do.
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

/** Per program (tool and parameter), the calls it makes right less those it makes wrong (see the module comment). */
function callsMadeRight(
  xs: ReadonlyArray<{ r: RecordEvaluation; record: TaskRecord; a: CallAlignment }>,
  programs: ReadonlyMap<string, LearnedBinding>,
  tools: readonly ToolDescriptor[],
): Map<string, number> {
  const schemas = new Map(tools.map((t) => [t.name, t.inputSchema as ParamSchema | undefined]));
  const out = new Map<string, number>();
  const add = (k: string, n: number) => out.set(k, (out.get(k) ?? 0) + n);
  for (const { r, record } of xs) {
    const calls = r.trace.calls;
    const gives = (tool: string, param: string, predIndex: number): string | undefined => {
      const p = programs.get(`${tool}\u0000${param}`);
      if (!p) return undefined;
      const earlier = calls.slice(0, predIndex).map((c) => ({ tool: c.tool, status: c.status, output: c.output }));
      const v = resolveSource(p.source, { query: record.query, outputs: new Map(), earlier });
      return v === undefined ? undefined : stableStringify(canonicalArgs({ [param]: v }, schemas.get(tool))[param]);
    };
    for (const [refIndex, predIndex] of r.detail.matched) {
      const call = record.calls[refIndex]!;
      const want = canonicalArgs(call.args, schemas.get(call.tool));
      for (const param of Object.keys(want)) {
        const v = gives(call.tool, param, predIndex);
        if (v !== undefined && v !== stableStringify(want[param])) add(`${call.tool}\u0000${param}`, -1);
      }
    }
    for (const w of r.detail.wrongArgs) {
      const call = record.calls[w.reference]!;
      const want = canonicalArgs(call.args, schemas.get(call.tool));
      if (w.keys.length === 0 || calls[w.predicted]?.tool !== call.tool) continue;
      if (w.keys.every((param) => gives(call.tool, param, w.predicted) === stableStringify(want[param])))
        for (const param of w.keys) add(`${call.tool}\u0000${param}`, 1 / w.keys.length);
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
  const programs = programsOf(records, tools);
  const made = callsMadeRight(xs, new Map(programs.map((p) => [`${p.tool}\u0000${p.param}`, p])), tools);
  const out: BindablePattern[] = [];
  for (const p of programs) {
    // A parameter the workflow already passes right as often as the program would needs no binding.
    const now0 = current.get(`${p.tool}\u0000${p.param}`) ?? 0;
    if (now0 >= p.hits - p.wrong) continue;
    const evidence = made.get(`${p.tool}\u0000${p.param}`) ?? 0;
    if (evidence <= 0) continue;
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
      evidence,
      text: `argument ${p.param} of ${p.tool}: ${describeBinding(b).split(' ← ')[1]} gives the reference value in ${p.hits} of ${p.calls} reference calls (another value in ${p.wrong}; ${p.groups} groups); as an edit: ${JSON.stringify({ op: 'set_binding', id: node.id, tool: p.tool, param: p.param, source: p.source })}`,
    });
  }
  return out;
}
