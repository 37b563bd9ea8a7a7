import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rejection } from '../../test/support/rejection.js';
import type { Edge, LlmNode, ToolNode, Workflow } from '../graph/schema.js';
import { BudgetExceededError, createBudget } from '../llm/budget.js';
import { createToolRegistry } from '../tools/registry.js';
import type { ToolSpec } from '../contracts/tools.js';
import { compileWorkflow } from './compile.js';
import { executeWorkflow } from './execute.js';
import type { RunContext } from './run-state.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import type { Trace } from './trace.js';

const llm = (id: string, role: LlmNode['role']): LlmNode => ({
  id,
  kind: 'llm',
  role,
  prompt: `${id}: {{query}} {{inputs}}`,
  output: { type: 'text' },
});
const tool = (id: string): ToolNode => ({ id, kind: 'tool', task: `do ${id}`, tools: [id] });
const data = (from: string, to: string): Edge => ({ from, to, kind: 'data' });

/** A tool that counts its calls and answers after `delayMs` (or when the run cancels it). */
function slowTool(name: string, delayMs: number) {
  const seen = { calls: 0, aborted: 0 };
  const spec: ToolSpec = {
    name,
    description: name,
    inputSchema: { type: 'object', properties: {} },
    execute: (_args, ctx) =>
      new Promise((resolve) => {
        seen.calls++;
        const timer = setTimeout(() => resolve({ from: name }), delayMs);
        ctx.signal?.addEventListener('abort', () => {
          seen.aborted++;
          clearTimeout(timer);
          resolve({ from: name, aborted: true });
        });
      }),
  };
  return { spec, seen };
}

/** A scripted policy whose LLM nodes each spend one request of a real budget (as the LLM client does), after thinking for `thinkMs`. */
function budgetedPolicy(maxLlmCalls: number, thinkMs = 0) {
  const budget = createBudget({ maxLlmCalls });
  const answered: string[] = [];
  const policy = createScriptedPolicy({
    llm: async (req) => {
      if (thinkMs) await new Promise((r) => setTimeout(r, thinkMs));
      budget.reserveCall();
      answered.push(req.node.id);
      return `${req.node.id} done`;
    },
  });
  return { policy, answered };
}

// plan → {fetch (tool, slow), check (llm)} → answer
const fanOut: Workflow = {
  version: 1,
  name: 'fan-out',
  nodes: [llm('plan', 'plan'), tool('fetch'), llm('check', 'verify'), llm('answer', 'synthesize')],
  edges: [data('plan', 'fetch'), data('plan', 'check'), data('fetch', 'answer'), data('check', 'answer')],
};

describe('a budget that runs out stops the run', () => {
  it('executeWorkflow rejects with BUDGET_EXHAUSTED instead of recording an error node and going on', async () => {
    const w: Workflow = {
      version: 1,
      name: 'seq',
      nodes: [llm('plan', 'plan'), llm('draft', 'reason'), llm('answer', 'synthesize')],
      edges: [data('plan', 'draft'), data('draft', 'answer')],
    };
    const { policy, answered } = budgetedPolicy(1);
    const e = await rejection(executeWorkflow(w, { query: 'q' }, { policy, tools: createToolRegistry([]) }));
    expect(e).toBeInstanceOf(BudgetExceededError);
    expect(e).toMatchObject({ code: 'BUDGET_EXHAUSTED', message: 'budget exhausted: 1 of 1 model calls used' });
    expect(answered).toEqual(['plan']);
  });

  it('cancels the branch still running and never starts the join', async () => {
    const fetch = slowTool('fetch', 5_000);
    const { policy, answered } = budgetedPolicy(1, 20);
    const e = await rejection(
      executeWorkflow(fanOut, { query: 'q' }, { policy, tools: createToolRegistry([fetch.spec]) }),
    );
    expect(e).toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(answered).toEqual(['plan']);
    expect(fetch.seen).toEqual({ calls: 1, aborted: 1 });
  });

  it('a compiled module rejects the same way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowscout-budget-'));
    const file = join(dir, 'fan-out.ts');
    const runtimeImport = pathToFileURL(fileURLToPath(new URL('./compiled-support.ts', import.meta.url))).href;
    writeFileSync(file, compileWorkflow(fanOut, { runtimeImport }));
    const mod = (await import(pathToFileURL(file).href)) as { run: (q: string, c: RunContext) => Promise<Trace> };
    const fetch = slowTool('fetch', 5_000);
    const { policy, answered } = budgetedPolicy(1);
    const e = await rejection(mod.run('q', { policy, tools: createToolRegistry([fetch.spec]) }));
    expect(e).toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(answered).toEqual(['plan']);
  });

  it('other policy failures are still recorded in the trace and the run goes on', async () => {
    const policy = createScriptedPolicy({
      llm: (req) => {
        if (req.node.id === 'check') throw new Error('model said no');
        return `${req.node.id} done`;
      },
    });
    const t = await executeWorkflow(
      fanOut,
      { query: 'q' },
      { policy, tools: createToolRegistry([slowTool('fetch', 1).spec]) },
    );
    expect(t.status).toBe('ok');
    expect(t.observations.find((o) => o.nodeId === 'check')).toMatchObject({
      status: 'error',
      error: expect.stringContaining('model said no'),
    });
    expect(t.answer).toBe('answer done');
  });
});
