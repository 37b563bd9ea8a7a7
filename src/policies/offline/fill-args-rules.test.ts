import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../records/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { ToolHint } from '../../graph/schema.js';
import { HINT_PARAMETERS, learnToolHints } from '../../dataflow/learn-hints.js';
import { fillArgs } from './fill-args.js';

/**
 * General rules of argument filling, each shown on a small made-up tool set: what a user notices is
 * the argument the offline policy passes with the hints a search learns from such records. The
 * fixtures are a few records each, so values are kept from one group up (`minValueGroups: 1`); the
 * rule that keeps a workflow from carrying one customer's values is shown in learn-hints.test.ts.
 */
const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });
const learn = (records: TaskRecord[], tools: ToolDescriptor[]) =>
  learnToolHints(records, tools, { ...HINT_PARAMETERS, minValueGroups: 1 });
/** A record of one call (no reference answer). */
const oneCall = (id: string, query: string, tool: string, args: Record<string, unknown>): TaskRecord => ({
  id,
  query,
  reference: '',
  calls: [{ tool, args }],
});

describe('a found value of a shape the parameter never took', () => {
  const chart: ToolDescriptor = {
    name: 'chart_indicator',
    description: 'An indicator of a ticker on a chart period.',
    inputSchema: obj({ ticker: { type: 'string' }, period: { type: 'string' } }, ['ticker', 'period']),
  };
  const record = (id: string, name: string, ticker: string, period: string): TaskRecord =>
    oneCall(id, `Show the ${name} for ${ticker} on the ${period} chart.`, chart.name, { ticker, period });
  const model = learn(
    [
      record('a', 'Momentum Index', 'IBM', '1h'),
      record('b', 'Trend Strength', 'MSFT', '1h'),
      record('c', 'Volume Profile', 'ORCL', '5min'),
      record('d', 'Momentum Index', 'SAP', '1h'),
    ],
    [chart],
  );

  it('is not passed: of "Acme Robotics (ACMR)" a ticker takes the code, not the company name', () => {
    const query = 'Show the Momentum Index for Acme Robotics (ACMR).';
    expect(fillArgs(chart, { query, focus: [[0, query.length]], outputs: [] }, model.get(chart.name)).args.ticker).toBe(
      'ACMR',
    );
  });

  it('is not passed: the period stays a period (the usual one), never the indicator’s name', () => {
    const query = 'Show the Relative Vigor Score for ACME.';
    const { args } = fillArgs(chart, { query, focus: [[0, query.length]], outputs: [] }, model.get(chart.name));
    expect(args).toEqual({ ticker: 'ACME', period: '1h' });
  });
});

describe('a parameter whose values the records pass lower-cased', () => {
  const sky: ToolDescriptor = {
    name: 'night_sky',
    description: 'Moon and sunrise times for a place.',
    inputSchema: obj({ place: { type: 'string' } }, ['place']),
  };
  const record = (id: string, city: string): TaskRecord =>
    oneCall(id, `When is sunrise in ${city} tomorrow?`, sky.name, { place: city.toLowerCase() });
  const model = learn([record('a', 'Oslo'), record('b', 'Quito'), record('c', 'Perth')], [sky]);

  it('takes a capitalised name of the request lower-cased, as the records wrote such names', () => {
    const { args } = fillArgs(sky, { query: 'When is sunrise in Lima tomorrow?', outputs: [] }, model.get(sky.name));
    expect(args).toEqual({ place: 'lima' });
  });
});

describe('optional parameters the records set together', () => {
  const card: ToolDescriptor = {
    name: 'hotel_card',
    description: 'One hotel’s card.',
    inputSchema: obj(
      {
        hotel: { type: 'string' },
        photos: { type: 'boolean' },
        reviews: { type: 'boolean' },
        map: { type: 'boolean' },
      },
      ['hotel'],
    ),
  };
  const all = { photos: true, reviews: true, map: true };
  const record = (id: string, query: string, hotel: string, flags = {}): TaskRecord =>
    oneCall(id, query, card.name, { hotel, ...flags });
  const model = learn(
    [
      record('a', 'Show hotel 20481 with photos.', '20481', all),
      record('b', 'Hotel 33109 with photos please.', '33109', all),
      record('c', 'I want hotel 57120 with its photos.', '57120', all),
      record('d', 'Show hotel 61842.', '61842'),
      record('e', 'Open hotel 70915.', '70915'),
      record('f', 'Hotel 84406, quickly.', '84406'),
    ],
    [card],
  );
  const fill = (query: string) => fillArgs(card, { query, outputs: [] }, model.get(card.name)).args;

  it('are set as the records set them, all or none, never a combination no record made', () => {
    expect(fill('Show hotel 91337.')).toEqual({ hotel: '91337' });
    expect(fill('Show hotel 91337 with photos.')).toEqual({ hotel: '91337', ...all });
    // A workflow carries the hint as JSON: the combinations survive it.
    const carried = JSON.parse(JSON.stringify(model.get(card.name))) as ToolHint;
    expect(fillArgs(card, { query: 'Show hotel 91337 with photos.', outputs: [] }, carried).args).toEqual({
      hotel: '91337',
      ...all,
    });
  });
});

