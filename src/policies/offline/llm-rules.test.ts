import { describe, expect, it } from 'vitest';
import { makeLlmNode } from '../../graph/prompt-templates.js';
import { nodePromptText } from '../../graph/node-prompt.js';
import type { LlmNode } from '../../graph/schema.js';
import { runLlmRule } from './llm-rules.js';

// The offline judge reads its node's `question` field, never its prompt text.

const decide = (node: LlmNode, query: string) =>
  runLlmRule(
    {
      query,
      node,
      workflow: { version: 1, name: 'w', nodes: [node], edges: [] },
      inputs: [],
      context: query,
      scratch: new Map(),
    },
    { toolFit: () => 0 },
  );

describe('the offline judge', () => {
  // A generic field name and no description: only the question carries the concept.
  const judge = (question: string): LlmNode => {
    const node = makeLlmNode('judge', 'gate', { field: 'needed', question });
    if (node.output.type === 'json') delete node.output.schema.properties.needed!.description;
    return node;
  };
  const forecast = judge('Does the request ask for a forecast?');

  it('answers from the question field: yes when its concept is in the request', () => {
    expect(decide(forecast, 'Give me the 5-day forecast for Paris')).toEqual({ needed: true });
    expect(decide(forecast, 'Current weather in Paris')).toEqual({ needed: false });
  });

  it('decides the same whatever the prompt says, and otherwise when the question changes', () => {
    const reworded = { ...forecast, prompt: 'Is this step needed for {{query}}? Think of: {{question}}\n{{inputs}}' };
    expect(decide(reworded, 'Give me the 5-day forecast for Paris')).toEqual({ needed: true });
    expect(decide(judge('Does the request ask about hotels?'), 'Give me the 5-day forecast for Paris')).toEqual({
      needed: false,
    });
  });

  it('answers a text judge from its question too', () => {
    const text: LlmNode = { ...forecast, output: { type: 'text' } };
    expect(decide(text, 'The forecast for Oslo, please')).toBe('yes');
    expect(decide(text, 'The weather in Oslo now')).toBe('no');
  });

  it('decides without a question written only into the prompt text (a judge written before the field)', () => {
    const { question: _q, ...rest } = forecast;
    const old: LlmNode = { ...rest, prompt: nodePromptText(forecast) };
    expect(old.prompt).toContain('Does the request ask for a forecast?');
    expect(decide(old, 'Give me the 5-day forecast for Paris')).toEqual({ needed: false });
  });
});
