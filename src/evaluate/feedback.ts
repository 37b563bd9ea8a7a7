import { indexWorkflow, isPreparedWorkflow, type PreparedWorkflow } from '../graph/prepare.js';
import type { Workflow } from '../graph/schema.js';
import { ES_DIMENSIONS, type EsDimension } from '../metrics/types.js';
import type { TaskRecord } from '../records/schema.js';
import { alignCalls, type CallAlignment } from './align-calls.js';
import {
  extraCalls,
  missingPatterns,
  neverCalled,
  skippedNeeded,
  tally,
  unseenValues,
  wrongArgs,
  wrongTools,
} from './feedback-calls.js';
import type { FeedbackOptions, RecordEvaluation } from './types.js';
import { formatFeedback } from './feedback-text.js';
import { bindablePatterns } from './feedback-bindings.js';
import { hintPatterns } from './feedback-hints.js';
import { routeFallbacks } from './feedback-routes.js';
import { clip } from '../util/clip.js';
import type { Feedback, FeedbackPattern, NodeSummary, WorstAnswer } from './feedback-types.js';

export type * from './feedback-types.js';
export type { FeedbackOptions } from './types.js';

/**
 * Builds a candidate's feedback from its evaluation (docs/DESIGN.md, "Search"): per record, the
 * tool-call mismatches against the reference (`alignCalls`: missing, extra, wrong tool, wrong
 * arguments with the differing keys and values), failed calls and node errors, and the judge's
 * dimensions; then aggregated into patterns over all records ("reference tool X never called in
 * 12/40 records", "node t2 picks Y where the reference has X in 9 records", "argument `symbol`
 * wrong in 7 calls of Z: got 'Apple', expected 'AAPL'"), ranked by evidence (records showing it),
 * and condensed to a character budget for prompts.
 */

/** Builds the feedback of one evaluation (see the module comment). */
export function buildFeedback(
  graph: Workflow | PreparedWorkflow,
  records: readonly TaskRecord[],
  perRecord: readonly RecordEvaluation[],
  opts: FeedbackOptions = {},
): Feedback {
  const prepared = isPreparedWorkflow(graph) ? graph : indexWorkflow(graph);
  const workflow = prepared.workflow;
  const n = perRecord.length;
  const aligned = perRecord.map((r, i) => ({
    r,
    record: records[i]!,
    a: alignCalls(records[i]!.calls, r.trace, r.detail),
  }));
  const patterns: FeedbackPattern[] = [
    ...missingPatterns(
      aligned.map((x) => x.a),
      n,
    ),
    ...neverCalled(aligned, n),
    ...skippedNeeded(prepared, aligned, n),
    ...wrongTools(
      aligned.map((x) => x.a),
      n,
    ),
    ...wrongArgs(aligned.map((x) => x.a)),
    ...unseenValues(workflow, aligned, n),
    ...bindablePatterns(workflow, aligned, records, opts.tools ?? []),
    ...hintPatterns(workflow, aligned, records, opts.tools ?? []),
    ...routeFallbacks(workflow, records, perRecord),
    ...extraCalls(
      aligned.map((x) => x.a),
      n,
    ),
    ...failures(
      perRecord,
      aligned.map((x) => x.a),
      n,
    ),
    ...callCount(perRecord, n),
    ...stepCount(prepared, records, n),
    ...layout(
      workflow,
      aligned.map((x) => x.a),
      n,
    ),
    ...lowAnswers(
      perRecord.filter((r) => !r.noReference),
      n,
    ),
  ].sort((a, b) => b.evidence - a.evidence || kindRank(a) - kindRank(b) || a.text.localeCompare(b.text));
  const worst = worstAnswers(perRecord, records, opts.worst ?? 3);
  const nodes = nodeSummaries(workflow, aligned);
  const mean = (f: (r: RecordEvaluation) => number) => (n ? perRecord.reduce((s, r) => s + f(r), 0) / n : 0);
  const tc = mean((r) => r.tc);
  // ES is scored only on records with a reference answer (a run that ended in a tool call has none).
  const judged = perRecord.filter((r) => !r.noReference);
  const es = judged.length ? judged.reduce((s, r) => s + r.es, 0) / judged.length : 0;
  const fb: Omit<Feedback, 'text'> = {
    records: n,
    reward: judged.length ? (tc + es) / 2 : tc,
    tc,
    es,
    patterns,
    worst,
    nodes,
  };
  return { ...fb, text: formatFeedback(fb, workflow, { maxChars: opts.maxChars ?? 4000, tools: opts.tools ?? [] }) };
}

const KIND_ORDER: FeedbackPattern['kind'][] = [
  'never-called',
  'missing-call',
  'skipped-needed',
  'wrong-tool',
  'wrong-args',
  'unseen-values',
  'bindable',
  'hints',
  'route-fallback',
  'extra-calls',
  'failed-calls',
  'node-error',
  'step-count',
  'call-count',
  'low-answers',
];
const kindRank = (p: FeedbackPattern) => KIND_ORDER.indexOf(p.kind);

