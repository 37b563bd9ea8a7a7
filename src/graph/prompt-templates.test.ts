import { describe, expect, it } from 'vitest';
import { LLM_ROLES, LlmNodeSchema } from './schema.js';
import { validateWorkflow } from './validate.js';
import { nodePromptText } from './node-prompt.js';
import {
  PLACEHOLDERS,
  PROMPT_TEMPLATES,
  RUNTIME_PLACEHOLDERS,
  makeLlmNode,
  placeholdersIn,
  renderPrompt,
} from './prompt-templates.js';
import {
  SYNTHESIZE_DIRECTIVES,
  SYNTHESIZE_VARIANT_IDS,
  SYNTHESIZE_VARIANTS,
  synthesizeVariant,
  synthesizeVariantOf,
} from './synthesize-variants.js';

describe('PROMPT_TEMPLATES', () => {
  it('has a template per role, using only documented placeholders, each with {{query}}', () => {
    for (const role of LLM_ROLES) {
      const names = placeholdersIn(PROMPT_TEMPLATES[role]);
      expect(
        names.every((n) => n in PLACEHOLDERS),
        role,
      ).toBe(true);
      expect(names, role).toContain('query');
    }
    expect(placeholdersIn(PROMPT_TEMPLATES.synthesize)).toEqual(['query', 'inputs']);
    expect(placeholdersIn(PROMPT_TEMPLATES.judge)).toEqual(['question', 'query', 'inputs', 'field']);
  });
  it('asks the synthesizer for a complete, direct answer that cites the tool results', () => {
    expect(PROMPT_TEMPLATES.synthesize).toMatch(/complete, direct answer/);
    expect(PROMPT_TEMPLATES.synthesize).toMatch(/cite/);
    expect(PROMPT_TEMPLATES.synthesize).toMatch(/instead\s+of inventing/);
  });
});

