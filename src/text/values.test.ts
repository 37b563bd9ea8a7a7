import { describe, expect, it } from 'vitest';
import { requestClauses, splitClauses } from './clauses.js';
import { queryCandidates } from './values.js';
import { outputPairs } from '../dataflow/output-value.js';

const Q = `I'm flying from "New York" on March 3rd, 2025. Can you first get the quote for AAPL and BTC/USD, then check hotel ID 700008849 near 48.8566, 2.3522 in Paris, France? Finally show flights on 2025-09-01.`;

describe('value candidates', () => {
  const found = queryCandidates(Q);
  const of = (kind: string) => found.filter((c) => c.kind === kind).map((c) => c.value);

  it('finds quoted strings, normalised dates, codes, pairs, ids, coordinates and capitalised spans', () => {
    expect(of('quoted')).toEqual(['New York']);
    expect(of('date')).toEqual(['2025-03-03', '2025-09-01']);
    expect(of('code')).toEqual(expect.arrayContaining(['AAPL', 'BTC/USD']));
    expect(of('id')).toEqual(['700008849']);
    expect(of('coord')).toEqual(['48.8566,2.3522']);
    expect(of('proper')).toEqual(expect.arrayContaining(['New York', 'Paris', 'Paris, France', 'Paris,France']));
    expect(of('proper')).not.toContain('March');
    expect(of('proper')).not.toContain('Can');
  });

  it('keeps the words around each value and the place of coordinate parts', () => {
    const id = found.find((c) => c.value === '700008849')!;
    expect(id.before).toEqual(['check', 'hotel', 'id']);
    expect(id.after).toBe('near');
    expect(found.find((c) => c.value === '48.8566' && c.kind === 'number')!.role).toContain('latitude');
    expect(found.find((c) => c.value === '2.3522' && c.kind === 'number')!.role).toContain('longitude');
  });

  it('reads key/value pairs out of truncated Python-literal responses and JSON', () => {
    const cut =
      "{'results': [{'hotel_id': '700008849', 'name': 'Hotel Lutetia', 'stars': 5.0, 'active': True}, {'hotel_id': '7000";
    expect(outputPairs(cut)).toEqual([
      { key: 'hotel_id', value: '700008849' },
      { key: 'name', value: 'Hotel Lutetia' },
      { key: 'stars', value: '5' },
      { key: 'active', value: 'true' },
    ]);
    expect(outputPairs({ city: { id: 42, name: 'Lyon' } })).toEqual([
      { key: 'id', value: '42' },
      { key: 'name', value: 'Lyon' },
    ]);
  });

  it('reads JSON given as text (as MCP tools return it) as the value it holds, a pair per list item', () => {
    const text = JSON.stringify({ user_id: 'u_1', orders: ['#W101', '#W102'], address: { city: 'Lyon' } });
    expect(outputPairs(text)).toEqual([
      { key: 'user_id', value: 'u_1' },
      { key: 'orders', value: '#W101' },
      { key: 'orders', value: '#W102' },
      { key: 'city', value: 'Lyon' },
    ]);
    // Text that only starts like JSON is still read by pattern.
    expect(outputPairs('{"user_id": "u_1", "orders": ["#W1')).toEqual([{ key: 'user_id', value: 'u_1' }]);
  });
});

describe('names and places', () => {
  const values = (q: string) => queryCandidates(q).map((c) => c.value);

  it('keeps a name whose parts are joined by a lower-case particle whole', () => {
    expect(values('the forecast for Dar es Salaam today')).toContain('Dar es Salaam');
    expect(values('the forecast for Dar es Salaam today')).not.toContain('Salaam');
  });

  it('keeps a name written with a hyphen between capitalised words whole, and a word hyphened to a name apart', () => {
    expect(values('search for articles on the Ukraine-Russia War as it matters')).toContain('Ukraine-Russia War');
    expect(values('the highest scoring news about Mercedes-Benz sales')).toContain('Mercedes-Benz');
    expect(values('the highest scoring news about Mercedes-Benz sales')).not.toContain('Benz');
    expect(values('search for Tesla-related news')).toContain('Tesla');
  });

  it("keeps a title and its subtitle after a colon whole, and a label's colon apart", () => {
    expect(values('tell me about Outliver: Tribulation and its reviews')).toContain('Outliver: Tribulation');
    expect(values('tell me about Outliver: Tribulation and its reviews')).not.toContain('Tribulation');
    expect(values('the deals for Apex Legends: ask for Steam')).toContain('Apex Legends');
  });

  it('offers a place with its region and country codes as one value, as written, not cut short', () => {
    const v = values('search for Seattle, WA, US to get its coordinates');
    expect(v).toContain('Seattle, WA, US');
    expect(v).not.toContain('Seattle, WA');
    expect(values('the weather in Austin, TX today')).toContain('Austin, TX');
  });

  it('offers names joined by slashes, as time zones are written, as one value', () => {
    const v = values('then use the America/Los_Angeles time zone, or Europe/Berlin');
    expect(v).toContain('America/Los_Angeles');
    expect(v).toContain('Europe/Berlin');
    // A currency pair stays a code pair, not a name.
    expect(
      queryCandidates('the EUR/USD rate')
        .filter((c) => c.value === 'EUR/USD')
        .map((c) => c.kind),
    ).toEqual(['code']);
  });

  it('offers an id written in lower case with hyphens or underscores and digits as one id', () => {
    const found = queryCandidates('weather for Arguello (place ID: arguello-5324616) and user sara_doe_496');
    expect(found.filter((c) => c.kind === 'id').map((c) => c.value)).toEqual(['arguello-5324616', 'sara_doe_496']);
  });
});

describe('clauses', () => {
  it('splits a request at sequence markers and drops the scene-setting opening', () => {
    expect(splitClauses(Q)).toHaveLength(4);
    expect(requestClauses(Q)).toEqual([
      'Can you first get the quote for AAPL and BTC/USD',
      'check hotel ID 700008849 near 48.8566, 2.3522 in Paris, France',
      'show flights on 2025-09-01',
    ]);
    expect(
      requestClauses('I need a climate profile for Aspen. Get the snow report, then the 5-day forecast.', 2),
    ).toEqual(['Get the snow report', 'the 5-day forecast']);
    expect(splitClauses('Weather in Paris')).toEqual(['Weather in Paris']);
  });
});