describe('a parameter whose values the records pass as hyphenated slugs', () => {
  const sky: ToolDescriptor = {
    name: 'sky_report',
    description: 'Sunrise and sunset for a place.',
    inputSchema: obj({ place_slug: { type: 'string' } }, ['place_slug']),
  };
  const record = (id: string, city: string, slug: string): TaskRecord =>
    oneCall(id, `Sunrise in ${city} tomorrow?`, sky.name, { place_slug: slug });
  const model = learn(
    [record('a', 'New York', 'new-york'), record('b', 'Buenos Aires', 'buenos-aires'), record('c', 'Oslo', 'oslo')],
    [sky],
  );

  it('takes a name of several words as the records wrote such names: "San Jose" → san-jose', () => {
    expect(fillArgs(sky, { query: 'Sunrise in San Jose tomorrow?', outputs: [] }, model.get(sky.name)).args).toEqual({
      place_slug: 'san-jose',
    });
  });
});

describe('a recorded value the request writes in another form', () => {
  const board: ToolDescriptor = {
    name: 'flight_board',
    description: 'Flights at an airport.',
    inputSchema: obj({ airport: { type: 'string' }, direction: { type: 'string' } }, ['airport', 'direction']),
  };
  const record = (id: string, query: string, airport: string, direction: string): TaskRecord =>
    oneCall(id, query, board.name, { airport, direction });
  const model = learn(
    [
      record('a', 'Show the departure board at OSL.', 'OSL', 'departure'),
      record('b', 'Departure times at MAD please.', 'MAD', 'departure'),
      record('c', 'List each departure from ARN.', 'ARN', 'departure'),
      record('d', 'Next departure at CPH?', 'CPH', 'departure'),
      record('e', 'Show the arrival board at HEL.', 'HEL', 'arrival'),
      record('f', 'Arrival times at RIX please.', 'RIX', 'arrival'),
      record('g', 'List each arrival at TLL.', 'TLL', 'arrival'),
    ],
    [board],
  );

  it('is recognised: flights "arriving" at an airport are its arrivals', () => {
    const query = 'Which flights are arriving at LIS today?';
    expect(fillArgs(board, { query, outputs: [] }, model.get(board.name)).args).toEqual({
      airport: 'LIS',
      direction: 'arrival',
    });
  });
});

describe('a value in the clause that asks for the call', () => {
  const outlook: ToolDescriptor = {
    name: 'city_outlook',
    description: 'The weather outlook of a city.',
    inputSchema: obj({ city: { type: 'string' } }, ['city']),
  };
  const record = (id: string, query: string, city: string): TaskRecord => oneCall(id, query, outlook.name, { city });
  // "in" stood before the city in two of three requests: a cue word, not the clause's say.
  const model = learn(
    [
      record('a', 'Outlook in Lima please.', 'Lima'),
      record('b', 'Weather in Oslo today.', 'Oslo'),
      record('c', 'Quito outlook now.', 'Quito'),
    ],
    [outlook],
  );

  it('beats a value a cue word points to in another clause', () => {
    const query = 'I am in Paris now. Then show the Berlin outlook.';
    const focus: Array<[number, number]> = [[query.indexOf('Then'), query.length]];
    expect(fillArgs(outlook, { query, focus, outputs: [] }, model.get(outlook.name)).args.city).toBe('Berlin');
  });
});

