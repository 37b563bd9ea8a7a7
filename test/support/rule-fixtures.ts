import type { ToolDescriptor } from '../../src/contracts/tools.js';
import type { FeedbackPattern } from '../../src/evaluate/feedback-types.js';
import type { Workflow } from '../../src/graph/schema.js';

/**
 * What the rule optimizer's tests read: four tools of one symbol parameter, plan → two steps →
 * synthesize, and the two feedback patterns most of them start from (step s1 calls `quote` where the
 * references call other tools, and calls it too often).
 */
export const ruleTools = (more = ''): ToolDescriptor[] =>
  ['quote', 'news', 'fx', 'history'].map((name) => ({
    name,
    description: `Returns the ${name} of a symbol.${more}`,
    inputSchema: { type: 'object', properties: { symbol: { type: 'string' } } },
  }));

/** plan → s1 (`s1Task`, calls: many) → s2 → synthesize; `shortcut` adds a data edge s1 → synthesize. */
export function twoSteps(s1Task: string, shortcut = false): Workflow {
  return {
    version: 1,
    name: 'w',
    nodes: [
      { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan {{query}}', output: { type: 'text' } },
      { id: 's1', kind: 'tool', task: s1Task, calls: 'many' },
      { id: 's2', kind: 'tool', task: 'Step 2' },
      {
        id: 'synthesize',
        kind: 'llm',
        role: 'synthesize',
        prompt: 'Answer {{query}} from {{inputs}}',
        output: { type: 'text' },
      },
    ],
    edges: [
      { from: 'plan', to: 's1', kind: 'data' },
      { from: 's1', to: 's2', kind: 'data' },
      { from: 's2', to: 'synthesize', kind: 'data' },
      ...(shortcut ? [{ from: 's1', to: 'synthesize', kind: 'data' as const }] : []),
    ],
  };
}

/** A tool name with a count, as feedback patterns list them. */
export const c = (name: string, count: number) => ({ name, count });

/** Step s1 calls `quote` where the references call fx, news and history, and 12 of its 20 calls are extra. */
export const s1Patterns = (): FeedbackPattern[] => [
  {
    kind: 'wrong-tool',
    node: 's1',
    got: [c('quote', 9)],
    expected: [c('fx', 4), c('news', 3), c('history', 2)],
    evidence: 9,
    text: '',
  },
  {
    kind: 'extra-calls',
    node: 's1',
    extra: 12,
    calls: 20,
    usefulIn: 6,
    tools: [c('quote', 12)],
    evidence: 8,
    text: '',
  },
];
