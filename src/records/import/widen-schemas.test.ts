import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { widenSchemasToRecordedCalls } from './widen-schemas.js';

const tools = (): ToolDescriptor[] => [
  {
    name: 'hotel',
    description: '',
    inputSchema: {
      type: 'object',
      properties: {
        photos: { type: 'boolean' },
        lat: { type: 'number', description: 'Latitude' },
        city: { type: 'string' },
      },
      required: [],
    },
  },
];

describe('widenSchemasToRecordedCalls', () => {
  it('widens only parameters whose successful recorded values the canonical form cannot read as the declared type', () => {
    const t = tools();
    const widened = widenSchemasToRecordedCalls(t, [
      { tool: 'hotel', args: { photos: '1', lat: '40.7', city: 12345 }, status: 'ok' },
      { tool: 'hotel', args: { photos: 'true', lat: '50.05,8.6' }, status: 'ok' },
      { tool: 'hotel', args: { city: { name: 'Paris' } }, status: 'error' },
    ]);
    expect(widened).toEqual([
      { tool: 'hotel', param: 'photos', from: 'boolean', added: ['string'] },
      { tool: 'hotel', param: 'lat', from: 'number', added: ['string'] },
    ]);
    const props = (t[0]!.inputSchema as { properties: Record<string, { type: unknown; description?: string }> })
      .properties;
    expect(props.photos!.type).toEqual(['boolean', 'string']);
    // The description says what kinds the calls passed, never a recorded value (it belongs to one record).
    expect(props.lat!.description).toBe('Latitude Recorded calls also pass string values.');
    expect(props.city!.type).toBe('string');
  });

  it('leaves schemas alone when every value fits', () => {
    const t = tools();
    expect(
      widenSchemasToRecordedCalls(t, [
        { tool: 'hotel', args: { photos: false, lat: 1.5, city: 'Rome' }, status: 'ok' },
      ]),
    ).toEqual([]);
    expect(t).toEqual(tools());
  });
});
