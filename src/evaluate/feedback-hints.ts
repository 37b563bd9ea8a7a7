import { stableStringify } from '../contracts/canonical-args.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { hintFor, workflowHints } from '../graph/hints.js';
import type { ToolHint, ToolNode, Workflow } from '../graph/schema.js';
import type { TaskRecord } from '../records/schema.js';
import type { CallAlignment } from './align-calls.js';
import type { HintsPattern } from './feedback-types.js';
import { learnToolHints } from '../dataflow/learn-hints.js';
import type { RecordEvaluation } from './types.js';

/**
 * The hint evidence of the feedback (docs/DESIGN.md, "Search": the search learns typed hints into the
 * workflow from execution feedback): what the reference calls of the evaluated records show about
 * each tool (dataflow/learn-hints.ts, with its privacy rules), placed on the node that calls the tool —
 * the node whose calls were aligned with the reference's calls of it, else the node that called it
 * most, else the node that already has a hint about it, else a node that lists it, else the first
 * tool node without lists, else the first tool node. Only hints that differ from what the node reads
 * now are proposed.
 */

// Hints depend only on the records and the tools, not on the candidate: learned once per records list.
const learned = new WeakMap<
  readonly TaskRecord[],
  { tools: readonly ToolDescriptor[]; hints: Map<string, ToolHint> }
>();

function hintsOf(records: readonly TaskRecord[], tools: readonly ToolDescriptor[]) {
  const hit = learned.get(records);
  if (hit && hit.tools === tools) return hit.hints;
  const hints = learnToolHints(records, tools);
  learned.set(records, { tools, hints });
  return hints;
}

/** The hints pattern of one evaluation (none when there is nothing new to propose). */
export function hintPatterns(
  workflow: Workflow,
  xs: ReadonlyArray<{ r: RecordEvaluation; record: TaskRecord; a: CallAlignment }>,
  records: readonly TaskRecord[],
  tools: readonly ToolDescriptor[],
): HintsPattern[] {
  const toolNodes = workflow.nodes.filter((n): n is ToolNode => n.kind === 'tool');
  if (toolNodes.length === 0 || tools.length === 0 || xs.length === 0) return [];
  const hints = hintsOf(records, tools);
  const place = toolPlacer(workflow, xs);
  const proposals: HintsPattern['proposals'] = [];
  const referenceRecords = new Set<string>();
  for (const [tool, hint] of hints) {
    const node = place(tool);
    if (stableStringify(hintFor(workflow, node, tool) ?? null) === stableStringify(hint)) continue;
    const calls = xs.reduce((n, x) => n + x.record.calls.filter((c) => c.tool === tool).length, 0);
    for (const x of xs) if (x.record.calls.some((c) => c.tool === tool)) referenceRecords.add(x.record.id);
    proposals.push({ node: node.id, tool, hint, calls });
  }
  if (proposals.length === 0) return [];
  proposals.sort((x, y) => y.calls - x.calls || x.tool.localeCompare(y.tool));
  return [
    {
      kind: 'hints',
      proposals,
      evidence: referenceRecords.size,
      text: `hints about ${proposals.length} tool${proposals.length === 1 ? '' : 's'} learned from the reference calls of ${referenceRecords.size} records (what requests ask them with, how their parameters are filled): ${proposals
        .slice(0, 6)
        .map((p) => `${p.tool} at ${p.node}`)
        .join(', ')}${proposals.length > 6 ? ', …' : ''}`,
    },
  ];
}

/**
 * Where what is learned about a tool is written: the node whose calls were aligned with the
 * reference's calls of it, else the node that called it most, else the node that already has a hint
 * about it, else a node that lists it, else the first tool node without lists, else the first tool node.
 */
export function toolPlacer(
  workflow: Workflow,
  xs: ReadonlyArray<{ r: RecordEvaluation; record: TaskRecord; a: CallAlignment }>,
): (tool: string) => ToolNode {
  const toolNodes = workflow.nodes.filter((n): n is ToolNode => n.kind === 'tool');
  // Where each tool's calls were made: aligned with a reference call (counted twice) or at all.
  const votes = new Map<string, Map<string, number>>();
  const vote = (tool: string, node: string, by: number) => {
    const m = votes.get(tool) ?? new Map<string, number>();
    votes.set(tool, m);
    m.set(node, (m.get(node) ?? 0) + by);
  };
  for (const { r, record, a } of xs) {
    a.predNodes.forEach((node, i) => {
      const tool = r.trace.calls[i]?.tool;
      if (tool) vote(tool, node, 1);
    });
    for (const [ref, node] of a.matchedNodes) vote(record.calls[ref]!.tool, node, 2);
    for (const w of a.wrongArgs) vote(w.tool, w.node, 2);
  }
  const current = workflowHints(workflow);
  const generic = toolNodes.find((n) => !n.tools?.length && !n.mined?.length);
  return (tool: string): ToolNode => {
    const v = [...(votes.get(tool) ?? new Map<string, number>())].sort(
      (x, y) => y[1] - x[1] || x[0].localeCompare(y[0]),
    );
    const byVote = v.length > 0 ? toolNodes.find((n) => n.id === v[0]![0]) : undefined;
    const holder = current.has(tool) ? toolNodes.find((n) => n.hints?.some((h) => h.tool === tool)) : undefined;
    const lister = toolNodes.find((n) => [...(n.tools ?? []), ...(n.mined ?? [])].includes(tool));
    return byVote ?? holder ?? lister ?? generic ?? toolNodes[0]!;
  };
}