describe('an optional parameter the request names in another call’s clause', () => {
  const gallery: ToolDescriptor = {
    name: 'city_gallery',
    description: 'Pictures of a city.',
    inputSchema: obj({ city: { type: 'string' } }, ['city']),
  };
  const card: ToolDescriptor = {
    name: 'hotel_card',
    description: 'One hotel’s card.',
    inputSchema: obj({ hotel: { type: 'string' }, photos: { type: 'boolean' } }, ['hotel']),
  };
  const record = (id: string, query: string, city: string, hotel: string, photos: boolean): TaskRecord => ({
    id,
    query,
    reference: '',
    calls: [
      { tool: gallery.name, args: { city } },
      { tool: card.name, args: { hotel, ...(photos ? { photos: true } : {}) } },
    ],
  });
  const model = learn(
    [
      record('a', 'First show the photos of Rome. Then open hotel 20481.', 'Rome', '20481', false),
      record('b', 'First show the photos of Oslo. Then open hotel 33109.', 'Oslo', '33109', false),
      record('c', 'First show the photos of Kyiv. Then open hotel 57120.', 'Kyiv', '57120', false),
      record('d', 'First show the gallery of Lima. Then open hotel 61842 with photos.', 'Lima', '61842', true),
      record('e', 'First show the gallery of Baku. Then open hotel 70915 with photos.', 'Baku', '70915', true),
      record('f', 'First show the gallery of Riga. Then open hotel 84406 with photos.', 'Riga', '84406', true),
    ],
    [gallery, card],
  );
  const fill = (query: string) => {
    const then = query.indexOf('Then');
    return fillArgs(card, { query, focus: [[then, query.length]], outputs: [] }, model.get(card.name)).args;
  };

  it('is set only when the clause that asks for the call names it', () => {
    expect(fill('First show the photos of Doha. Then open hotel 91337.')).toEqual({ hotel: '91337' });
    expect(fill('First show the gallery of Doha. Then open hotel 91337 with photos.')).toEqual({
      hotel: '91337',
      photos: true,
    });
  });
});

describe('an optional parameter usually left out whose value the call’s clause writes', () => {
  const funds: ToolDescriptor = {
    name: 'fund_list',
    description: 'Mutual funds on offer.',
    inputSchema: obj({ country: { type: 'string' } }, []),
  };
  const record = (id: string, query: string, country?: string): TaskRecord =>
    oneCall(id, query, funds.name, country ? { country } : {});
  const model = learn(
    [
      record('a', 'Show the fund list in Chile.', 'Chile'),
      record('b', 'Show the fund list in Ghana.', 'Ghana'),
      record('c', 'Show the fund list.'),
      record('d', 'List every fund on offer.'),
      record('e', 'Which funds are on offer today?'),
      record('f', 'Give me the whole fund list.'),
    ],
    [funds],
  );
  const fill = (query: string) =>
    fillArgs(funds, { query, focus: [[0, query.length]], outputs: [] }, model.get(funds.name)).args;

  it('is set to it when the value scores as strongly as the records’ values did', () => {
    expect(fill('Show the fund list in Peru.')).toEqual({ country: 'Peru' });
    expect(fill('Show the fund list.')).toEqual({});
  });
});

describe('an optional parameter whose value the request writes for another call', () => {
  const funds: ToolDescriptor = {
    name: 'fund_shelf',
    description: 'Mutual funds on offer.',
    inputSchema: obj({ family: { type: 'string' } }, []),
  };
  const record = (id: string, query: string, family?: string): TaskRecord =>
    oneCall(id, query, funds.name, family ? { family } : {});
  const model = learn(
    [
      record('a', 'Show the funds of Vanguard.', 'Vanguard'),
      record('b', 'Show the funds of Fidelity.', 'Fidelity'),
      record('c', 'Show the funds of Schwab.', 'Schwab'),
      record('d', 'Show the funds on offer.'),
      record('e', 'List all funds today.'),
    ],
    [funds],
  );
  const fill = (query: string) => {
    const then = query.indexOf('Then');
    return fillArgs(funds, { query, focus: [[then, query.length]], outputs: [] }, model.get(funds.name)).args;
  };

  it('is left out when only another clause writes a value, and set from this call’s clause', () => {
    expect(fill('First name a big fund house, say Invesco. Then show the funds on offer.')).toEqual({});
    expect(fill('First name a big fund house. Then show the funds of Invesco.')).toEqual({ family: 'Invesco' });
  });
});

describe('a parameter whose values seldom came from the request', () => {
  const search = {
    name: 'place_search',
    description: 'Places matching a name, with their coordinates.',
    inputSchema: obj({ q: { type: 'string' }, limit: { type: 'integer' } }, ['q', 'limit']),
  } satisfies ToolDescriptor;
  const record = (id: string, query: string, q: string, limit: number): TaskRecord =>
    oneCall(id, query, search.name, { q, limit });
  const model = learn(
    [
      record('a', 'Find Paris and its coordinates.', 'Paris', 1),
      record('b', 'Where is Lyon?', 'Lyon', 3),
      record('c', 'Look up Nantes for me.', 'Nantes', 5),
      record('d', 'Find Lille, then its weather.', 'Lille', 1),
      record('e', 'Show me 5 places named Springfield.', 'Springfield', 5),
    ],
    [search],
  );
  const fill = (query: string) =>
    fillArgs(search, { query, focus: [[0, query.indexOf('Then')]], outputs: [] }, model.get(search.name)).args;

  it('takes no number another clause wrote, and the usual value instead', () => {
    expect(fill('Find Toulouse. Then give me the 30-day forecast there.')).toEqual({ q: 'Toulouse', limit: 1 });
  });
});

