import type { TcResult } from '../metrics/tool-call-lcs.js';
import type { CallKey } from '../records/schema.js';
import type { Trace } from '../runtime/trace.js';

/**
 * One record's tool-call mismatches, explained by the nodes that made the calls (the feedback of
 * docs/DESIGN.md, "Search": trace mismatches, failed calls, node observations). Built from TC's detail (matched,
 * missing, extra, wrongArgs, reordered): the remaining missing and extra calls that fall between the
 * same matched anchors are paired as *wrong tool* (the position chose another tool), the rest stay
 * missing or extra. Every predicted call is mapped to the node that issued it, and every missing
 * reference call gets its slot: the nodes of the nearest aligned calls before and after it.
 */

/** A reference call the workflow did not make, with its slot. */
export interface MissingCall {
  refIndex: number;
  tool: string;
  args: Record<string, unknown>;
  /** The node whose aligned call precedes this reference call (undefined: none before it). */
  after?: string;
  /** The node whose aligned call follows it. */
  before?: string;
}

/** A position that called another tool than the reference at the same place. */
export interface WrongToolCall {
  refIndex: number;
  predIndex: number;
  node: string;
  expected: string;
  got: string;
}

/** A call of the right tool whose arguments differ in `keys`. */
export interface WrongArgsCall {
  refIndex: number;
  predIndex: number;
  node: string;
  tool: string;
  keys: string[];
  expected: Record<string, unknown>;
  got: Record<string, unknown>;
}

/** A call the reference does not have. */
export interface ExtraCall {
  predIndex: number;
  node: string;
  tool: string;
  args: Record<string, unknown>;
}

/** One record's mismatches, each explained by the node that made the call. */
export interface CallAlignment {
  /** Node of each predicted call (π̂ index → node id). */
  predNodes: string[];
  /** Matched reference index → node that made the matching call. */
  matchedNodes: Map<number, string>;
  missing: MissingCall[];
  wrongTool: WrongToolCall[];
  wrongArgs: WrongArgsCall[];
  extra: ExtraCall[];
  reordered: Array<{ refIndex: number; predIndex: number; node: string; tool: string }>;
}

/** The node of every call of π̂, in π̂ order (the runtime flattens every attempt of each tool node in observation order). */
export function predictedCallNodes(trace: Trace): string[] {
  const nodes: string[] = [];
  for (const obs of trace.observations) {
    if (obs.kind !== 'tool' || obs.status === 'skipped') continue;
    for (const _call of obs.calls ?? []) nodes.push(obs.nodeId);
  }
  return nodes;
}

/** Aligns a record's reference calls with the trace's calls (see the module comment). */
export function alignCalls(reference: readonly CallKey[], trace: Trace, detail: TcResult): CallAlignment {
  const predNodes = predictedCallNodes(trace);
  const nodeOf = (j: number) => predNodes[j] ?? '?';
  const pred = trace.calls;
  const matchedNodes = new Map(detail.matched.map(([i, j]) => [i, nodeOf(j)]));
  const wrongArgs: WrongArgsCall[] = detail.wrongArgs.map((w) => ({
    refIndex: w.reference,
    predIndex: w.predicted,
    node: nodeOf(w.predicted),
    tool: w.tool,
    keys: w.keys,
    expected: reference[w.reference]!.args,
    got: pred[w.predicted]!.args,
  }));
  const reordered = detail.reordered.map((r) => ({
    refIndex: r.reference,
    predIndex: r.predicted,
    node: nodeOf(r.predicted),
    tool: r.tool,
  }));
  const pairedRef = new Set([...wrongArgs.map((w) => w.refIndex), ...reordered.map((r) => r.refIndex)]);
  const pairedPred = new Set([...wrongArgs.map((w) => w.predIndex), ...reordered.map((r) => r.predIndex)]);
  const missingLeft = detail.missing.filter((i) => !pairedRef.has(i));
  const extraLeft = detail.extra.filter((j) => !pairedPred.has(j));

  // Anchors: matched pairs and wrong-argument pairs. A missing call and an extra call between the
  // same anchors are one position that chose the wrong tool.
  const anchors: Array<[number, number]> = [
    ...detail.matched,
    ...wrongArgs.map((w) => [w.refIndex, w.predIndex] as [number, number]),
  ];
  const gapOf = (refIndex: number) => {
    let lo = -1;
    let hi = Infinity;
    for (const [i, j] of anchors) {
      if (i < refIndex) lo = Math.max(lo, j);
      else if (i > refIndex) hi = Math.min(hi, j);
    }
    return { lo, hi };
  };
  const wrongTool: WrongToolCall[] = [];
  const used = new Set<number>();
  const unpaired: number[] = [];
  for (const i of missingLeft) {
    const { lo, hi } = gapOf(i);
    const j = extraLeft.find((x) => !used.has(x) && x > lo && x < hi);
    if (j === undefined) {
      unpaired.push(i);
      continue;
    }
    used.add(j);
    wrongTool.push({ refIndex: i, predIndex: j, node: nodeOf(j), expected: reference[i]!.tool, got: pred[j]!.tool });
  }
  // The slot of a call still missing: the nodes of the nearest aligned calls (any kind) around it.
  anchors.push(...wrongTool.map((w) => [w.refIndex, w.predIndex] as [number, number]));
  const missing: MissingCall[] = unpaired.map((i) => {
    const { lo, hi } = gapOf(i);
    const m: MissingCall = { refIndex: i, tool: reference[i]!.tool, args: reference[i]!.args };
    if (lo >= 0) m.after = nodeOf(lo);
    if (hi !== Infinity) m.before = nodeOf(hi);
    return m;
  });
  const extra: ExtraCall[] = extraLeft
    .filter((j) => !used.has(j))
    .map((j) => ({ predIndex: j, node: nodeOf(j), tool: pred[j]!.tool, args: pred[j]!.args }));
  return { predNodes, matchedNodes, missing, wrongTool, wrongArgs, extra, reordered };
}
