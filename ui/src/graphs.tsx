import {
  Handle,
  MarkerType,
  Position,
  type Edge as FlowEdge,
  type Node as FlowNode,
  type NodeProps,
} from '@xyflow/react';
import {
  fmt,
  scoreColor,
  type ChoiceOption,
  type Edge,
  type TreeNode,
  type Workflow,
  type WorkflowDiff,
  type WorkflowNode,
} from './api.ts';
import { GraphFrame } from './graph-frame.tsx';

/**
 * The two graphs of the UI, drawn with @xyflow/react: the search tree (one node per candidate,
 * coloured by its validation score) and a workflow (LLM and tool nodes drawn differently, guards on
 * edges, data edges solid and control edges dashed, the diff against the parent highlighted). Every
 * label is a React text child: nothing from the data is parsed as HTML. Both are drawn in a GraphFrame
 * (graph-frame.tsx): at a readable scale in a scrolling frame, with Fit / 100 % / zoom controls.
 */

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

// ---------------------------------------------------------------- search tree

type TreeData = { c: TreeNode; color: string };

function CandidateNode({ data }: NodeProps<FlowNode<TreeData>>) {
  const c = data.c;
  const broken = c.kind === 'failed' || c.kind === 'invalid';
  const cls = ['tree-node', `kind-${c.kind}`, c.best ? 'best' : ''].join(' ');
  const tip = `${c.id}: visits ${c.visits} · mean reward ${fmt(c.meanReward)} · R_opt ${fmt(c.optReward)} · S_val ${fmt(c.valScore)}${c.error ? ` · error: ${c.error}` : ''}`;
  return (
    <div
      className={cls}
      style={{ background: broken ? '#fee2e2' : data.color }}
      title={tip}
      data-candidate={c.id}
      data-testid={`tree-node-${c.id}`}
    >
      <Handle type="target" position={Position.Top} />
      <div className="tree-node-id">
        {c.best ? '★ ' : ''}
        {c.id}
        {c.kind !== 'ok' ? <span className="tag">{c.kind}</span> : null}
      </div>
      <div className="tree-node-score">{broken ? clip(c.error ?? c.kind, 44) : `S_val ${fmt(c.valScore)}`}</div>
      <div className="tree-tip" role="tooltip">
        visits {c.visits} · mean reward {fmt(c.meanReward)}
      </div>
      <Handle type="source" position={Position.Bottom} />
    </div>
  );
}

const treeTypes = { candidate: CandidateNode };

/**
 * Horizontal distance between neighbouring leaves. Edge labels sit half-way along their edges, so two
 * labels at one depth are at least TREE_X / 2 apart: that must exceed a label's width
 * (EDGE_LABEL_CHARS characters at 10 px, about 6 px each), or neighbouring labels overlap.
 */
const TREE_X = 320;
const EDGE_LABEL_CHARS = 22;

/** A tidy layout: leaves left to right in creation order, a parent centred over its children. */
export function layoutTree(nodes: TreeNode[]): Map<string, { x: number; y: number }> {
  const kids = new Map<string | null, TreeNode[]>();
  for (const n of nodes) kids.set(n.parent, [...(kids.get(n.parent) ?? []), n]);
  const pos = new Map<string, { x: number; y: number }>();
  let next = 0;
  const place = (n: TreeNode, depth: number): number => {
    const ch = kids.get(n.id) ?? [];
    const x = ch.length === 0 ? next++ : ch.map((c) => place(c, depth + 1)).reduce((a, b) => a + b, 0) / ch.length;
    pos.set(n.id, { x, y: depth });
    return x;
  };
  for (const root of kids.get(null) ?? []) place(root, 0);
  for (const [k, v] of pos) pos.set(k, { x: v.x * TREE_X, y: v.y * 150 });
  return pos;
}

/**
 * The run's range of validation scores, which the legend states beside the fixed colour scale (the
 * colours are not stretched over it: candidates 0.005 apart look alike, as they should).
 */
export function scoreRange(nodes: TreeNode[]): { lo: number; hi: number } | undefined {
  const vals = nodes.map((n) => n.valScore).filter((v): v is number => typeof v === 'number');
  return vals.length ? { lo: Math.min(...vals), hi: Math.max(...vals) } : undefined;
}