describe('a recorded amount of a unit the request spells out', () => {
  const bars: ToolDescriptor = {
    name: 'price_bars',
    description: 'Price bars of a ticker at a bar size.',
    inputSchema: obj({ ticker: { type: 'string' }, size: { type: 'string' } }, ['ticker', 'size']),
  };
  const record = (id: string, query: string, ticker: string, size: string): TaskRecord =>
    oneCall(id, query, bars.name, { ticker, size });
  const model = learn(
    [
      record('a', 'Show IBM bars at 30min.', 'IBM', '30min'),
      record('b', 'MSFT bars please.', 'MSFT', '1h'),
      record('c', 'Price bars of ORCL.', 'ORCL', '1h'),
      record('d', 'Give me SAP bars at 15min.', 'SAP', '15min'),
      record('e', 'Bars for INTC.', 'INTC', '1h'),
      record('f', 'HPQ bars at 15min.', 'HPQ', '15min'),
      record('g', 'Bars of DELL at 30min.', 'DELL', '30min'),
      record('h', 'Show CSCO bars.', 'CSCO', '1h'),
      record('i', 'Bars of AMD at 15min please.', 'AMD', '15min'),
      record('j', 'NVDA bars at 30min.', 'NVDA', '30min'),
    ],
    [bars],
  );

  it('is recognised: "15-minute bars" are 15min bars, not the usual size', () => {
    const query = 'Show the 15-minute bars of ACME.';
    expect(fillArgs(bars, { query, outputs: [] }, model.get(bars.name)).args).toEqual({
      ticker: 'ACME',
      size: '15min',
    });
  });

  it('is recognised with the unit apart: "30 minutes" is 30min', () => {
    const query = 'Show ACME bars for every 30 minutes.';
    expect(fillArgs(bars, { query, outputs: [] }, model.get(bars.name)).args).toEqual({
      ticker: 'ACME',
      size: '30min',
    });
  });
});

describe('a coordinate pair the request writes longitude first', () => {
  const stations: ToolDescriptor = {
    name: 'weather_stations',
    description: 'Weather stations near a point.',
    inputSchema: obj({ lat: { type: 'number' }, lon: { type: 'number' } }, ['lat', 'lon']),
  };
  const record = (id: string, lat: number, lon: number): TaskRecord =>
    oneCall(id, `Which weather stations are near ${lat}, ${lon}?`, stations.name, { lat, lon });
  const record2 = (id: string, query: string, lat: number, lon: number): TaskRecord =>
    oneCall(id, query, stations.name, { lat, lon });
  const model = learn(
    [
      record('a', 59.91, 10.75),
      record2('b', 'List the stations around 40.42, -3.7.', 40.42, -3.7),
      record2('c', 'Stations at -33.87, 151.21 please.', -33.87, 151.21),
    ],
    [stations],
  );

  it('is read by its values: a number beyond ±90 is no latitude', () => {
    const query = 'Which weather stations are near -122.33, 47.61?';
    expect(fillArgs(stations, { query, outputs: [] }, model.get(stations.name)).args).toEqual({
      lat: 47.61,
      lon: -122.33,
    });
  });

  it('is read in order when both numbers could be latitudes', () => {
    const query = 'Which weather stations are near 47.61, 10.87?';
    expect(fillArgs(stations, { query, outputs: [] }, model.get(stations.name)).args).toEqual({
      lat: 47.61,
      lon: 10.87,
    });
  });
});

describe('a value the request labels with the parameter’s whole name', () => {
  const now: ToolDescriptor = {
    name: 'current_conditions',
    description: 'Current weather at a place.',
    inputSchema: obj({ place_id: { type: 'string', description: 'Identifier of a place.' } }, ['place_id']),
  };
  // The records pass a place's name, slugged; their requests write it after "for".
  const model = learn(
    [
      oneCall('a', 'Get the current weather for Oslo.', now.name, { place_id: 'oslo' }),
      oneCall('b', 'Get the current weather for Lima, please.', now.name, { place_id: 'lima' }),
      oneCall('c', 'Show the current weather for Quito.', now.name, { place_id: 'quito' }),
    ],
    [now],
  );

  it('leaves the name to be passed when no value is labelled', () => {
    const query = 'Get the current weather for Arguello, then the sunrise.';
    expect(fillArgs(now, { query, outputs: [] }, model.get(now.name)).args).toEqual({ place_id: 'arguello' });
  });
});
