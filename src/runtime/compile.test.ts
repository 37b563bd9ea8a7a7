import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { stableStringify } from '../contracts/canonical-args.js';
import { createToolRegistry } from '../tools/registry.js';
import { parseWorkflow } from '../graph/validate.js';
import { literal } from './code-text.js';
import { compileWorkflow } from './compile.js';
import type { RunContext } from './run-state.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import type { Trace } from './trace.js';

const runtimeImport = pathToFileURL(fileURLToPath(new URL('./compiled-support.ts', import.meta.url))).href;
const PWN = 'globalThis.__flowscoutPwned = true';

const hostile: Workflow = {
  version: 1,
  name: `evil \`${'${'}${PWN}}\` */ ${PWN}; /*`,
  description: `line1\u2028${PWN}\nline3`,
  nodes: [
    {
      id: 'plan',
      kind: 'llm',
      role: 'plan',
      prompt: `Plan {{query}} */ ${PWN}; /* \n// ${PWN}\r${PWN}\u2029${PWN} \`${'${'}${PWN}}\` "'\\`,
      output: { type: 'text' },
    },
    {
      id: 'judge-1',
      kind: 'llm',
      role: 'judge',
      prompt: '*/',
      output: {
        type: 'json',
        schema: {
          type: 'object',
          properties: { go: { type: 'boolean' }, kind: { type: 'string', enum: ['__proto__', `"); ${PWN}; ("`] } },
        },
      },
    },
    { id: 'judge_1', kind: 'tool', task: `\`${PWN}\` */`, tools: ['t'] },
    {
      id: 'synth',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'Answer {{query}} from {{inputs}}',
      output: { type: 'text' },
    },
  ],
  edges: [
    { from: 'plan', to: 'judge-1', kind: 'data' },
    {
      from: 'judge-1',
      to: 'judge_1',
      kind: 'data',
      when: { kind: 'field', field: 'kind', op: 'eq', value: '__proto__' },
    },
    {
      from: 'judge-1',
      to: 'synth',
      kind: 'control',
      when: { kind: 'field', field: 'kind', op: 'ne', value: '__proto__' },
    },
    { from: 'judge_1', to: 'synth', kind: 'data' },
  ],
  meta: JSON.parse(JSON.stringify({ note: `*/ ${PWN} /*` }).replace('{', '{"__proto__":{"polluted":true},')) as Record<
    string,
    unknown
  >,
};

async function load(workflow: Workflow, name: string) {
  const dir = mkdtempSync(join(tmpdir(), 'flowscout-compile-'));
  const file = join(dir, `${name}.ts`);
  const code = compileWorkflow(workflow, { runtimeImport });
  writeFileSync(file, code);
  const mod = (await import(pathToFileURL(file).href)) as {
    run: (q: string, c: RunContext) => Promise<Trace>;
    WORKFLOW: Workflow;
  };
  return { code, mod };
}

describe('compileWorkflow', () => {
  it('writes one named function per node, prompts as comments and edges as explicit checks', () => {
    const code = compileWorkflow(hostile, { runtimeImport: 'flowscout/runtime' });
    expect(code).toMatch(/^async function node_plan\(wf: WorkflowRun\): Promise<NodeResult> \{$/m);
    expect(code).toMatch(/^async function node_judge_1\(wf: WorkflowRun, r_plan: Promise<NodeResult>\)/m);
    expect(code).toMatch(/^async function node_judge_1_2\(wf: WorkflowRun, r_judge_1: Promise<NodeResult>\)/m);
    expect(code).toContain('// judge-1 → judge_1 (data, when kind eq "__proto__")');
    expect(code).toContain(
      'const e2 = isEdgeLive({ when: {"kind":"field","field":"kind","op":"ne","value":"__proto__"} }, n_judge_1);',
    );
    expect(code).toContain("const e3 = n_judge_1_2.status !== 'skipped';");
    expect(code).toContain('export async function run(query: string, context: RunContext): Promise<Trace> {');
    expect(code).toContain('from "flowscout/runtime";');
    expect(code).not.toMatch(/readFile|\.json['"]/);
  });

  it('keeps hostile strings inside literals and comments: nothing runs, every string survives', async () => {
    const { code, mod } = await load(hostile, 'hostile');
    expect((globalThis as Record<string, unknown>).__flowscoutPwned).toBeUndefined();
    // The IR schema drops an own "__proto__" key when it parses (no prototype pollution); all else survives.
    const parsed = parseWorkflow(hostile);
    expect(parsed.ok && stableStringify(mod.WORKFLOW)).toBe(
      stableStringify({ ...hostile, meta: { note: hostile.meta!.note } }),
    );
    expect(Object.getPrototypeOf(mod.WORKFLOW.meta)).toBe(Object.prototype);
    for (const line of code.split('\n')) {
      if (line.trimStart().startsWith('//')) expect(line).not.toMatch(/\*\/|[\u2028\u2029\r]/);
    }
    expect(code).toContain('//   Plan {{query}} *\\/ globalThis.__flowscoutPwned = true; /*');
    const t = await mod.run('q', {
      policy: createScriptedPolicy({
        llm: (req) => (req.node.id === 'judge-1' ? { go: true, kind: '__proto__' } : 'ok'),
      }),
      tools: createToolRegistry([
        {
          name: 't',
          description: 't',
          inputSchema: { type: 'object', properties: {} },
          execute: async () => 'tool ran',
        },
      ]),
    });
    expect(t.observations.map((o) => [o.nodeId, o.status])).toEqual([
      ['plan', 'ok'],
      ['judge-1', 'ok'],
      ['judge_1', 'ok'],
      ['synth', 'ok'],
    ]);
    expect(t.workflow).toBe(hostile.name);
  });

  it('refuses an invalid workflow with the validation problems', () => {
    expect(() => compileWorkflow({ ...hostile, edges: hostile.edges.slice(1) })).toThrow(/the workflow is not valid/);
  });

  it('embeds an own "__proto__" key through JSON.parse, so it stays a key, not a prototype', () => {
    const value = JSON.parse('{"__proto__":{"x":1},"a":"\u2028"}') as Record<string, unknown>;
    const text = literal(value);
    expect(text.startsWith('JSON.parse(')).toBe(true);
    expect(text).not.toMatch(/[\u2028\u2029]/);
    const back = new Function(`return ${text}`)() as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  });
});
