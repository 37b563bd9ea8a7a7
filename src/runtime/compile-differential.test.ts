import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Edge, Workflow, WorkflowNode } from '../graph/schema.js';
import { validateWorkflow } from '../graph/validate.js';
import { createToolRegistry } from '../tools/registry.js';
import type { ToolSpec } from '../contracts/tools.js';
import { createRandom, type Random } from '../util/random.js';
import { compileWorkflow } from './compile.js';
import { executeWorkflow } from './execute.js';
import type { RunContext } from './run-state.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import type { Trace } from './trace.js';

/** Strings that would break naive code generation: template syntax, comment ends, quotes, line separators. */
const HOSTILE = ['back`tick`', '${process.exit(1)}', 'ends */ a comment /* and', "it's \"quoted\"", 'line\nbreak\r\nand\rmore', 'sep\u2028ara\u2029tors', '\\u0000 \\ backslash', '</script><!--', '__proto__', 'emoji 🚀 and \u0000 nul'];
const TOOL_NAMES = ['t0', 't1', 't2', 't3', 't4'];

function pick<T>(r: Random, list: readonly T[]): T {
  return list[r.int(list.length)]!;
}

/** A valid random workflow: layered middle nodes (judges, extractors, tool nodes) between plan and synthesize. */
function generateWorkflow(r: Random, n: number): Workflow {
  const judgeKinds = [pick(r, HOSTILE), pick(r, HOSTILE), 'plain'].filter((v, i, a) => a.indexOf(v) === i);
  const mids: WorkflowNode[] = [];
  const count = 2 + r.int(8);
  const letters = r.shuffle(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
  for (let k = 0; k < count; k++) {
    const id = `${letters[k]}${r.int(2) ? '-' : '_'}${k}`;
    const kind = r.int(10);
    if (kind < 3) {
      mids.push({ id, kind: 'llm', role: 'judge', prompt: `Judge ${pick(r, HOSTILE)} {{inputs}}`, output: { type: 'json', schema: { type: 'object', properties: { go: { type: 'boolean' }, kind: { type: 'string', enum: judgeKinds } }, required: ['go', 'kind'] } } });
    } else if (kind < 5) {
      mids.push({ id, kind: 'llm', role: 'extract', prompt: `Extract ${pick(r, HOSTILE)} from {{inputs}}`, output: { type: 'text' } });
    } else {
      const hint = r.shuffle(TOOL_NAMES).slice(0, 1 + r.int(3));
      mids.push({
        id,
        kind: 'tool',
        task: `Task ${pick(r, HOSTILE)}`,
        ...(r.int(3) ? { tools: hint } : {}),
        ...(r.int(3) === 0 ? { calls: 'many' as const } : {}),
        ...(r.int(3) === 0 ? { retry: { attempts: 1 + r.int(3), on: pick(r, ['error', 'error-or-empty'] as const) } } : {}),
      });
    }
  }
  const nodes: WorkflowNode[] = [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: `Plan ${pick(r, HOSTILE)}: {{query}}`, output: { type: 'text' } },
    ...mids,
    { id: 'synth', kind: 'llm', role: 'synthesize', prompt: `Answer {{query}} ${pick(r, HOSTILE)} from {{inputs}}`, output: { type: 'text' } },
  ];
  const edges: Edge[] = [];
  const has = new Set<string>();
  const add = (from: WorkflowNode, to: WorkflowNode) => {
    if (has.has(`${from.id}>${to.id}`)) return;
    has.add(`${from.id}>${to.id}`);
    const e: Edge = { from: from.id, to: to.id, kind: r.int(5) === 0 ? 'control' : 'data' };
    if (from.kind === 'llm' && from.role === 'judge' && r.int(5) < 3) {
      const g = r.int(3);
      e.when = g === 0 ? { kind: 'field', field: 'go', op: 'eq', value: r.int(2) === 0 } : g === 1 ? { kind: 'field', field: 'kind', op: 'in', value: [pick(r, judgeKinds)] } : { kind: 'field', field: 'kind', op: 'ne', value: pick(r, judgeKinds) };
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
    if (!hasOut || r.int(3) === 0) add(m, k + 1 < mids.length && r.int(2) ? mids[k + 1 + r.int(mids.length - k - 1)]! : nodes[nodes.length - 1]!);
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
const policy = createScriptedPolicy({
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
    return Array.from({ length: count }, (_, j) => ({ tool: req.candidates[(sig + j) % req.candidates.length]!.name, args: { x: (sig >> (j * 3)) % 6, s: HOSTILE[(sig >> j) % HOSTILE.length] } }));
  },
});

const tools: ToolSpec[] = TOOL_NAMES.map((name) => ({
  name,
  description: `tool ${name}`,
  inputSchema: { type: 'object', properties: { x: { type: 'number' }, s: { type: 'string' } } },
  execute: async (args) => {
    if (args.x === 5) throw new Error(`${name} failed on ${String(args.s)}`);
    if (args.x === 4) return [];
    return { tool: name, x: args.x, echo: args.s };
  },
}));

function stripTimings(t: Trace): unknown {
  return JSON.parse(JSON.stringify(t, (k, v: unknown) => (k === 'durationMs' || k === 'startedAtMs' ? undefined : v)));
}

const runtimeImport = pathToFileURL(fileURLToPath(new URL('./compiled-support.ts', import.meta.url))).href;

describe('compiled modules against the interpreter', () => {
  it('produce identical traces over 60 generated workflows with hostile strings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowscout-compiled-'));
    const r = createRandom('differential-v1');
    const seen = { skipped: 0, errors: 0, retries: 0, many: 0, calls: 0 };
    for (let n = 0; n < 60; n++) {
      const workflow = generateWorkflow(r, n);
      expect(validateWorkflow(workflow)).toEqual([]);
      const file = join(dir, `workflow-${n}.ts`);
      writeFileSync(file, compileWorkflow(workflow, { runtimeImport }));
      const mod = (await import(pathToFileURL(file).href)) as { run: (q: string, c: RunContext) => Promise<Trace> };
      for (const query of [`query ${n}`, pick(r, HOSTILE)]) {
        const registry = createToolRegistry(tools);
        const opts = { policy, tools: registry, concurrency: 1 + r.int(4) };
        const interpreted = await executeWorkflow(workflow, { query, recordId: `r${n}` }, opts);
        const compiled = await mod.run(query, { ...opts, recordId: `r${n}` });
        expect(interpreted.workflowHash).toMatch(/^[0-9a-f]{64}$/);
        expect(stripTimings(compiled)).toEqual(stripTimings(interpreted));
        seen.skipped += interpreted.totals.skipped;
        seen.errors += interpreted.observations.filter((o) => o.status === 'error').length;
        seen.retries += interpreted.observations.filter((o) => o.attempts > 1).length;
        seen.many += interpreted.observations.filter((o) => (o.calls?.filter((c) => c.attempt === o.attempts).length ?? 0) > 1).length;
        seen.calls += interpreted.calls.length;
      }
    }
    // The generator must exercise the rules, or the comparison proves little.
    expect(seen.skipped).toBeGreaterThan(20);
    expect(seen.errors).toBeGreaterThan(10);
    expect(seen.retries).toBeGreaterThan(5);
    expect(seen.many).toBeGreaterThan(5);
    expect(seen.calls).toBeGreaterThan(100);
  });
});