export function SearchTreeGraph({ nodes, onOpen }: { nodes: TreeNode[]; onOpen: (id: string) => void }) {
  const pos = layoutTree(nodes);
  const flowNodes: FlowNode<TreeData>[] = nodes.map((c) => ({
    id: c.id,
    type: 'candidate',
    position: pos.get(c.id) ?? { x: 0, y: 0 },
    // One fixed scale, 0 red → 1 green, in every run: a colour means the same score everywhere.
    data: { c, color: scoreColor(c.valScore) },
    draggable: false,
    connectable: false,
  }));
  const flowEdges: FlowEdge[] = nodes
    .filter((c) => c.parent !== null)
    .map((c) => ({
      id: `${c.parent}-${c.id}`,
      source: c.parent!,
      target: c.id,
      label: clip(c.summary, EDGE_LABEL_CHARS),
      labelStyle: { fontSize: 10 },
      labelBgStyle: { fill: '#ffffff', fillOpacity: 0.9 },
      style: {
        stroke: c.kind === 'failed' || c.kind === 'invalid' ? '#dc2626' : '#64748b',
        strokeDasharray: c.kind === 'ok' ? undefined : '5 4',
      },
      markerEnd: { type: MarkerType.ArrowClosed },
    }));
  return (
    <GraphFrame
      nodes={flowNodes}
      edges={flowEdges}
      nodeTypes={treeTypes}
      className="tree-box"
      testId="search-tree"
      maxHeight={560}
      onNodeClick={(_e, n) => onOpen(n.id)}
    />
  );
}

// ---------------------------------------------------------------- workflow

type WfData = { node: WorkflowNode; state: 'added' | 'removed' | 'changed' | 'same'; fields?: string[] };

function WorkflowNodeView({ data }: NodeProps<FlowNode<WfData>>) {
  const n = data.node;
  const cls = ['wf-node', n.kind === 'llm' ? 'wf-llm' : 'wf-tool', `diff-${data.state}`].join(' ');
  return (
    <div
      className={cls}
      data-testid={`wf-node-${n.id}`}
      data-diff={data.state}
      title={n.kind === 'llm' ? n.prompt : n.task}
    >
      <Handle type="target" position={Position.Top} />
      <div className="wf-head">
        <span className="wf-kind">{n.kind === 'llm' ? `LLM · ${n.role}` : 'TOOL'}</span>
        <span className="wf-id">{n.id}</span>
      </div>
      {n.kind === 'tool' ? (
        <div className="wf-body">
          <div>{clip(n.task, 70)}</div>
          <div className="wf-meta">
            calls: {n.calls ?? 'one'}
            {n.optional ? ' · may make no call' : ''}
            {n.retry ? ` · retry ${n.retry.attempts}× on ${n.retry.on}` : ''}
          </div>
          {n.tools?.length ? <div className="wf-meta">tools: {clip(n.tools.join(', '), 60)}</div> : null}
          {n.bind?.length ? (
            <div className="wf-meta" data-testid={`wf-bind-${n.id}`}>
              bound:{' '}
              {clip(
                n.bind
                  .map(
                    (b) =>
                      `${b.param} ← ${b.source.from === 'output' ? `${b.source.node ?? b.source.tool ?? 'latest result'} → ${b.source.path}${b.source.pick === 'match' ? ` (item named by ${b.source.by})` : b.source.pick === 'last' ? ' (last)' : ''}` : b.source.from === 'extract' ? `${b.source.node}.${b.source.field}` : b.source.from === 'const' ? `constant ${JSON.stringify(b.source.value)}` : b.source.from}`,
                  )
                  .join(', '),
                70,
              )}
            </div>
          ) : null}
        </div>
      ) : n.choices ? (
        <div className="wf-body" data-testid={`wf-choices-${n.id}`}>
          <div>chooses {n.choices.field}:</div>
          {n.choices.options.slice(0, 5).map((o) => (
            <div key={o.value} className="wf-meta wf-choice">
              {o.value}: {clip(choiceCondition(o), 44)}
            </div>
          ))}
          {n.choices.options.length > 5 ? (
            <div className="wf-meta wf-choice">… and {n.choices.options.length - 5} more (on their edges)</div>
          ) : null}
          {n.choices.fallback ? (
            <div className="wf-meta wf-choice">{n.choices.fallback}: also when no branch clearly fits (learned)</div>
          ) : null}
          {n.choices.otherwise ? (
            <div className="wf-meta wf-choice">
              {n.choices.otherwise}: {n.choices.fallback ? 'none of the above' : 'when no branch fits'}
            </div>
          ) : null}
        </div>
      ) : (
        <div className="wf-body">
          <div>{clip(n.prompt, 70)}</div>
          <div className="wf-meta">output: {n.output.type}</div>
        </div>
      )}
      {data.state !== 'same' ? (
        <div className="wf-diff-tag">
          {data.state}
          {data.fields?.length ? `: ${data.fields.join(', ')}` : ''}
        </div>
      ) : null}
      <Handle type="source" position={Position.Bottom} />
    </div>
  );
}

const wfTypes = { wf: WorkflowNodeView };

/** What a branch's request must ask for: its tools in order, and the words its requests use. */
function choiceCondition(o: ChoiceOption): string {
  const tools = o.tools.length > 0 ? o.tools.join(' → ') : 'no call';
  return `${tools}${o.asks?.length ? ` (asks: ${o.asks.slice(0, 4).join(', ')})` : ''}`;
}

/**
 * An edge's guard in words: a branch of a choosing judge by its condition (the option's tools and
 * words, or "no branch fits" for its `otherwise` — "none of the above" when a learned `fallback`
 * takes those requests), any other guard as its field test.
 */
