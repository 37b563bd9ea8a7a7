import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { planToolAnswer } from '../../test/support/workflows.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import { createToolRegistry } from '../tools/registry.js';
import { executeWorkflow } from './execute.js';
import { boundOutput, DEFAULT_MAX_OUTPUT_CHARS, OUTPUT_CUT_MARKER } from './output-bound.js';
import { traceToJson } from './trace-file.js';

/** A tool output of ten megabytes leaves a trace of bounded size that says where it was cut. */

const TEN_MB = 10 * 1024 * 1024;

const workflow: Workflow = planToolAnswer({
  name: 'dump',
  plan: { prompt: 'plan {{query}}' },
  tool: { id: 'dump', task: 'dump the table', tools: ['dump_table'] },
  answer: { prompt: 'answer {{query}} from {{inputs}}' },
});

function run(output: () => unknown, maxOutputChars?: number) {
  const tools = createToolRegistry([
    {
      name: 'dump_table',
      description: 'Dumps the whole table.',
      inputSchema: { type: 'object', properties: {} },
      effect: { effect: 'read', from: 'test' },
      execute: async () => output(),
    },
  ]);
  const policy = createScriptedPolicy({ llm: () => 'done', tool: () => [{ tool: 'dump_table', args: {} }] });
  return executeWorkflow(
    workflow,
    { query: 'dump the table' },
    { policy, tools, ...(maxOutputChars !== undefined ? { maxOutputChars } : {}) },
  );
}

describe('tool outputs are bounded by the run', () => {
  it('keeps the first maxOutputChars characters of a 10 MB text output and says where and how much was cut', async () => {
    const trace = await run(() => 'r'.repeat(TEN_MB));
    const out = trace.calls[0]!.output as string;
    expect(typeof out).toBe('string');
    expect(out.startsWith('r'.repeat(DEFAULT_MAX_OUTPUT_CHARS))).toBe(true);
    expect(out.slice(DEFAULT_MAX_OUTPUT_CHARS)).toBe(
      `${OUTPUT_CUT_MARKER}: the output was ${TEN_MB} characters of text; characters ${DEFAULT_MAX_OUTPUT_CHARS + 1}–${TEN_MB} (${TEN_MB - DEFAULT_MAX_OUTPUT_CHARS}) were cut here; the limit is ${DEFAULT_MAX_OUTPUT_CHARS} characters per output (maxOutputChars, --max-output-chars)]`,
    );
    // The trace as written holds the output once, cut: far below one copy of what the tool returned.
    const json = traceToJson(trace);
    expect(json.length).toBeLessThan(DEFAULT_MAX_OUTPUT_CHARS + 20_000);
    expect(json.split(OUTPUT_CUT_MARKER).length - 1).toBe(1);
  });

  it('cuts a 10 MB JSON output to the text of its first characters, marked; maxOutputChars overrides the limit', async () => {
    const rows = Array.from({ length: TEN_MB / 100 }, (_, i) => ({ id: i, text: 'x'.repeat(80) }));
    const full = JSON.stringify(rows).length;
    const trace = await run(() => rows, 5_000);
    const out = trace.calls[0]!.output as string;
    expect(out.startsWith(JSON.stringify(rows).slice(0, 5_000))).toBe(true);
    expect(out.slice(5_000)).toContain(`the output was ${full} characters of JSON; characters 5001–${full}`);
    expect(out.length).toBeLessThan(5_300);
    expect(trace.observations.find((o) => o.nodeId === 'dump')!.calls![0]!.output).toBe(out);
  });

  it('keeps outputs within the limit as they are, and never splits a character written as a surrogate pair', () => {
    const small = { id: 1, rows: ['a', 'b'] };
    expect(boundOutput(small, 1_000)).toBe(small);
    expect(boundOutput('short', 10)).toBe('short');
    const cut = boundOutput(`ab${'😀'.repeat(10)}`, 3) as string;
    expect(cut.startsWith(`ab${OUTPUT_CUT_MARKER}`)).toBe(true);
  });
});
