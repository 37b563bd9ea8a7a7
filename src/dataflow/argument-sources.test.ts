import { describe, expect, it } from 'vitest';
import { toolCallCorrectness } from '../metrics/tool-call-lcs.js';
import type { TaskRecord } from '../records/schema.js';
import { argumentSources } from './argument-sources.js';

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
});
