import { describe, expect, it } from 'vitest';
import { canonicalArgs, canonicalCallKey, stableStringify, type ParamSchema } from './canonical-args.js';

const schema: ParamSchema = {
  type: 'object',
  properties: {
    days: { type: 'number' },
    limit: { type: 'integer' },
    metric: { type: 'boolean' },
    city: { type: 'string' },
    code: { type: ['string', 'number'] },
    filters: {
      type: 'object',
      properties: { min: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
    },
    ids: { type: 'array', items: { type: 'number' } },
  },
};
const key = (args: Record<string, unknown>, s?: ParamSchema) => canonicalCallKey('weather', args, s);

describe('canonicalArgs: key order and nesting', () => {
  it('ignores key order at every level', () => {
    expect(key({ b: 1, a: { y: 2, x: 1 } })).toBe(key({ a: { x: 1, y: 2 }, b: 1 }));
    expect(stableStringify(canonicalArgs({ b: 1, a: { y: 2, x: 1 } }))).toBe('{"a":{"x":1,"y":2},"b":1}');
  });
  it('keeps array order (arrays are sequences, not sets)', () => {
    expect(key({ ids: [1, 2] })).not.toBe(key({ ids: [2, 1] }));
  });
});

describe('canonicalArgs: numbers and booleans', () => {
  it('equates "5" and 5 for a number parameter, only with the schema', () => {
    expect(key({ days: '5' }, schema)).toBe(key({ days: 5 }, schema));
    expect(key({ days: ' 2.50 ' }, schema)).toBe(key({ days: 2.5 }, schema));
    expect(key({ limit: '10' }, schema)).toBe(key({ limit: 10 }, schema));
    expect(key({ days: '5' })).not.toBe(key({ days: 5 }));
  });
  it('turns a number into a string for a string parameter', () => {
    expect(key({ city: 10001 }, schema)).toBe(key({ city: '10001' }, schema));
  });
  it('leaves a parameter that accepts both strings and numbers as given', () => {
    expect(key({ code: '5' }, schema)).not.toBe(key({ code: 5 }, schema));
  });
  it('reads a numeric string as the number a number parameter widened to take text too is given', () => {
    const widened: ParamSchema = { type: 'object', properties: { lat: { type: ['number', 'string'] } } };
    expect(key({ lat: '-74.4075' }, widened)).toBe(key({ lat: -74.4075 }, widened));
    expect(canonicalArgs({ lat: '50.05,8.6' }, widened)).toEqual({ lat: '50.05,8.6' });
  });
  it('keeps a value that cannot be coerced, so it stays unequal', () => {
    expect(canonicalArgs({ days: 'five' }, schema)).toEqual({ days: 'five' });
    expect(key({ days: 'five' }, schema)).not.toBe(key({ days: 5 }, schema));
  });
  it('reads "true"/"false" of a boolean parameter in any case, only with the schema', () => {
    expect(key({ metric: 'True' }, schema)).toBe(key({ metric: true }, schema));
    expect(key({ metric: ' false ' }, schema)).toBe(key({ metric: false }, schema));
    expect(key({ metric: 'yes' }, schema)).not.toBe(key({ metric: true }, schema));
    expect(key({ metric: 'true' })).not.toBe(key({ metric: true }));
  });
  it('coerces inside nested objects and arrays by their schemas', () => {
    expect(key({ filters: { tags: [' a ', 7], min: '3' }, ids: ['1', 2] }, schema)).toBe(
      key({ ids: [1, 2], filters: { min: 3, tags: ['a', '7'] } }, schema),
    );
  });
});

describe('canonicalArgs: strings, null and absent', () => {
  it('trims strings (but keeps inner spaces and case)', () => {
    expect(key({ city: '  New York ' })).toBe(key({ city: 'New York' }));
    expect(key({ city: 'New  York' })).not.toBe(key({ city: 'New York' }));
    expect(key({ city: 'paris' })).not.toBe(key({ city: 'Paris' }));
  });
  it('treats an explicit null like an absent parameter, at any depth', () => {
    expect(key({ city: 'Paris', days: null })).toBe(key({ city: 'Paris' }));
    expect(key({ filters: { min: null, tags: ['a'] } }, schema)).toBe(key({ filters: { tags: ['a'] } }, schema));
    expect(canonicalArgs(undefined)).toEqual({});
    expect(canonicalArgs(null)).toEqual({});
  });
  it('does not treat an empty string as absent', () => {
    expect(key({ city: '' })).not.toBe(key({}));
  });
  it('does not change its input', () => {
    const args = { b: ' x ', a: null };
    canonicalArgs(args, schema);
    expect(args).toEqual({ b: ' x ', a: null });
  });
});

describe('canonicalCallKey', () => {
  it('separates tools and trims the tool name', () => {
    expect(canonicalCallKey(' weather ', { a: 1 })).toBe(canonicalCallKey('weather', { a: 1 }));
    expect(canonicalCallKey('weather', { a: 1 })).not.toBe(canonicalCallKey('forecast', { a: 1 }));
  });
});
