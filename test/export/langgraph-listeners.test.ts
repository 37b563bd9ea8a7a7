import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../src/graph/schema.js';
import { exportLangGraph } from '../../src/export/to-langgraph.js';
import type { RunContext } from '../../src/runtime/run-state.js';
import type { Trace } from '../../src/runtime/trace.js';
import { createScriptedPolicy } from '../../src/testing/scripted-policy.js';
import { createToolRegistry } from '../../src/tools/registry.js';

/**
 * An exported LangGraph module running a wide fan-out (32 tool nodes, 2 at a time, under the
 * caller's abort signal) prints no MaxListenersExceededWarning: every node waiting for a slot
 * listens to the signal, which is legitimate, not a leak.
 */
const runtimeImport = pathToFileURL(
  fileURLToPath(new URL('../../src/export/langgraph-support.ts', import.meta.url)),
).href;

describe('an exported LangGraph module', () => {
  it('runs a wide fan-out under an abort signal with no listener warning', async () => {
    const names = Array.from({ length: 32 }, (_, i) => `w${String(i).padStart(2, '0')}`);
    const workflow: Workflow = {
      version: 1,
      name: 'wide fan-out',
      nodes: [
        { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan {{query}}', output: { type: 'text' } },
        ...names.map((id) => ({ id, kind: 'tool' as const, task: `Look up ${id}` })),
        {
          id: 'answer',
          kind: 'llm',
          role: 'synthesize',
          prompt: 'Answer {{query}} from {{inputs}}',
          output: { type: 'text' },
        },
      ],
      edges: [
        ...names.map((n) => ({ from: 'plan', to: n, kind: 'data' as const })),
        ...names.map((n) => ({ from: n, to: 'answer', kind: 'data' as const })),
      ],
    };
    const file = join(mkdtempSync(join(tmpdir(), 'flowscout-lg-listeners-')), 'wide.ts');
    writeFileSync(file, exportLangGraph(workflow, { runtimeImport }));
    const { run } = (await import(pathToFileURL(file).href)) as { run: (q: string, c: RunContext) => Promise<Trace> };
    const tool = {
      name: 'lookup',
      description: 'Looks things up.',
      inputSchema: { type: 'object' as const, properties: {} },
      execute: async () => new Promise((r) => setTimeout(() => r({ found: true }), 1)),
    };
    const warnings: string[] = [];
    const onWarning = (e: Error) => warnings.push(`${e.name}: ${e.message}`);
    process.on('warning', onWarning);
    try {
      const trace = await run('q?', {
        policy: createScriptedPolicy({ llm: () => 'ok', tool: () => [{ tool: 'lookup', args: {} }] }),
        tools: createToolRegistry([tool]),
        concurrency: 2,
        signal: new AbortController().signal,
      });
      expect(trace.calls).toHaveLength(32);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((m) => m.includes('MaxListeners'))).toEqual([]);
  });
});
