import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { identifierKind, isIdentifierShaped, paramWords } from './identifier-shape.js';
import { keyParts } from './key-parts.js';

describe('identifierKind', () => {
  it('knows ids, e-mails, phone, card and SSN-like numbers, UUIDs and hex by their shape alone', () => {
    const cases: Array<[unknown, string]> = [
      ['#W6390527', 'id'],
      ['A-1003', 'id'],
      ['usr_8f3k2', 'id'],
      ['card-4242', 'id'],
      ['4202497723', 'id'],
      [4202497723, 'id'],
      ['ada.byron@example.com', 'email'],
      ['+44 20 7946 0958', 'phone'],
      ['(555) 123-4567', 'phone'],
      ['555.123.4567', 'phone'],
      ['555-123-4567', 'phone'],
      ['4111 1111 1111 1111', 'card'],
      ['4111-1111-1111-1111', 'card'],
      ['4111111111111111', 'card'],
      ['123-45-6789', 'ssn'],
      ['3f2504e0-4f89-11d3-9a0c-0305e82c3301', 'uuid'],
      ['68bd66b47452b2620d05156b', 'id'],
      ['104 Station Avenue', 'address'],
      ['12 Elm St', 'address'],
      ['763 Broadway', 'address'],
    ];
    for (const [value, kind] of cases) expect([value, identifierKind(value)]).toEqual([value, kind]);
  });

  it('judges names, addresses, zips, payment ids, phones and short ids with the parameter name', () => {
    const cases: Array<[unknown, string, string]> = [
      ['Yusuf', 'first_name', 'name'],
      ['Rossi', 'lastName', 'name'],
      ['Ada Byron', 'customer', 'name'],
      ['Ada Byron', 'passenger_name', 'name'],
      ['Suite 641', 'address2', 'address'],
      ['Flat B, Mill Lane', 'street', 'address'],
      ['19122', 'zip', 'zip'],
      ['SW1A 1AA', 'postal_code', 'zip'],
      ['gift_card_main', 'payment_method', 'payment'],
      ['5551234', 'phone', 'phone'],
      ['1003', 'order_id', 'id'],
      [1003, 'orderId', 'id'],
      ['W12', 'booking_ref', 'id'],
      ['778', 'confirmation_number', 'id'],
    ];
    for (const [value, name, kind] of cases)
      expect([value, name, identifierKind(value, { name })]).toEqual([value, name, kind]);
    // The same values under parameters that do not say so are no identifiers.
    for (const [value, name] of [
      ['Yusuf', 'city'],
      ['Ada Byron', 'note'],
      ['19122', 'count'],
      ['1003', 'quantity'],
      ['Suite 641', 'room'],
      ['premium', 'customer'],
      ['Paris', 'name'],
    ] as const)
      expect([value, name, identifierKind(value, { name })]).toEqual([value, name, undefined]);
  });

  it('does not take dates, times, plain numbers, units, coordinates, enums, defaults or short common words for identifiers', () => {
    const values: unknown[] = [
      '2024-05-01',
      '2024-05-01T10:00:00Z',
      '05/01/2024',
      '20240501',
      '12:30',
      '3pm',
      '10:45 am',
      'PT1H30M',
      'Q3',
      'FY2024',
      '2024Q3',
      '42',
      42,
      '1003',
      '3.14159',
      -12.5,
      '1,000,000',
      '10kg',
      '1080p',
      '5 km',
      '20%',
      '$15.99',
      '25°C',
      '21st',
      '1920x1080',
      'v2.1.0',
      '24.55524N',
      '-122.42282',
      'open',
      'express',
      'metric',
      'London',
      'AAPL',
      'address1',
      'line_2',
      true,
      null,
      '',
      { id: '#W6390527' },
    ];
    for (const v of values) expect([v, identifierKind(v)]).toEqual([v, undefined]);
    // A Unix time in a time parameter, an amount in a quantity parameter.
    expect(identifierKind('1757016000', { name: 'timestamp' })).toBeUndefined();
    expect(identifierKind(12500000, { name: 'amount' })).toBeUndefined();
    expect(identifierKind('1757016000', { name: 'ref' })).toBe('id');
    // Values the schema lists or formats as a time.
    expect(identifierKind('A-1003', { name: 'plan', schema: { enum: ['A-1003', 'B-2004'] } })).toBeUndefined();
    expect(identifierKind('card-4242', { name: 'refund_to', schema: { default: 'card-4242' } })).toBeUndefined();
    expect(identifierKind('20240501', { schema: { type: 'string', format: 'date' } })).toBeUndefined();
    expect(isIdentifierShaped('A-1003', { name: 'plan', schema: { enum: ['B-2004'] } })).toBe(true);
  });

  it("classifies a customer-service tool set's real arguments (tau-bench retail, test/fixtures/identifiers)", () => {
    const rows = JSON.parse(
      readFileSync(new URL('../../test/fixtures/identifiers/tau-retail-args.json', import.meta.url), 'utf8'),
    ) as Array<{ tool: string; param: string; schema: Record<string, unknown>; value: unknown; kind: string | null }>;
    expect(rows.length).toBeGreaterThan(15);
    for (const r of rows)
      expect([r.tool, r.param, identifierKind(r.value, { name: r.param, schema: r.schema }) ?? null]).toEqual([
        r.tool,
        r.param,
        r.kind,
      ]);
  });
});

