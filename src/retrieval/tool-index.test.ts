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

  it('ranks a tool whose name fixes another span of time than the request asks for below the others', () => {
    // After TRAJECT-Bench's Weather tools: a 5-day resort forecast and a daily forecast of up to 21 days.
    const tools = [
      tool('get_5_day_forecast_for_ski_resort', 'Get 5 day forecast: the weather forecast at a ski resort.'),
      tool('daily_for_weather_service', 'Daily: the weather forecast for the next 21 days, day by day, for a place.'),
    ];
    const names = tools.map((t) => t.name);
    const index = createToolIndex(tools);
    expect(index.rank('Then get a 21-day forecast for San Francisco.', names)[0]?.name).toBe(
      'daily_for_weather_service',
    );
    expect(index.rank('Then get the 5-day forecast for Aspen.', names)[0]?.name).toBe(
      'get_5_day_forecast_for_ski_resort',
    );
  });
});
