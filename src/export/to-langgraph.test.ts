import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { executeWorkflow } from '../runtime/execute.js';
import type { RunContext } from '../runtime/run-state.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import type { Trace } from '../runtime/trace.js';
import { createToolRegistry } from '../tools/registry.js';
import { exportLangGraph } from './to-langgraph.js';

const runtimeImport = pathToFileURL(fileURLToPath(new URL('./langgraph-support.ts', import.meta.url))).href;
const fixture = (name: string) =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../test/fixtures/workflows/valid/${name}`, import.meta.url)), 'utf8'),
  ) as Workflow;
const dir = mkdtempSync(join(tmpdir(), 'flowscout-to-langgraph-'));

describe('exportLangGraph', () => {
  it('writes one addNode per workflow node, a waiting edge per node with sources, and the retry as its retryPolicy', () => {
    const code = exportLangGraph(fixture('retry.json'));
    expect(code.match(/^ {4}\.addNode\(/gm)).toHaveLength(3 + 2);
    expect(code).toContain('.addNode("search", node_search, { retryPolicy: steps.retryPolicy("search") })');
    expect(code).toContain('.addEdge(["plan"], "search")');
    expect(code).toContain('// tools: any of T · calls: one · retry: 3 attempts on error-or-empty');
    const parallel = exportLangGraph(fixture('parallel.json'));
    expect(parallel).toMatch(/\.addEdge\(\["[a-z_]+","[a-z_]+"\], "[a-z_]+"\)/);
  });

  it('renames nodes whose ids LangGraph or a state channel already use, and runs them like the interpreter', async () => {
    const workflow: Workflow = {
      version: 1,
      name: 'colliding ids',
      nodes: [
        { id: 'query', kind: 'llm', role: 'plan', prompt: 'Plan {{query}}', output: { type: 'text' } },
        { id: 'results', kind: 'tool', task: 'Look it up', calls: 'many' },
        { id: 'trace', kind: 'tool', task: 'Look it up again' },
        {
          id: 'answer',
          kind: 'llm',
          role: 'synthesize',
          prompt: 'Answer {{query}} from {{inputs}}',
          output: { type: 'text' },
        },
      ],
      edges: [
        { from: 'query', to: 'results', kind: 'data' },
        { from: 'query', to: 'trace', kind: 'data' },
        { from: 'results', to: 'answer', kind: 'data' },
        { from: 'trace', to: 'answer', kind: 'data' },
      ],
    };
    const code = exportLangGraph(workflow, { runtimeImport });
    for (const id of ['query', 'results', 'trace', 'answer'])
      expect(code).toContain(`.addNode("${id}_node", node_${id}`);
    const file = join(dir, 'colliding.ts');
    writeFileSync(file, code);
    const { run } = (await import(pathToFileURL(file).href)) as { run: (q: string, c: RunContext) => Promise<Trace> };
    const tool = {
      name: 'lookup',
      description: 'Looks things up.',
      inputSchema: { type: 'object' as const, properties: {} },
      execute: async () => ({ found: true }),
    };
    const context = () => ({
      policy: createScriptedPolicy({
        tool: (req) => [
          { tool: req.candidates[0]!.name, args: {} },
          { tool: 'lookup', args: { again: 1 } },
        ],
      }),
      tools: createToolRegistry([tool]),
    });
    const viaGraph = await run('q?', context());
    const interpreted = await executeWorkflow(workflow, { query: 'q?' }, context());
    expect(viaGraph.calls).toEqual(interpreted.calls);
    expect(viaGraph.calls).toHaveLength(3);
    expect(viaGraph.answer).toBe(interpreted.answer);
    expect(viaGraph.observations.map((o) => o.nodeId)).toEqual(['query', 'results', 'trace', 'answer']);
  });

  it('refuses an invalid workflow, naming the file and every problem', () => {
    const broken = { ...fixture('linear.json'), edges: [] };
    expect(() => exportLangGraph(broken, { source: 'broken.json' })).toThrow(/broken\.json/);
  });
});
