import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../contracts/tools.js';
import { renderPlanPrompt } from './llm-prompts.js';
import { DESCRIPTION_CHARS, parameterLine, parameterLines, renderToolDoc, toolSummary } from './tool-doc.js';

const ENDPOINT =
  'Listings by market: Retrieves listing ids and their last update times in a market, filterable by bedrooms.';
const API_WIDE =
  'Part of Listings API: access all listings data updated daily. '.repeat(8).trim() +
  '\nWe answer every inquiry within 24 hours.';

const listings: ToolDescriptor = {
  name: 'listings_by_market',
  description: `${ENDPOINT}\n${API_WIDE}`,
  inputSchema: {
    type: 'object',
    properties: {
      market: { type: 'string', default: 'Tenerife' },
      offset: { type: 'number', description: 'index to start from', default: 0 },
      sort: { type: 'string', enum: ['price', 'rating'] },
    },
    required: ['market', 'offset'],
  },
};

describe('renderToolDoc', () => {
  it('shows the name, the description up to the text every endpoint repeats, and one line per parameter', () => {
    expect(renderToolDoc(listings)).toBe(
      [
        '### listings_by_market',
        `${ENDPOINT} …`,
        'Parameters:',
        '- market (string, required): default "Tenerife"',
        '- offset (number, required): index to start from; default 0',
        '- sort (string): one of "price", "rating"',
      ].join('\n'),
    );
  });

  it('is shorter than the description and the JSON schema it replaces', () => {
    const before = `### ${listings.name}\n${listings.description}\nInput schema: ${JSON.stringify(listings.inputSchema)}`;
    expect(renderToolDoc(listings).length).toBeLessThan(before.length / 2);
  });

  it('shows a short description whole, every line of it', () => {
    const doc = renderToolDoc({
      name: 'read_file',
      description: 'Reads a file.\n\nOnly paths inside the allowed folders work.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    });
    expect(doc).toBe(
      '### read_file\nReads a file.\n\nOnly paths inside the allowed folders work.\nParameters:\n- path (string, required)',
    );
  });

  it('says when a tool takes no parameters', () => {
    expect(renderToolDoc({ name: 'now', description: 'The time.', inputSchema: { type: 'object' } })).toBe(
      '### now\nThe time.\nParameters: none',
    );
  });
});

describe('toolSummary', () => {
  it('cuts a first line longer than the budget at a word boundary and marks the cut', () => {
    const long = 'word '.repeat(200).trim();
    const s = toolSummary(long);
    expect(s.endsWith('word …')).toBe(true);
    expect(s.length).toBeLessThanOrEqual(DESCRIPTION_CHARS + 2);
    expect(s).not.toMatch(/wor …$|w …$/);
  });

  it('keeps whole lines while they fit and drops the rest', () => {
    expect(toolSummary('First line.\nSecond line.\nThird line.', 25)).toBe('First line.\nSecond line. …');
    expect(toolSummary('First line.  \n\n\nSecond line.\n', 25)).toBe('First line.\n\nSecond line.');
  });
});

describe('parameter lines', () => {
  it('keeps what the words cannot say as compact JSON: nested objects, item schemas, ranges', () => {
    expect(
      parameterLine(
        'filters',
        {
          type: 'object',
          description: 'what to match',
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
        true,
      ),
    ).toBe(
      '- filters (object, required): what to match; {"properties":{"city":{"type":"string"}},"required":["city"]}',
    );
    expect(parameterLine('ids', { type: 'array', items: { type: 'integer' } }, false)).toBe('- ids (array of integer)');
    expect(
      parameterLine(
        'rooms',
        { type: 'array', items: { type: 'object', properties: { n: { type: 'number' } } } },
        false,
      ),
    ).toBe('- rooms (array): {"items":{"type":"object","properties":{"n":{"type":"number"}}}}');
    expect(parameterLine('limit', { type: 'integer', minimum: 1, maximum: 50 }, false)).toBe(
      '- limit (integer): {"minimum":1,"maximum":50}',
    );
    expect(parameterLine('when', { anyOf: [{ type: 'string' }, { type: 'number' }] }, true)).toBe(
      '- when (required): {"anyOf":[{"type":"string"},{"type":"number"}]}',
    );
  });

  it("puts a multi-line description on one line and leaves out a title that only restates the parameter's name", () => {
    expect(
      parameterLine(
        'max_results',
        { type: 'integer', title: 'Max Results', description: 'at most\n  this many' },
        false,
      ),
    ).toBe('- max_results (integer): at most this many');
    expect(parameterLine('q', { type: 'string', title: 'Search text' }, false)).toBe(
      '- q (string): {"title":"Search text"}',
    );
  });

  it("keeps the schema's other keywords and lists a required name the properties do not declare", () => {
    expect(
      parameterLines({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { a: { type: 'string' } },
        required: ['a', 'b'],
        additionalProperties: false,
      }),
    ).toEqual([
      'Parameters:',
      '- a (string, required)',
      '- b (required)',
      'Schema also: {"additionalProperties":false}',
    ]);
  });
});

describe('the plan prompt', () => {
  it('lists the candidates with their parameter lines in the stable part, before the request', () => {
    const prompt = renderPlanPrompt({ id: 'find', kind: 'tool', task: 'Find listings' }, [listings], {
      query: 'Listings in Tenerife?',
      inputs: [],
      context: 'Listings in Tenerife?',
    });
    expect(prompt).toContain(`Candidate tools:\n${renderToolDoc(listings)}`);
    expect(prompt).not.toContain('Input schema');
    expect(prompt.indexOf('- offset (number, required)')).toBeLessThan(prompt.indexOf('Listings in Tenerife?'));
  });
});
