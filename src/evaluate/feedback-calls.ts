import type { PreparedWorkflow } from '../graph/prepare.js';
import type { Workflow } from '../graph/schema.js';
import type { TaskRecord } from '../records/schema.js';
import type { CallAlignment } from './align-calls.js';
import type { RecordEvaluation } from './types.js';
import type { Count, FeedbackPattern } from './feedback-types.js';

/**
 * The tool-call patterns of the feedback (see feedback.ts): per-record alignments aggregated over
 * all records, each with its evidence (records that show it) and a one-line text.
 */

/** Counts of names, most frequent first (ties by name). */
export function tally(items: Iterable<string>): Count[] {
  const m = new Map<string, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return [...m.entries()]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

/** The first `k` counts as "name (n), …". */
export const list = (cs: Count[], k = 3) =>
  cs
    .slice(0, k)
    .map((c) => `${c.name} (${c.count})`)
    .join(', ');

/** Missing reference calls grouped by slot. */
export function missingPatterns(as: CallAlignment[], n: number): FeedbackPattern[] {
  const slots = new Map<
    string,
    { after?: string; before?: string; tools: string[]; keys: string[]; records: Set<number> }
  >();
  as.forEach((a, i) => {
    for (const m of a.missing) {
      const key = `${m.after ?? ''}\u0000${m.before ?? ''}`;
      const slot = slots.get(key) ?? {
        ...(m.after ? { after: m.after } : {}),
        ...(m.before ? { before: m.before } : {}),
        tools: [],
        keys: [],
        records: new Set<number>(),
      };
      slot.tools.push(m.tool);
      slot.keys.push(...Object.keys(m.args));
      slot.records.add(i);
      slots.set(key, slot);
    }
  });
  return [...slots.values()].map((s) => {
    const tools = tally(s.tools);
    const where = `${s.after ? `after node ${s.after}` : 'at the start'}${s.before ? ` and before node ${s.before}` : ''}`;
    return {
      kind: 'missing-call' as const,
      ...(s.after ? { after: s.after } : {}),
      ...(s.before ? { before: s.before } : {}),
      tools,
      calls: s.tools.length,
      argKeys: tally(s.keys),
      evidence: s.records.size,
      text: `${s.tools.length} reference calls ${where} were never made (${s.records.size}/${n} records); tools: ${list(tools)}`,
    };
  });
}

/** Reference tools the workflow never called in the records that need them. */
export function neverCalled(
  xs: Array<{ a: CallAlignment; record: TaskRecord; r: RecordEvaluation }>,
  n: number,
): FeedbackPattern[] {
  const refRecords = new Map<string, number>();
  const never = new Map<string, { records: number; slots: string[] }>();
  for (const { a, record, r } of xs) {
    const refTools = new Set(record.calls.map((c) => c.tool));
    const called = new Set(r.trace.calls.map((c) => c.tool));
    for (const t of refTools) {
      refRecords.set(t, (refRecords.get(t) ?? 0) + 1);
      if (called.has(t)) continue;
      const e = never.get(t) ?? { records: 0, slots: [] };
      e.records++;
      for (const m of a.missing) if (m.tool === t) e.slots.push(`${m.after ?? ''}\u0000${m.before ?? ''}`);
      never.set(t, e);
    }
  }
  return [...never.entries()].map(([tool, e]) => {
    const slot = tally(e.slots)[0]?.name.split('\u0000') ?? [];
    return {
      kind: 'never-called' as const,
      tool,
      referenceRecords: refRecords.get(tool) ?? 0,
      ...(slot[0] ? { after: slot[0] } : {}),
      ...(slot[1] ? { before: slot[1] } : {}),
      evidence: e.records,
      text: `reference tool ${tool} never called in ${e.records}/${n} records (it is in ${refRecords.get(tool)} references)`,
    };
  });
}

/** Conditional positions skipped where the reference has calls at their place. */
export function skippedNeeded(
  prepared: PreparedWorkflow,
  xs: Array<{ a: CallAlignment; r: RecordEvaluation }>,
  n: number,
): FeedbackPattern[] {
  const workflow = prepared.workflow;
  const order = prepared.order;
  const index = new Map(order.map((id, i) => [id, i]));
  const toolNodes = order.filter((id) => workflow.nodes.find((x) => x.id === id)?.kind === 'tool');
  const found = new Map<string, { tools: string[]; records: Set<number> }>();
  xs.forEach(({ a, r }, i) => {
    const skipped = new Set(r.trace.observations.filter((o) => o.status === 'skipped').map((o) => o.nodeId));
    for (const m of a.missing) {
      const lo = m.after ? index.get(m.after)! : -1;
      const hi = m.before ? index.get(m.before)! : Infinity;
      const node = toolNodes.find((id) => skipped.has(id) && index.get(id)! > lo && index.get(id)! < hi);
      if (!node) continue;
      const e = found.get(node) ?? { tools: [], records: new Set<number>() };
      e.tools.push(m.tool);
      e.records.add(i);
      found.set(node, e);
    }
  });
  return [...found.entries()].map(([node, e]) => {
    const judge = workflow.edges.find((x) => x.to === node && x.when)?.from;
    const tools = tally(e.tools);
    return {
      kind: 'skipped-needed' as const,
      node,
      ...(judge ? { judge } : {}),
      tools,
      evidence: e.records.size,
      text: `node ${node} was skipped${judge ? ` by ${judge}` : ''} in ${e.records.size}/${n} records whose reference has calls at its place: ${list(tools)}`,
    };
  });
}

/** Positions that choose another tool than the reference. */
export function wrongTools(as: CallAlignment[], n: number): FeedbackPattern[] {
  const byNode = new Map<string, { got: string[]; expected: string[]; records: Set<number> }>();
  as.forEach((a, i) => {
    for (const w of a.wrongTool) {
      const e = byNode.get(w.node) ?? { got: [], expected: [], records: new Set<number>() };
      e.got.push(w.got);
      e.expected.push(w.expected);
      e.records.add(i);
      byNode.set(w.node, e);
    }
  });
  return [...byNode.entries()].map(([node, e]) => {
    const got = tally(e.got);
    const expected = tally(e.expected);
    return {
      kind: 'wrong-tool' as const,
      node,
      got,
      expected,
      evidence: e.records.size,
      text: `node ${node} picks ${list(got, 2)} where the reference has ${list(expected)} (${e.records.size}/${n} records)`,
    };
  });
}

/** Wrong values per (tool, argument), with examples. */
export function wrongArgs(as: CallAlignment[]): FeedbackPattern[] {
  const byKey = new Map<
    string,
    {
      tool: string;
      key: string;
      nodes: Set<string>;
      calls: number;
      records: Set<number>;
      examples: Array<{ got: unknown; expected: unknown }>;
    }
  >();
  as.forEach((a, i) => {
    for (const w of a.wrongArgs) {
      for (const key of w.keys) {
        const id = `${w.tool}\u0000${key}`;
        const e = byKey.get(id) ?? {
          tool: w.tool,
          key,
          nodes: new Set<string>(),
          calls: 0,
          records: new Set<number>(),
          examples: [],
        };
        e.nodes.add(w.node);
        e.calls++;
        e.records.add(i);
        if (e.examples.length < 3) e.examples.push({ got: w.got[key], expected: w.expected[key] });
        byKey.set(id, e);
      }
    }
  });
  return [...byKey.values()].map((e) => ({
    kind: 'wrong-args' as const,
    tool: e.tool,
    key: e.key,
    nodes: [...e.nodes].sort(),
    calls: e.calls,
    examples: e.examples,
    evidence: e.records.size,
    text: `argument \`${e.key}\` wrong in ${e.calls} calls of ${e.tool} (node ${[...e.nodes].join(', ')}): ${e.examples
      .map((x) => `got ${show(x.got)}, expected ${show(x.expected)}`)
      .join('; ')}`,
  }));
}

/** Calls each node made that the reference does not have. */
export function extraCalls(as: CallAlignment[], n: number): FeedbackPattern[] {
  const byNode = new Map<
    string,
    { extra: number; calls: number; tools: string[]; records: Set<number>; useful: Set<number> }
  >();
  as.forEach((a, i) => {
    a.predNodes.forEach((node) => {
      const e = byNode.get(node) ?? {
        extra: 0,
        calls: 0,
        tools: [],
        records: new Set<number>(),
        useful: new Set<number>(),
      };
      e.calls++;
      byNode.set(node, e);
    });
    for (const x of a.extra) {
      const e = byNode.get(x.node)!;
      e.extra++;
      e.tools.push(x.tool);
      e.records.add(i);
    }
    const usefulNodes = new Set([...a.matchedNodes.values(), ...a.wrongArgs.map((w) => w.node)]);
    for (const node of usefulNodes) byNode.get(node)?.useful.add(i);
  });
  return [...byNode.entries()]
    .filter(([, e]) => e.extra > 0)
    .map(([node, e]) => {
      const tools = tally(e.tools);
      return {
        kind: 'extra-calls' as const,
        node,
        extra: e.extra,
        calls: e.calls,
        usefulIn: e.useful.size,
        tools,
        evidence: e.records.size,
        text: `node ${node} made ${e.extra} of its ${e.calls} calls where the reference has none (${e.records.size}/${n} records; useful in ${e.useful.size}); tools: ${list(tools)}`,
      };
    });
}

function show(v: unknown): string {
  if (v === undefined) return '(absent)';
  const t = JSON.stringify(v);
  return t.length <= 60 ? t : `${t.slice(0, 59)}…`;
}

/**
 * Wrong argument values found in the results of an earlier tool node that does not feed the node
 * that made the call (see `UnseenValuesPattern`). A value counts when it has at least 3 characters
 * and stands in the result as a whole token.
 */
export function unseenValues(
  workflow: Workflow,
  xs: Array<{ a: CallAlignment; r: RecordEvaluation }>,
  n: number,
): FeedbackPattern[] {
  const feeds = new Map<string, Set<string>>();
  for (const e of workflow.edges)
    if (e.kind === 'data') feeds.set(e.to, (feeds.get(e.to) ?? new Set<string>()).add(e.from));
  const byNode = new Map<string, { sources: string[]; values: number; records: Set<number> }>();
  xs.forEach(({ a, r }, i) => {
    const obs = r.trace.observations;
    for (const w of a.wrongArgs) {
      const at = obs.findIndex((o) => o.nodeId === w.node);
      const earlier = obs
        .slice(0, Math.max(0, at))
        .filter((o) => o.kind === 'tool' && o.status !== 'skipped' && !feeds.get(w.node)?.has(o.nodeId));
      for (const key of w.keys) {
        const v = w.expected[key];
        const text = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
        if (text.length < 3) continue;
        const holder = earlier.find((o) =>
          (o.calls ?? []).some((c) => c.status === 'ok' && holdsToken(c.output, text)),
        );
        if (!holder) continue;
        const e = byNode.get(w.node) ?? { sources: [], values: 0, records: new Set<number>() };
        e.sources.push(holder.nodeId);
        e.values++;
        e.records.add(i);
        byNode.set(w.node, e);
      }
    }
  });
  return [...byNode.entries()].map(([node, e]) => {
    const sources = tally(e.sources);
    return {
      kind: 'unseen-values' as const,
      node,
      sources,
      values: e.values,
      evidence: e.records.size,
      text: `node ${node} filled ${e.values} arguments wrongly whose reference values were in results it does not receive, from ${list(sources)} (${e.records.size}/${n} records)`,
    };
  });
}

function holdsToken(output: unknown, token: string): boolean {
  if (output === undefined || output === null) return false;
  const hay = typeof output === 'string' ? output : JSON.stringify(output);
  for (let from = 0; ;) {
    const i = hay.indexOf(token, from);
    if (i < 0) return false;
    const before = hay[i - 1] ?? ' ';
    const after = hay[i + token.length] ?? ' ';
    if (!/[A-Za-z0-9]/.test(before) && !/[A-Za-z0-9]/.test(after)) return true;
    from = i + 1;
  }
}
