import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { learnedLine } from './learned-note.js';

const workflow = (tool: Record<string, unknown> = {}): Workflow =>
  ({
    version: 1,
    name: 'w',
    nodes: [
      { id: 'plan', kind: 'llm', role: 'plan', prompt: 'p', output: { type: 'text' } },
      { id: 't', kind: 'tool', task: 'look up', ...tool },
      { id: 'answer', kind: 'llm', role: 'synthesize', prompt: 's', output: { type: 'text' } },
    ],
    edges: [],
  }) as Workflow;

describe('the line run and eval print about what the offline policy decides with', () => {
  it('counts the bindings and hints the workflow carries, and says when it carries none', () => {
    const learned = workflow({
      bind: [{ tool: 'a', param: 'x', source: { from: 'const', value: 1 } }],
      hints: [{ tool: 'a' }, { tool: 'b' }],
    });
    expect(learnedLine('offline', learned)).toBe(
      "offline policy: decides from the request, the tools and the workflow's 1 binding and 2 tool hints",
    );
    expect(learnedLine('offline', workflow())).toContain('the tool descriptions alone');
    expect(learnedLine('llm', learned)).toBeUndefined();
  });

  it("says that an older workflow's own table is no longer read", () => {
    const line = learnedLine('offline', workflow(), { learned: { offline: { records: 56 } } });
    expect(line).toContain('no longer read: run the search again');
  });
});