function failures(
  perRecord: readonly RecordEvaluation[],
  alignments: readonly CallAlignment[],
  n: number,
): FeedbackPattern[] {
  const calls = new Map<
    string,
    {
      node: string;
      tool: string;
      count: number;
      rightTool: number;
      errors: string[];
      records: Set<string>;
      otherTool: Set<string>;
    }
  >();
  const nodes = new Map<string, { count: number; errors: string[] }>();
  perRecord.forEach((r, i) => {
    // π̂ index of each call (tool observations in order, as align-calls counts them).
    const sameTool = new Set(alignments[i]?.wrongArgs.map((w) => w.predIndex) ?? []);
    let j = 0;
    for (const obs of r.trace.observations) {
      const counted = obs.kind === 'tool' && obs.status !== 'skipped';
      for (const c of obs.calls ?? []) {
        const index = counted ? j++ : -1;
        if (c.status !== 'error') continue;
        const id = `${obs.nodeId}\u0000${c.tool}`;
        const e = calls.get(id) ?? {
          node: obs.nodeId,
          tool: c.tool,
          count: 0,
          rightTool: 0,
          errors: [],
          records: new Set<string>(),
          otherTool: new Set<string>(),
        };
        e.count++;
        e.records.add(r.id);
        if (sameTool.has(index)) e.rightTool++;
        else e.otherTool.add(r.id);
        addDistinct(e.errors, c.error ?? 'error');
        calls.set(id, e);
      }
      if (obs.status === 'error' && !(obs.calls ?? []).some((c) => c.status === 'error')) {
        const e = nodes.get(obs.nodeId) ?? { count: 0, errors: [] };
        e.count++;
        addDistinct(e.errors, obs.error ?? 'error');
        nodes.set(obs.nodeId, e);
      }
    }
  });
  return [
    ...[...calls.values()].map((e) => ({
      kind: 'failed-calls' as const,
      node: e.node,
      tool: e.tool,
      count: e.count,
      errors: e.errors,
      rightTool: e.rightTool,
      otherTool: e.otherTool.size,
      evidence: e.records.size,
      text: `${e.count} calls of ${e.tool} by node ${e.node} failed (${e.records.size}/${n} records${e.rightTool > 0 ? `; ${e.rightTool} of them the reference's tool with other arguments` : ''}): ${e.errors[0]}`,
    })),
    ...[...nodes.entries()].map(([node, e]) => ({
      kind: 'node-error' as const,
      node,
      count: e.count,
      errors: e.errors,
      evidence: e.count,
      text: `node ${node} failed in ${e.count}/${n} records: ${e.errors[0]}`,
    })),
  ];
}

function callCount(perRecord: readonly RecordEvaluation[], n: number): FeedbackPattern[] {
  if (n === 0) return [];
  const meanK = perRecord.reduce((s, r) => s + r.detail.k, 0) / n;
  const meanKHat = perRecord.reduce((s, r) => s + r.detail.kHat, 0) / n;
  const fewer = perRecord.filter((r) => r.detail.kHat < r.detail.k).length;
  const more = perRecord.filter((r) => r.detail.kHat > r.detail.k).length;
  const direction = fewer >= more ? 'fewer' : 'more';
  const evidence = Math.max(fewer, more);
  if (evidence === 0) return [];
  return [
    {
      kind: 'call-count',
      direction,
      meanK,
      meanKHat,
      evidence,
      text: `the workflow makes ${direction} calls than the reference in ${evidence}/${n} records (mean ${meanKHat.toFixed(1)} vs ${meanK.toFixed(1)})`,
    },
  ];
}

/**
 * How the workflow's number of tool positions compares with the references' number of steps: one
 * pattern per direction that some record shows, its evidence the records showing it. Independent of the policy: a
 * workflow whose positions are fewer than the steps a query asks for cannot answer it step by step.
 */
/** The layout pattern (see `LayoutPattern`): only for a workflow with more than one tool step. */
function layout(workflow: Workflow, aligned: readonly CallAlignment[], n: number): FeedbackPattern[] {
  const steps = workflow.nodes.filter((x) => x.kind === 'tool').length;
  if (steps < 2) return [];
  let reordered = 0;
  let wrongTool = 0;
  let missing = 0;
  let evidence = 0;
  for (const a of aligned) {
    reordered += a.reordered.length;
    wrongTool += a.wrongTool.length;
    missing += a.missing.length;
    if (a.reordered.length + a.wrongTool.length + a.missing.length > 0) evidence++;
  }
  if (evidence === 0) return [];
  return [
    {
      kind: 'layout',
      steps,
      reordered,
      wrongTool,
      missing,
      evidence,
      text: `the ${steps} tool steps made ${reordered} reference calls out of order, picked another tool for ${wrongTool} and missed ${missing}, in ${evidence}/${n} records: one repeating step that reads the request part by part (collapse_steps), or the same steps each choosing among all tools (drop_mined, where steps have mined tools), may fit better`,
    },
  ];
}