describe('keyParts', () => {
  it('finds the key in a value whatever the parameter is called: ids, URL paths and query values, names, codes', () => {
    const cases: Array<[unknown, string, string[]]> = [
      ['1007', 'order', ['1007']],
      [1007, 'q', ['1007']],
      ['order 1007', 'q', ['1007']],
      ['/orders/1007', 'path', ['1007']],
      ['/orders?id=1007&full=true', 'url', ['1007']],
      ['gus lindqvist', 'customer', ['lindqvist']],
      ['orders of Hana Sato', 'q', ['Hana', 'Sato']],
      ['XKQWPL', 'pnr', ['XKQWPL']],
      ['contact ben.7@example.com today', 'note', ['ben.7@example.com']],
      ['status of A-1003', 'q', ['A-1003']],
      ['vitamin B12', 'q', ['B12']],
      // The whole value when identifierKind takes it for one (an id parameter, an e-mail, an absolute URL with digits).
      ['1007', 'order_id', ['1007']],
      ['Gus Lindqvist', 'customer', ['Gus Lindqvist']],
      ['https://shop.example/orders/1007', 'url', ['https://shop.example/orders/1007']],
    ];
    for (const [value, name, parts] of cases)
      expect([value, name, keyParts(value, { name })]).toEqual([value, name, parts]);
  });

  it('keeps words, dates, amounts, small numbers, public codes, coordinates and what the schema lists', () => {
    const cases: Array<[unknown, string]> = [
      ['latest technology news', 'q'],
      ['Paris', 'city'],
      ['new york', 'city'],
      ['2024-05-01', 'date'],
      ['$15.99', 'q'],
      ['1,250,000', 'q'],
      [250, 'amount'],
      [2000, 'radius'],
      [2024, 'year'],
      ['1757016000', 'end'],
      ['top 20 results', 'q'],
      ['AAPL', 'symbol'],
      ['USD,GBP', 'symbols'],
      ['en', 'lang'],
      ['48.8584,2.2945', 'latlng'],
      [-33.8688, 'lat'],
      ['Tesla Q3 earnings', 'q'],
      ['/orders', 'path'],
      ['https://www.example.com/news', 'url'],
    ];
    for (const [value, name] of cases) expect([value, name, keyParts(value, { name })]).toEqual([value, name, []]);
    expect(keyParts('XKQWPL', { name: 'pnr', schema: { enum: ['XKQWPL'] } })).toEqual([]);
    expect(keyParts('1007', { name: 'day', schema: { type: 'string', format: 'date' } })).toEqual([]);
  });

  it('a name made of words of the language is not seen (the limit of judging by words)', () => {
    expect(keyParts('jun park', { name: 'customer' })).toEqual([]);
  });
});

describe('paramWords', () => {
  it('splits snake, kebab and camel case into lower-case words', () => {
    expect(paramWords('orderId')).toEqual(['order', 'id']);
    expect(paramWords('order_id')).toEqual(['order', 'id']);
    expect(paramWords('Order-ID')).toEqual(['order', 'id']);
    expect(paramWords('paymentMethodID')).toEqual(['payment', 'method', 'id']);
    expect(paramWords(undefined)).toEqual([]);
  });
});