function guardText(e: Edge, byId: ReadonlyMap<string, WorkflowNode>): string {
  if (!e.when) return '';
  if (e.when.kind === 'status') return `if status = ${e.when.status}`;
  const from = byId.get(e.from);
  const choices = from?.kind === 'llm' ? from.choices : undefined;
  const when = e.when;
  if (choices && choices.field === when.field && when.op === 'eq') {
    if (when.value === choices.otherwise)
      return `${String(when.value)}: ${choices.fallback ? 'none of the above' : 'when no branch fits'}`;
    const o = choices.options.find((x) => x.value === when.value);
    if (o) return `${o.value}: ${clip(choiceCondition(o), 60)}`;
  }
  return `if ${e.when.field} ${e.when.op}${e.when.value !== undefined ? ` ${JSON.stringify(e.when.value)}` : ''}`;
}

/** Layers by longest path from the entry (back edges, which a valid workflow has none of, are ignored). */
function layers(ids: string[], edges: Array<{ from: string; to: string }>): Map<string, number> {
  const depth = new Map(ids.map((id) => [id, 0]));
  for (let round = 0; round < ids.length; round++) {
    let moved = false;
    for (const e of edges) {
      const d = (depth.get(e.from) ?? 0) + 1;
      if (depth.has(e.to) && d > depth.get(e.to)! && d < ids.length) {
        depth.set(e.to, d);
        moved = true;
      }
    }
    if (!moved) break;
  }
  return depth;
}

/** A workflow; with `parent` and `diff`, the union of both with additions, changes and removals marked. */
export function WorkflowGraph({
  workflow,
  parent,
  diff,
  testId,
}: {
  workflow: Workflow;
  parent?: Workflow | null;
  diff?: WorkflowDiff | null;
  testId?: string;
}) {
  const removedNodes = diff && parent ? parent.nodes.filter((n) => diff.removedNodes.includes(n.id)) : [];
  const removedEdges =
    diff && parent ? parent.edges.filter((e) => diff.removedEdges.includes(`${e.from}→${e.to}`)) : [];
  const allNodes = [...workflow.nodes, ...removedNodes];
  const byId = new Map(allNodes.map((n) => [n.id, n]));
  const allEdges = [
    ...workflow.edges.map((e) => ({ e, removed: false })),
    ...removedEdges.map((e) => ({ e, removed: true })),
  ];
  const depth = layers(
    allNodes.map((n) => n.id),
    allEdges.map((x) => x.e),
  );
  const perLayer = new Map<number, string[]>();
  for (const n of allNodes) perLayer.set(depth.get(n.id)!, [...(perLayer.get(depth.get(n.id)!) ?? []), n.id]);
  const state = (id: string): WfData['state'] =>
    diff?.addedNodes.includes(id)
      ? 'added'
      : diff?.removedNodes.includes(id)
        ? 'removed'
        : diff?.changedNodes.some((c) => c.id === id)
          ? 'changed'
          : 'same';
  const nodes: FlowNode<WfData>[] = allNodes.map((n) => {
    const d = depth.get(n.id)!;
    const row = perLayer.get(d)!;
    const i = row.indexOf(n.id);
    const fields = diff?.changedNodes.find((c) => c.id === n.id)?.fields;
    return {
      id: n.id,
      type: 'wf',
      position: { x: (i - (row.length - 1) / 2) * 245, y: d * 165 },
      data: { node: n, state: state(n.id), ...(fields ? { fields } : {}) },
      draggable: false,
      connectable: false,
    };
  });
  const edges: FlowEdge[] = allEdges.map(({ e, removed }) => {
    const key = `${e.from}→${e.to}`;
    const added = diff?.addedEdges.includes(key);
    const changed = diff?.changedEdges.includes(key);
    const color = removed
      ? '#dc2626'
      : added
        ? '#16a34a'
        : changed
          ? '#d97706'
          : e.kind === 'data'
            ? '#334155'
            : '#94a3b8';
    const label = [guardText(e, byId), removed ? 'removed' : added ? 'added' : changed ? 'changed' : '']
      .filter(Boolean)
      .join(' · ');
    return {
      id: `${key}${removed ? '-removed' : ''}`,
      source: e.from,
      target: e.to,
      ...(label ? { label } : {}),
      labelStyle: { fontSize: 10 },
      style: {
        stroke: color,
        strokeWidth: e.kind === 'data' ? 2 : 1.5,
        strokeDasharray: e.kind === 'control' ? '6 4' : undefined,
        opacity: removed ? 0.7 : 1,
      },
      markerEnd: { type: MarkerType.ArrowClosed, color },
    };
  });
  return (
    <GraphFrame
      nodes={nodes}
      edges={edges}
      nodeTypes={wfTypes}
      className="wf-box"
      testId={testId ?? 'workflow-graph'}
      maxHeight={900}
    />
  );
}
