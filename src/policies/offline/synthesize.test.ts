import { describe, expect, it } from 'vitest';
import { PROMPT_TEMPLATES } from '../../graph/prompt-templates.js';
import { nodePromptText } from '../../graph/node-prompt.js';
import { synthesizeVariant, type SynthesizeDirective } from '../../graph/synthesize-variants.js';
import type { NodeInput } from '../types.js';
import { answerStyle, DEFAULT_STYLE, synthesizeAnswer } from './synthesize.js';
import { describeCall } from './summarize.js';

const query = 'Find hotels in Aachen, then get reviews for hotel 700022612.';
const hotels =
  "{'itemName': 'Aachen, Germany', 'cityID': 5000335699, 'lat': 50.765881, 'lon': 6.091706, 'type': 'CITY', 'a1': 1, 'a2': 2, 'a3': 3, 'a4': 4, 'a5': 5}";
const reviews = { hotel_name: 'Hilton Memphis', review_rating: 8.2, review_count: 747 };
const failError = 'no recorded response for hotel_reviews_for_priceline_com_provider with {"hotel_id":"1"}';

const inputs: NodeInput[] = [
  { nodeId: 'plan', kind: 'llm', role: 'plan', output: '1. Find hotels', status: 'ok' },
  {
    nodeId: 's1',
    kind: 'tool',
    status: 'ok',
    output: [
      {
        tool: 'search_hotels_locations_for_priceline_com_provider',
        args: { name: 'Aachen' },
        status: 'ok',
        output: hotels,
      },
      {
        tool: 'search_hotels_locations_for_priceline_com_provider',
        args: { name: 'Aachen' },
        status: 'ok',
        output: hotels,
      },
    ],
  },
  { nodeId: 'need_s2', kind: 'llm', role: 'judge', output: { needed: true }, status: 'ok' },
  {
    nodeId: 's2',
    kind: 'tool',
    status: 'ok',
    output: [
      {
        tool: 'hotel_reviews_for_priceline_com_provider',
        args: { hotel_id: '700022612', languages: 'en,fr' },
        status: 'ok',
        output: reviews,
      },
      { tool: 'hotel_reviews_for_priceline_com_provider', args: { hotel_id: '1' }, status: 'error', error: failError },
    ],
  },
  { nodeId: 's3', kind: 'tool', status: 'error', output: [] },
];

/** A synthesize node: a prompt and directives (the role template and none by default). */
type Synth = { prompt: string; directives?: string[] };
const answer = (node: Synth, given: NodeInput[] = inputs) => synthesizeAnswer({ query, inputs: given, node });
const withDirective = (...ids: SynthesizeDirective[]): Synth => ({
  prompt: PROMPT_TEMPLATES.synthesize,
  directives: ids,
});
const template: Synth = { prompt: PROMPT_TEMPLATES.synthesize };

describe('offline synthesizer follows its directives', () => {
  it('renders the role template, and any prompt without directives, the way it always did', () => {
    const expected = [
      'Here is what the tools returned for your request.',
      describeCall({
        tool: 'search_hotels_locations_for_priceline_com_provider',
        args: { name: 'Aachen' },
        status: 'ok',
        output: hotels,
      }),
      describeCall({
        tool: 'search_hotels_locations_for_priceline_com_provider',
        args: { name: 'Aachen' },
        status: 'ok',
        output: hotels,
      }),
      '{"needed":true}',
      describeCall({
        tool: 'hotel_reviews_for_priceline_com_provider',
        args: { hotel_id: '700022612', languages: 'en,fr' },
        status: 'ok',
        output: reviews,
      }),
      describeCall({
        tool: 'hotel_reviews_for_priceline_com_provider',
        args: { hotel_id: '1' },
        status: 'error',
        error: failError,
      }),
      'Step s3 made no call (it failed).',
    ].join('\n\n');
    expect(answer(template)).toBe(expected);
    expect(answer({ prompt: 'Answer {{query}} from the tool results:\n{{inputs}}' })).toBe(expected);
    expect(answerStyle([])).toEqual({ style: DEFAULT_STYLE, directives: [] });
  });

  it('reads the directives field, never the prompt text: the same answer whatever the prompt says, another when the field changes', () => {
    const fields = withDirective('results-only', 'one-fact-per-line');
    const rendered = nodePromptText({ id: 'answer', ...fields });
    const reworded = {
      prompt: 'Write the answer for {{query}} from {{inputs}} as you see fit.',
      directives: fields.directives,
    };
    expect(answer(reworded)).toBe(answer(fields));
    expect(answer(withDirective('results-only'))).not.toBe(answer(fields));
    // A synthesizer written before the field existed, its directive sentences only in its prompt
    // text, answers as the role template does (a model still reads the sentences).
    expect(answer({ prompt: rendered })).toBe(answer(template));
  });

  it('mentions a failed lookup in one short sentence without the error, and drops steps that made no call', () => {
    const text = answer(withDirective('failures-brief'));
    expect(text).toContain('Hotel reviews (priceline com provider) (hotel_id: 1) could not be retrieved.');
    expect(text).not.toContain('no recorded response');
    expect(text).not.toContain('Step s3');
  });

  it('reports only tool results, each once, without planning notes or decisions', () => {
    const text = answer(withDirective('results-only'));
    expect(text).not.toContain('{"needed":true}');
    expect(text.match(/Search hotels locations/g)).toHaveLength(1);
  });

  it('leaves out failed lookups when asked for answered results only, and puts them back for every result', () => {
    expect(answer(withDirective('answered-only'))).not.toMatch(/hotel_id: 1\b|Step s3/);
    expect(answer(withDirective('answered-only', 'every-result'))).toContain('hotel_id: 1');
  });

  it('puts one fact per line, names fields in plain words, and keeps as many facts as the prompt asks', () => {
    const lines = answer(withDirective('one-fact-per-line', 'plain-words'));
    expect(lines).toContain(
      'Hotel reviews (priceline com provider) (hotel id: 700022612, languages: en,fr):\n- hotel name: Hilton Memphis\n- review rating: 8.2\n- review count: 747',
    );
    expect(lines).toContain('- item name: Aachen, Germany');
    const count = (node: Synth) =>
      (
        answer(node)
          .split('\n')
          .find((l) => l.startsWith('Search hotels'))!
          .match(/;/g) ?? []
      ).length + 1;
    expect(count(withDirective('all-figures'))).toBe(10);
    expect(count(withDirective('brief'))).toBe(4);
    // The later of two conflicting directives wins, as a later instruction would.
    expect(count(withDirective('all-figures', 'brief'))).toBe(4);
    expect(count(withDirective('brief', 'all-figures'))).toBe(10);
  });

  it('opens with the key facts when asked to answer first', () => {
    expect(answer(withDirective('answer-first')).split('\n\n')[0]).toBe(
      'In short: Aachen, Germany, 5000335699; Aachen, Germany, 5000335699; Hilton Memphis, 8.2.',
    );
  });

  it('renders every variant of the template library, and never restates the request when nothing came in', () => {
    for (const v of ['answer-first', 'clean', 'fact-lines', 'detailed', 'answered-only', 'brief'] as const) {
      const text = answer(synthesizeVariant(v));
      expect(text, v).toContain('Hilton Memphis');
      expect(text, v).not.toContain('{"needed":true}');
      expect(answer(synthesizeVariant(v), [inputs[0]!]), v).toBe('No tool results came in for this request.');
    }
  });
});