function stepCount(prepared: PreparedWorkflow, records: readonly TaskRecord[], n: number): FeedbackPattern[] {
  if (n === 0) return [];
  const adj = prepared.adjacency;
  const tools = prepared.order.filter((id) => adj.nodes.get(id)?.kind === 'tool');
  const positions = tools.length;
  if (positions === 0) return [];
  const ks = records.slice(0, n).map((r) => r.calls.length);
  const more = ks.filter((k) => k > positions).length;
  const fewer = ks.filter((k) => k < positions).length;
  const meanK = ks.reduce((a, b) => a + b, 0) / n;
  const lastNode = adj.nodes.get(tools[positions - 1]!);
  const last = lastNode?.kind === 'tool' ? { last: lastNode.id, lastCalls: lastNode.calls ?? ('one' as const) } : {};
  const directions = [
    ['more', more],
    ['fewer', fewer],
  ] as const;
  return directions
    .filter(([, evidence]) => evidence > 0)
    .map(([direction, evidence]) => ({
      kind: 'step-count' as const,
      direction,
      positions,
      meanK,
      more,
      fewer,
      ...last,
      evidence,
      text: `the references take ${direction} steps than the workflow's ${positions} tool positions in ${evidence}/${n} records (mean ${meanK.toFixed(1)} calls per record)`,
    }));
}

/** Answers below the mean ES, over `perRecord` (the records with a reference answer) out of `n` records. */
function lowAnswers(perRecord: readonly RecordEvaluation[], n: number): FeedbackPattern[] {
  const judged = perRecord.length;
  if (judged === 0) return [];
  const dims = Object.fromEntries(
    ES_DIMENSIONS.map((d) => [d, perRecord.reduce((s, r) => s + r.dims[d], 0) / judged]),
  ) as Record<EsDimension, number>;
  const weakest = [...ES_DIMENSIONS].sort((a, b) => dims[a] - dims[b]);
  const meanEs = perRecord.reduce((s, r) => s + r.es, 0) / judged;
  const low = perRecord.filter((r) => r.es < meanEs || r.es < 0.5);
  if (low.length === 0) return [];
  const correctTrace = low.filter((r) => r.tc >= 0.999).length;
  const dimText = weakest.map((d) => `${d} ${dims[d].toFixed(2)}`).join(', ');
  return [
    {
      kind: 'low-answers',
      correctTrace,
      dims,
      weakest,
      evidence: low.length,
      text: `${low.length}/${n} answers score below the mean ES ${meanEs.toFixed(2)} (${correctTrace} of them with all tool calls right); judge dimensions: ${dimText}`,
    },
  ];
}

function worstAnswers(
  perRecord: readonly RecordEvaluation[],
  records: readonly TaskRecord[],
  k: number,
): WorstAnswer[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  return perRecord
    .filter((r) => !r.noReference)
    .sort((a, b) => a.es - b.es || a.id.localeCompare(b.id))
    .slice(0, k)
    .map((r) => {
      const rec = byId.get(r.id)!;
      const w: WorstAnswer = {
        id: r.id,
        query: clip(rec.query, 240),
        answer: clip(r.trace.answer, 300),
        reference: clip(rec.reference, 300),
        es: r.es,
        tc: r.tc,
        dims: r.dims,
      };
      if (r.rationale) w.rationale = clip(r.rationale, 200);
      return w;
    });
}

function nodeSummaries(
  workflow: Workflow,
  xs: Array<{ r: RecordEvaluation; a: CallAlignment; record: TaskRecord }>,
): NodeSummary[] {
  return workflow.nodes
    .filter((nd) => nd.kind === 'tool')
    .map((nd) => {
      const s: NodeSummary = { node: nd.id, runs: 0, errors: 0, skipped: 0, calls: 0, matched: 0, matchedTools: [] };
      const matchedTools: string[] = [];
      for (const { r, a, record } of xs) {
        const obs = r.trace.observations.find((o) => o.nodeId === nd.id);
        if (!obs || obs.status === 'skipped') s.skipped++;
        else s.runs++;
        if (obs?.status === 'error') s.errors++;
        s.calls += a.predNodes.filter((p) => p === nd.id).length;
        for (const [ref, node] of a.matchedNodes) if (node === nd.id) matchedTools.push(record.calls[ref]!.tool);
        for (const w of a.wrongArgs) if (w.node === nd.id) matchedTools.push(w.tool);
      }
      s.matched = [...xs].reduce((n, x) => n + [...x.a.matchedNodes.values()].filter((p) => p === nd.id).length, 0);
      s.matchedTools = tally(matchedTools);
      return s;
    });
}

function addDistinct(list: string[], msg: string): void {
  const m = clip(msg, 160);
  if (list.length < 3 && !list.includes(m)) list.push(m);
}
