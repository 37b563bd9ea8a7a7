import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../contracts/tools.js';
import { createToolIndex } from './tool-index.js';

const tool = (name: string, description: string): ToolDescriptor => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

describe('tool index', () => {
  it('ranks a tool whose run-together name says what the request asks for above one whose separated name only shares words', () => {
    // Names and descriptions as a RapidAPI-style tool set writes them (after TRAJECT-Bench's Travel tools).
    const tools = [
      tool(
        'usacitieslist_for_gas_price',
        'usaCitiesList: Retrieves a list of cities with gasoline and diesel price information across the USA.',
      ),
      tool(
        'get_cities_list_for_cities_cost_of_living',
        'Get Cities List: Retrieves a comprehensive list of all available cities in the database, worldwide.',
      ),
    ];
    const ranked = createToolIndex(tools).rank(
      'Could you first show me a list of USA cities?',
      tools.map((t) => t.name),
    );
    expect(ranked[0]?.name).toBe('usacitieslist_for_gas_price');
  });

  it('ranks a part by what it asks for, not by the words of the value it quotes', () => {
    const tools = [
      tool('search_news', 'Search news articles for a keyword.'),
      tool('ai_news', 'The latest AI news from AI companies: AI investment and AI shareholders.'),
    ];
    const names = tools.map((t) => t.name);
    const index = createToolIndex(tools);
    expect(index.rank('search the news for "xAI shareholders AI investment"', names)[0]?.name).toBe('search_news');
    // A part that is nothing but a quote is ranked by it.
    expect(index.rank('"AI investment"', names)[0]?.name).toBe('ai_news');
  });
});
