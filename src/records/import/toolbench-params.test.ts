import { describe, expect, it } from 'vitest';
import { paramSchema, toolbenchParamsToSchema } from './toolbench-params.js';

describe('ToolBench parameter lists → JSON Schema', () => {
  it.each([
    [{ name: 'a', type: 'STRING' }, { type: 'string' }],
    [{ name: 'a', type: 'string' }, { type: 'string' }],
    [
      { name: 'a', type: 'NUMBER', default: '10' },
      { type: 'number', default: 10 },
    ],
    [{ name: 'a', type: 'NUMBER', default: 'ten' }, { type: 'number' }],
    [
      { name: 'a', type: 'INTEGER', default: 3 },
      { type: 'number', default: 3 },
    ],
    [
      { name: 'a', type: 'BOOLEAN', default: 'FALSE' },
      { type: 'boolean', default: false },
    ],
    [
      { name: 'a', type: 'ENUM', description: 'one of c, f', default: 'c' },
      { type: 'string', description: 'one of c, f', default: 'c' },
    ],
    [
      { name: 'a', type: 'DATE (YYYY-MM-DD)', description: 'Start', default: '' },
      { type: 'string', description: 'Start Format: YYYY-MM-DD.' },
    ],
    [
      { name: 'a', type: 'TIME (24-hour HH:MM)' },
      { type: 'string', description: 'Format: 24-hour HH:MM.' },
    ],
    [{ name: 'a', type: 'OBJECT' }, { type: 'object' }],
    [{ name: 'a', type: 'ARRAY' }, { type: 'array' }],
    [
      { name: 'a', type: 'GEOPOINT (latitude, longitude)' },
      { type: 'string', description: 'Type: GEOPOINT (latitude, longitude).' },
    ],
    [{ name: 'a' }, { type: 'string' }],
  ])('%j → %j', (param, expected) => {
    expect(paramSchema(param)).toEqual(expected);
  });

  it('marks required parameters and keeps the first of a repeated name', () => {
    expect(
      toolbenchParamsToSchema(
        [{ name: 'q', type: 'STRING' }],
        [
          { name: 'q', type: 'NUMBER' },
          { name: 'n', type: 'NUMBER' },
        ],
      ),
    ).toEqual({
      type: 'object',
      properties: { q: { type: 'string' }, n: { type: 'number' } },
      required: ['q'],
    });
    expect(toolbenchParamsToSchema(null, undefined)).toEqual({ type: 'object', properties: {}, required: [] });
  });
});
