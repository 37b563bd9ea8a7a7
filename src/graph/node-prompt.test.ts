import { describe, expect, it } from 'vitest';
import { choiceLines, choiceValues, nodePromptText } from './node-prompt.js';
import type { Choices } from './schema.js';

const CHOICES: Choices = {
  field: 'route',
  options: [
    {
      value: 'route_1',
      tools: ['search_flights', 'flight_status'],
      about: 'Search flights;  Status of one flight.',
      asks: ['flights', 'status'],
    },
    { value: 'route_2', tools: [], about: 'Nothing to look up' },
    { value: 'route_3', tools: ['search_hotels'] },
  ],
  otherwise: 'other',
};

describe('choiceLines', () => {
  it('writes one line per option (tools in order, or that it makes no call; its words when it has them), then the value for no fit', () => {
    expect(choiceLines(CHOICES)).toEqual([
      '- route_1: calls search_flights → flight_status. About: Search flights; Status of one flight. Keywords: flights, status.',
      '- route_2: makes no call. About: Nothing to look up.',
      '- route_3: calls search_hotels.',
      '- other: none of the above.',
    ]);
    expect(choiceValues(CHOICES)).toEqual(['route_1', 'route_2', 'route_3', 'other']);
    const { otherwise: _none, ...withoutOtherwise } = CHOICES;
    expect(choiceLines(withoutOtherwise)).toHaveLength(3);
  });
});

describe('nodePromptText', () => {
  it("renders a judge's question and choices into its placeholders and leaves the per-request ones", () => {
    const text = nodePromptText({
      id: 'route',
      prompt: 'Pick a route: {{question}}\n\nRequest: {{query}}\n\nRoutes:\n{{choices}}',
      question: 'Which steps does it need?',
      choices: CHOICES,
    });
    expect(text).toBe(
      [
        'Pick a route: Which steps does it need?',
        '',
        'Request: {{query}}',
        '',
        'Routes:',
        ...choiceLines(CHOICES),
      ].join('\n'),
    );
  });
  it("appends a synthesizer's directive sentences in their order", () => {
    expect(
      nodePromptText({ id: 's', prompt: 'Answer {{query}} from {{inputs}}.', directives: ['brief', 'results-only'] }),
    ).toBe(`Answer {{query}} from {{inputs}}.
- Be brief: give at most the four most important facts of each result.
- Use only the tool results, each result once; leave out planning notes and yes/no decisions.`);
  });
  it('renders a prompt without fields (a workflow written before them) as it is written', () => {
    const prompt =
      'Choose the route.\n\nRequest: {{query}}\n\nRoutes:\n- route_1: calls a → b. About: x. Keywords: y.\n- other: none of the routes above.';
    expect(nodePromptText({ id: 'route', prompt })).toBe(prompt);
  });
});
