import type { Edge, Workflow, WorkflowNode } from '../../src/graph/schema.js';
import { createScriptedPolicy } from '../../src/testing/scripted-policy.js';
import type { ToolSpec } from '../../src/contracts/tools.js';
import type { Random } from '../../src/util/random.js';

/**
 * Random valid workflows for the differential tests (compiled module and LangGraph export against
 * the interpreter): layered judges, extractors and tool nodes between a plan and a synthesize node,
 * with guarded (conditional) edges, parallel fan-out, retries and `calls: 'many'`, every string
 * hostile to code generation; a deterministic, order-independent scripted policy; and tools that
 * succeed, fail or return nothing depending on their arguments.
 */

/** Strings that would break naive code generation: template syntax, comment ends, quotes, line separators. */
export const HOSTILE = [
  'back`tick`',
  '${process.exit(1)}',
  'ends */ a comment /* and',
  'it\'s "quoted"',
  'line\nbreak\r\nand\rmore',
  'sep\u2028ara\u2029tors',
  '\\u0000 \\ backslash',
  '</script><!--',
  '__proto__',
  'emoji 🚀 and \u0000 nul',
];
export const TOOL_NAMES = ['t0', 't1', 't2', 't3', 't4'];

export function pick<T>(r: Random, list: readonly T[]): T {
  return list[r.int(list.length)]!;
}

/** A valid random workflow: layered middle nodes (judges, extractors, tool nodes) between plan and synthesize. */
export function generateWorkflow(r: Random, n: number): Workflow {
  const judgeKinds = [pick(r, HOSTILE), pick(r, HOSTILE), 'plain'].filter((v, i, a) => a.indexOf(v) === i);
  const mids: WorkflowNode[] = [];
  const count = 2 + r.int(8);
  const letters = r.shuffle(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
  for (let k = 0; k < count; k++) {
    const id = `${letters[k]}${r.int(2) ? '-' : '_'}${k}`;
    const kind = r.int(10);
    if (kind < 3) {
      mids.push({
        id,
        kind: 'llm',
        role: 'judge',
        prompt: `Judge ${pick(r, HOSTILE)} {{inputs}}`,
        output: {
          type: 'json',
          schema: {
            type: 'object',
            properties: { go: { type: 'boolean' }, kind: { type: 'string', enum: judgeKinds } },
            required: ['go', 'kind'],
          },
        },
      });
    } else if (kind < 5) {
      mids.push({
        id,
        kind: 'llm',
        role: 'extract',
        prompt: `Extract ${pick(r, HOSTILE)} from {{inputs}}`,
        output: { type: 'text' },
      });
    } else {
      const hint = r.shuffle(TOOL_NAMES).slice(0, 1 + r.int(3));
      mids.push({
        id,
        kind: 'tool',
        task: `Task ${pick(r, HOSTILE)}`,
        ...(r.int(3) ? { tools: hint } : {}),
        ...(r.int(3) === 0 ? { calls: 'many' as const } : {}),
        ...(r.int(3) === 0
          ? { retry: { attempts: 1 + r.int(3), on: pick(r, ['error', 'error-or-empty'] as const) } }
          : {}),
      });
    }
  }
  const nodes: WorkflowNode[] = [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: `Plan ${pick(r, HOSTILE)}: {{query}}`, output: { type: 'text' } },
    ...mids,
    {
      id: 'synth',
      kind: 'llm',
      role: 'synthesize',
      prompt: `Answer {{query}} ${pick(r, HOSTILE)} from {{inputs}}`,
      output: { type: 'text' },
    },
  ];
  const edges: Edge[] = [];
  const has = new Set<string>();
  const add = (from: WorkflowNode, to: WorkflowNode) => {
    if (has.has(`${from.id}>${to.id}`)) return;
    has.add(`${from.id}>${to.id}`);
    const e: Edge = { from: from.id, to: to.id, kind: r.int(5) === 0 ? 'control' : 'data' };
    if (from.kind === 'llm' && from.role === 'judge' && r.int(5) < 3) {
      const g = r.int(3);
      e.when =
        g === 0
          ? { kind: 'field', field: 'go', op: 'eq', value: r.int(2) === 0 }
          : g === 1
            ? { kind: 'field', field: 'kind', op: 'in', value: [pick(r, judgeKinds)] }
            : { kind: 'field', field: 'kind', op: 'ne', value: pick(r, judgeKinds) };
    } else if (from.kind === 'tool' && r.int(4) === 0) {
      e.when = { kind: 'status', status: r.int(2) ? 'ok' : 'error' };
    }
    edges.push(e);
  };
  mids.forEach((m, k) => {
    const earlier = [nodes[0]!, ...mids.slice(0, k)];
    for (let j = 0, want = 1 + r.int(2); j < want; j++) add(pick(r, earlier), m);
  });
  mids.forEach((m, k) => {
    const hasOut = edges.some((e) => e.from === m.id);
    if (!hasOut || r.int(3) === 0)
      add(m, k + 1 < mids.length && r.int(2) ? mids[k + 1 + r.int(mids.length - k - 1)]! : nodes[nodes.length - 1]!);
  });
  if (r.int(3) === 0) add(nodes[0]!, nodes[nodes.length - 1]!);
  return { version: 1, name: `generated ${n} ${pick(r, HOSTILE)}`, description: pick(r, HOSTILE), nodes, edges };
}

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Deterministic and order-independent: every decision is a hash of what the node sees. */
export const scriptedPolicy = createScriptedPolicy({
  llm: (req) => {
    const sig = hash(`${req.node.id}|${req.context}`);
    if (req.node.output.type === 'json') {
      const kinds = (req.node.output.schema.properties.kind?.enum as string[] | undefined) ?? ['plain'];
      return { go: sig % 2 === 0, kind: kinds[sig % kinds.length]! };
    }
    if (sig % 11 === 0) throw new Error(`model refused ${HOSTILE[sig % HOSTILE.length]}`);
    return `${req.node.id}:${sig % 1000} ${HOSTILE[sig % HOSTILE.length]}`;
  },
  tool: (req) => {
    const sig = hash(`${req.node.id}|${req.attempt}|${req.previousError ?? ''}|${req.context}`);
    const count = req.node.calls === 'many' ? sig % 4 : 1;
    return Array.from({ length: count }, (_, j) => ({
      tool: req.candidates[(sig + j) % req.candidates.length]!.name,
      args: { x: (sig >> (j * 3)) % 6, s: HOSTILE[(sig >> j) % HOSTILE.length] },
    }));
  },
});

export const scriptedTools: ToolSpec[] = TOOL_NAMES.map((name) => ({
  name,
  description: `tool ${name}`,
  inputSchema: { type: 'object', properties: { x: { type: 'number' }, s: { type: 'string' } } },
  execute: async (args) => {
    if (args.x === 5) throw new Error(`${name} failed on ${String(args.s)}`);
    if (args.x === 4) return [];
    return { tool: name, x: args.x, echo: args.s };
  },
}));
