import { describe, expect, it } from 'vitest';
import { toolCallCorrectness } from '../metrics/tool-call-lcs.js';
import type { TaskRecord } from '../records/schema.js';
import {
  addParameterCounts,
  argumentSources,
  formatMostLost,
  mostLost,
  type ParameterCounts,
} from './argument-sources.js';

describe('argument sources of an evaluation', () => {
  it('counts reference arguments by where their value stands, whether their call was made, and whether it was passed right', () => {
    const record: Pick<TaskRecord, 'query' | 'calls'> = {
      query: 'Find hotels in Oslo and show the reviews of the first one.',
      calls: [
        { tool: 'search', args: { city: 'Oslo', units: 'metric' }, output: "{'results': [{'id': 'h-77'}]}" },
        { tool: 'reviews', args: { hotel_id: 'h-77' } },
        { tool: 'photos', args: { hotel_id: 'h-77' } },
      ],
    };
    // The run passed the city right and the units wrong, looked the reviews up with the wrong id and
    // never asked for photos.
    const made = [
      { tool: 'search', args: { city: 'Oslo', units: 'imperial' } },
      { tool: 'reviews', args: { hotel_id: 'Oslo' } },
    ];
    const detail = toolCallCorrectness(record.calls, made);
    expect(argumentSources(record, made, detail)).toEqual({
      request: { args: 1, called: 1, right: 1 },
      upstream: { args: 2, called: 1, right: 0 },
      neither: { args: 1, called: 1, right: 0 },
    });
  });

  it('says per parameter how many of its arguments were lost, the parameter that lost most first', () => {
    const query = 'Find hotels in Oslo, then in Bergen, and show the reviews of the first one.';
    const record = {
      query,
      calls: [
        { tool: 'search', args: { city: 'Oslo' }, output: "{'results': [{'id': 'h-77'}]}" },
        { tool: 'search', args: { city: 'Bergen' }, output: "{'results': [{'id': 'h-12'}]}" },
        { tool: 'reviews', args: { hotel_id: 'h-77' } },
      ],
    };
    // Oslo right, Bergen searched as Oslo again, the reviews never asked for.
    const made = [
      { tool: 'search', args: { city: 'Oslo' } },
      { tool: 'search', args: { city: 'Oslo' } },
    ];
    const into = new Map<string, ParameterCounts>();
    addParameterCounts(into, record, made, toolCallCorrectness(record.calls, made));
    // A second run of the same record adds to the same counts.
    addParameterCounts(into, record, made, toolCallCorrectness(record.calls, made));
    const rows = mostLost(into.values());
    expect(rows).toEqual([
      { tool: 'reviews', param: 'hotel_id', source: 'upstream', args: 2, called: 0, right: 0 },
      { tool: 'search', param: 'city', source: 'request', args: 4, called: 4, right: 2 },
    ]);
    // The per-parameter counts add up to the per-source ones.
    const bySource = argumentSources(record, made, toolCallCorrectness(record.calls, made));
    expect(bySource.request).toEqual({ args: 2, called: 2, right: 1 });
    expect(formatMostLost(rows)).toBe(
      'reviews.hotel_id (from an earlier result: 0 of 2 right, 0 called); search.city (from the request: 2 of 4 right, 4 called)',
    );
    expect(formatMostLost([{ ...rows[1]!, right: 4 }])).toBe('');
  });
});