describe('renderPrompt', () => {
  it('fills placeholders (spaces inside braces allowed) and leaves other braces alone', () => {
    expect(
      renderPrompt('Q: {{ query }} / {{inputs}} / {"a": 1}', { query: 'weather in Paris', inputs: '(none)' }),
    ).toBe('Q: weather in Paris / (none) / {"a": 1}');
  });
  it('renders an LLM node with {query, inputs} the way a policy calls it', () => {
    const node = makeLlmNode('synthesize', 'answer');
    const text = renderPrompt(node, { query: 'Is it raining in Oslo?', inputs: 'get_weather: {"rain_mm": 2.5}' });
    expect(text).toContain('Request: Is it raining in Oslo?');
    expect(text).toContain('get_weather: {"rain_mm": 2.5}');
    expect(placeholdersIn(text)).toEqual([]);
  });
  it('fails clearly on an unknown placeholder', () => {
    expect(() => renderPrompt('Use {{results}}', { query: 'q' })).toThrowErrorMatchingInlineSnapshot(
      `[FlowScoutError: the prompt template uses the unknown placeholder {{results}}; known placeholders: {{query}}, {{inputs}}, {{task}}, {{question}}, {{choices}}, {{field}}]`,
    );
  });
  it('fails clearly on a placeholder without a value, naming the node', () => {
    expect(() =>
      renderPrompt({ id: 'answer', prompt: 'Answer {{query}} from {{inputs}}' }, { query: 'q' }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[FlowScoutError: the prompt of node 'answer' uses {{inputs}} but no value was given for it (given: query)]`,
    );
  });
  it('leaves known placeholders in place when partial', () => {
    expect(renderPrompt('{{task}} for {{query}}', { task: 'Extract the date' }, { partial: true })).toBe(
      'Extract the date for {{query}}',
    );
  });
});

describe('makeLlmNode', () => {
  it('builds a schema-valid node for every role whose prompt keeps only run-time placeholders and its own fields', () => {
    for (const role of LLM_ROLES) {
      const node = makeLlmNode(role, `n_${role}`);
      expect(LlmNodeSchema.safeParse(node).success, role).toBe(true);
      expect(
        placeholdersIn(node.prompt).filter((p) => !RUNTIME_PLACEHOLDERS.includes(p as never)),
        role,
      ).toEqual(role === 'judge' ? ['question'] : []);
    }
    // A judge's question is its field (the default one when none is given); no other role has one.
    expect(makeLlmNode('judge', 'j').question).toBe('Is another lookup needed before the request can be answered?');
    expect(makeLlmNode('reason', 'r', { question: 'Why?' })).not.toHaveProperty('question');
  });
  it('gives a judge JSON output declaring its boolean field, and its question as a field its prompt shows', () => {
    const judge = makeLlmNode('judge', 'needs_forecast', {
      field: 'forecast_needed',
      question: 'Does the request ask about the coming days?',
    });
    expect(judge.output).toEqual({
      type: 'json',
      schema: {
        type: 'object',
        properties: {
          forecast_needed: { type: 'boolean', description: 'Does the request ask about the coming days?' },
        },
        required: ['forecast_needed'],
      },
    });
    expect(judge.question).toBe('Does the request ask about the coming days?');
    expect(judge.prompt.split('\n')[0]).toBe('Answer one yes/no question about this request: {{question}}');
    expect(nodePromptText(judge)).toMatchInlineSnapshot(`
      "Answer one yes/no question about this request: Does the request ask about the coming days?

      Request: {{query}}

      Information so far:
      {{inputs}}

      Reply with a JSON object and nothing else. Set "forecast_needed" to true if the answer is yes and to false if it is no,
      for example {"forecast_needed": true}."
    `);
  });
  it('fills {{task}} for extract, reason and verify', () => {
    expect(makeLlmNode('extract', 'dates', { task: 'the departure date' }).prompt).toContain(
      'What to extract: the departure date',
    );
  });
  it('keeps a given prompt and output', () => {
    const node = makeLlmNode('reason', 'calc', {
      prompt: 'Add the numbers in {{inputs}}',
      output: { type: 'json', schema: { type: 'object', properties: { sum: { type: 'number' } } } },
      model: 'openai:gpt-4o-mini',
    });
    expect(node).toEqual({
      id: 'calc',
      kind: 'llm',
      role: 'reason',
      prompt: 'Add the numbers in {{inputs}}',
      output: { type: 'json', schema: { type: 'object', properties: { sum: { type: 'number' } } } },
      model: 'openai:gpt-4o-mini',
    });
  });
  it('refuses an invalid id or field', () => {
    expect(() => makeLlmNode('plan', '1st plan')).toThrowErrorMatchingInlineSnapshot(
      `[FlowScoutError: cannot build plan node '1st plan': id: must start with a letter or _ and hold only letters, digits, _ and - (at most 64 characters)]`,
    );
    expect(() => makeLlmNode('judge', 'j', { field: 'a.b' })).toThrowErrorMatchingInlineSnapshot(
      `[FlowScoutError: cannot build judge node 'j': field name 'a.b' is not a plain name]`,
    );
  });
  it('builds a workflow that validates from templates alone', () => {
    const w = {
      version: 1,
      name: 'templated',
      nodes: [
        makeLlmNode('plan', 'plan'),
        { id: 'lookup', kind: 'tool', task: 'Look it up' },
        makeLlmNode('judge', 'more', { field: 'more' }),
        makeLlmNode('synthesize', 'answer'),
      ],
      edges: [
        { from: 'plan', to: 'lookup', kind: 'data' },
        { from: 'lookup', to: 'more', kind: 'data' },
        { from: 'more', to: 'answer', kind: 'data', when: { kind: 'field', field: 'more', op: 'falsy' } },
        { from: 'lookup', to: 'answer', kind: 'data' },
      ],
    };
    expect(validateWorkflow(w)).toEqual([]);
  });
});

describe('synthesize variants', () => {
  it('are a prompt and directives that render as a real prompt with the run-time placeholders only, each recognised as itself', () => {
    expect(synthesizeVariant('default')).toEqual({ prompt: PROMPT_TEMPLATES.synthesize, directives: [] });
    for (const v of SYNTHESIZE_VARIANT_IDS) {
      const { prompt, directives } = synthesizeVariant(v);
      const text = nodePromptText({ id: 's', prompt, directives });
      expect(placeholdersIn(text), v).toEqual(['query', 'inputs']);
      expect(directives, v).toEqual([...SYNTHESIZE_VARIANTS[v].directives]);
      expect(synthesizeVariantOf(directives), v).toBe(v);
      // A model reads each directive's sentence, in order, after the variant's own text.
      expect(text, v).toBe([prompt, ...directives.map((d) => `- ${SYNTHESIZE_DIRECTIVES[d].sentence}`)].join('\n'));
    }
    expect(synthesizeVariant('brief').prompt).toMatch(/Follow these instructions:$/);
  });
  it('names a variant by its directives as a set, none for a set no variant has', () => {
    expect(synthesizeVariantOf(['brief', 'failures-brief', 'results-only'])).toBe('brief');
    expect(synthesizeVariantOf(['brief', 'failures-brief'])).toBeUndefined();
    expect(synthesizeVariantOf([])).toBe('default');
  });
});
