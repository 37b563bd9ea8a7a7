import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { ToolHint } from '../../graph/schema.js';
import { fillArgs } from './fill-args.js';

/**
 * What the filler reads besides the request: the tool's schema (what any model reading it sees) and
 * the hint of the step, never records. Each case is a small made-up tool.
 */
const monthly: ToolDescriptor = {
  name: 'fx_monthly',
  description: 'Monthly exchange rates between two currencies.',
  inputSchema: {
    type: 'object',
    properties: {
      function: { type: 'string', description: 'The time series of your choice.', default: 'FX_MONTHLY' },
      from_symbol: { type: 'string', description: 'A three-letter currency code, e.g. `EUR`.' },
      to_symbol: { type: 'string', description: 'A three-letter currency code, e.g. `USD`.' },
      outputsize: { type: 'string', description: 'Strings `compact` and `full` are accepted.' },
    },
    required: ['function', 'from_symbol', 'to_symbol'],
  },
};

/** A tool with these parameters (JSON-Schema properties), of which `required` are required. */
const described = (
  name: string,
  description: string,
  properties: Record<string, { type: string; description: string }>,
  required: string[],
): ToolDescriptor => ({ name, description, inputSchema: { type: 'object', properties, required } });

/** A tool whose parameters are all required strings, each with its description ('' for none). */
const requiredStrings = (name: string, description: string, params: Record<string, string>): ToolDescriptor => ({
  name,
  description,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(params).map(([p, about]) => [
        p,
        about ? { type: 'string', description: about } : { type: 'string' },
      ]),
    ),
    required: Object.keys(params),
  },
});

/** A tool whose parameters are all required lists of item ids. */
const itemLists = (name: string, description: string, params: string[]): ToolDescriptor => ({
  name,
  description,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(
      params.map((p) => [
        p,
        { type: 'array', items: { type: 'string' }, description: "The item ids, each such as '1008292230'." },
      ]),
    ),
    required: params,
  },
});

describe('argument filling without a hint', () => {
  it("takes a person's name parts from a written name, never from codes or numbers", () => {
    const byName = requiredStrings(
      'find_user_id_by_name_zip',
      'Find a user id by first name, last name and zip code.',
      {
        first_name: '',
        last_name: '',
        zip: "The zip code, such as '12345'.",
      },
    );
    const named = fillArgs(byName, { query: 'I am Yusuf Rossi in 19122 and want a USB lamp.', outputs: [] });
    expect(named.args).toMatchObject({ first_name: 'Yusuf', last_name: 'Rossi', zip: '19122' });
    // No name written: no call with codes for names (a call that could only fail), the names are missing.
    const unnamed = fillArgs(byName, { query: 'I am in 28236 and prefer battery > USB > AC.', outputs: [] });
    expect(unnamed.missing).toEqual(['first_name', 'last_name']);
  });

  it('takes an id from an earlier output that is JSON text, under a key that names what the parameter names', () => {
    const orderDetails = requiredStrings('get_order_details', 'Get the status and details of an order.', {
      order_id: "The order id, such as '#W0000000'.",
    });
    const user = JSON.stringify({ name: { first_name: 'Ana' }, orders: ['#W5550001'] });
    const filled = fillArgs(orderDetails, { query: 'What is the status of my order?', outputs: [user] });
    expect(filled.missing).toEqual([]);
    expect(filled.args.order_id).toBe('#W5550001');
  });

  it("never gives an id parameter a value of another form than its documented example ('256GB' is no 'sara_doe_496')", () => {
    const userDetails = requiredStrings('get_user_details', 'Get the details of a user.', {
      user_id: "The user id, such as 'sara_doe_496'.",
    });
    const wrongForm = fillArgs(userDetails, { query: 'I want the 256GB tablet instead.', outputs: [] });
    expect(wrongForm.missing).toEqual(['user_id']);
    // An id made of a longer name has the example's form.
    const found = fillArgs(userDetails, { query: 'What is the status?', outputs: ['mary_ann_lee_12'] });
    expect(found.args.user_id).toBe('mary_ann_lee_12');
  });

  it('never gives one identifier to two parameters of a call', () => {
    const exchange = itemLists('exchange_items', 'Exchange delivered items for new items.', [
      'item_ids',
      'new_item_ids',
    ]);
    const one = fillArgs(exchange, { query: 'Exchange item 3704016729 for the waterproof one.', outputs: [] });
    expect(one.missing).toEqual(['new_item_ids']);
    const two = fillArgs(exchange, { query: 'Exchange item 3704016729 for item 8277474082.', outputs: [] });
    expect(two.missing).toEqual([]);
    expect(new Set([two.args.item_ids, two.args.new_item_ids].flat())).toEqual(new Set(['3704016729', '8277474082']));
  });

  it('gives a list parameter a list', () => {
    const returnItems = itemLists('return_items', 'Return delivered items of an order.', ['item_ids']);
    const { args } = fillArgs(returnItems, { query: 'Please return item 3704016729.', outputs: [] });
    expect(args.item_ids).toEqual(['3704016729']);
  });

  it('takes a documented value the request writes for an optional parameter it names', () => {
    const query = 'Show me the monthly NZD to SEK exchange rates with the outputsize full.';
    expect(fillArgs(monthly, { query, outputs: [] }).args.outputsize).toBe('full');
  });

  it('takes a value the description states as the default in prose when the request writes it', () => {
    const daily = described(
      'daily_point_data',
      'Historical daily weather for a point.',
      {
        lat: { type: 'number', description: "The point's latitude." },
        lon: { type: 'number', description: "The point's longitude." },
        units: { type: 'string', description: 'The unit system of the parameters. Default is metric.' },
      },
      ['lat', 'lon'],
    );
    const query = 'Daily data for latitude 1.28 and longitude 103.86 in metric units.';
    expect(fillArgs(daily, { query, outputs: [] }).args.units).toBe('metric');
  });

  it('reads a list of values as the values, not what the items quote', () => {
    const hourly = described(
      'hourly_forecast',
      'Hourly forecast for a place.',
      {
        place_id: { type: 'string', description: 'Identifier of a place.' },
        units: {
          type: 'string',
          description:
            'Unit system. The available values are:\n\n- `auto`: Select the system automatically.\n- `metric`: Metric (SI) units (`°C`, `mm/h`).\n- `us`: Imperial units (`°F`, `in/h`, `in`, `mph`).\n- `uk`: Same as `metric`, except that wind speeds are in `mph`.',
        },
        language: {
          type: 'string',
          description: 'The language of text summaries:\n\n- `en`: English\n- `es`: Spanish\n- `de`: German',
        },
      },
      ['place_id', 'language'],
    );
    // "in" (a unit an item quotes) is no unit system; `es` is a language the list names.
    const { args } = fillArgs(hourly, {
      query: 'Hourly forecast for place ID fishermans-warf in es, please.',
      outputs: [],
    });
    expect(args.units).toBeUndefined();
    expect(args.language).toBe('es');
  });

  it('joins the two codes a request writes apart when the hint says the parameter takes them joined', () => {
    const rate = requiredStrings('exchange_rate', 'The exchange rate of a currency pair.', { pair: 'The pair.' });
    const query = 'First list the exchanges, then show me the current rate between BTC and USD.';
    const focus: Array<[number, number]> = [[query.indexOf('then'), query.length]];
    const hint = (listSep?: string): ToolHint => ({
      tool: rate.name,
      params: { pair: { from: { request: 1 }, shapes: { pair: 0.9 }, ...(listSep ? { format: { listSep } } : {}) } },
    });
    expect(fillArgs(rate, { query, outputs: [], focus }, hint(',')).args.pair).toBe('BTC,USD');
    expect(fillArgs(rate, { query: 'The BTC/USD rate, please.', outputs: [] }, hint(', ')).args.pair).toBe('BTC, USD');
    expect(fillArgs(rate, { query, outputs: [], focus }, hint()).args.pair).not.toBe('BTC,USD');
    const byZip = requiredStrings('weather_by_zip', 'Current weather by zip code.', { zip: 'Zip code and country.' });
    const zipHint: ToolHint = {
      tool: byZip.name,
      params: { zip: { from: { request: 1 }, shapes: { text: 0.6 }, format: { listSep: ',' } } },
    };
    const zipQuery = 'What is the weather for zip code 98101 in the US?';
    expect(fillArgs(byZip, { query: zipQuery, outputs: [] }, zipHint).args.zip).toBe('98101,US');
  });

  it('reads values a description quotes in double quotes, found where the request writes another form of one', () => {
    const flights = described(
      'airport_flights',
      'Flights of an airport.',
      {
        ident: { type: 'string', description: 'ICAO code of the airport.' },
        direction: { type: 'string', description: 'Direction, one of "arrival", "departure"' },
      },
      ['ident', 'direction'],
    );
    const query = 'Check the departing flights of EHAM on September 1, 2025.';
    expect(fillArgs(flights, { query, outputs: [] }).args.direction).toBe('departure');
  });

  it("sets an optional parameter whose schema default the call's part writes, without naming the parameter", () => {
    const games: ToolDescriptor = {
      name: 'filter_games',
      description: 'Free games by tag and platform.',
      inputSchema: {
        type: 'object',
        properties: {
          tag: { type: 'string' },
          platform: { type: 'string', default: 'pc' },
          sort_by: { type: 'string', default: 'relevance' },
        },
        required: ['tag'],
      },
    };
    const { args } = fillArgs(games, { query: 'Find PC games tagged "shooter".', outputs: [] });
    expect(String(args.platform).toLowerCase()).toBe('pc');
    expect(args).not.toHaveProperty('sort_by');
    expect(fillArgs(games, { query: 'Find games tagged "shooter".', outputs: [] }).args).not.toHaveProperty('platform');
  });

  it('leaves optional parameters the request does not name out', () => {
    const { args } = fillArgs(monthly, { query: 'Monthly NZD to SEK rates.', outputs: [] });
    expect(args).not.toHaveProperty('outputsize');
  });
});

describe('argument filling with a hint', () => {
  const hint: ToolHint = {
    tool: monthly.name,
    params: {
      function: { from: { constant: 1 }, values: [{ value: 'FX_MONTHLY', share: 1 }] },
      from_symbol: { from: { request: 1 }, after: { to: 0.9 }, shapes: { code3: 1 } },
      to_symbol: { from: { request: 1 }, before: { to: 0.9 }, shapes: { code3: 1 } },
      outputsize: {
        set: 'always',
        setRates: { overall: 0.9 },
        from: { constant: 0.7, request: 0.3 },
        values: [{ value: 'compact', share: 0.9 }],
      },
    },
  };

  it('reads which value goes where from the words around it, and sets what the step always sets', () => {
    const { args } = fillArgs(monthly, { query: 'Monthly NZD to SEK rates.', outputs: [] }, hint);
    expect(args).toEqual({ function: 'FX_MONTHLY', from_symbol: 'NZD', to_symbol: 'SEK', outputsize: 'compact' });
  });

  it("never gives a parameter whose values are sentences a person's name", () => {
    const transfer = requiredStrings('transfer_to_human', 'Transfer the user to a human agent.', {
      summary: 'A summary of the user issue.',
    });
    const sentences: ToolHint = {
      tool: transfer.name,
      params: { summary: { from: { request: 0.2 }, shapes: { text: 1 } } },
    };
    const filled = fillArgs(
      transfer,
      { query: 'You are Isabella Johansson and want to return the hose.', outputs: [] },
      sentences,
    );
    expect(filled.missing).toEqual(['summary']);
  });

  it('never gives a parameter whose values never had the shape of an identifier an identifier an earlier result holds', () => {
    const calculate = requiredStrings('calculate', 'Calculate the result of an arithmetic expression.', {
      expression: 'The expression to calculate.',
    });
    const sums: ToolHint = {
      tool: calculate.name,
      params: { expression: { from: { upstream: 0.6, request: 0.4 }, keys: { user_id: 0.2 }, shapes: { text: 1 } } },
    };
    const outputs = [{ user_id: 'noah_patel_6952', orders: ['#W6111398'] }];
    const filled = fillArgs(calculate, { query: 'How much will I get back in total?', outputs }, sums);
    expect(filled.args).not.toHaveProperty('expression');
  });

  it('never gives a parameter whose values were all decimals (a latitude) a count the request writes', () => {
    const nearby = requiredStrings('places_nearby', 'Places of a category near a point.', {
      lat: 'Latitude of the point.',
      lon: 'Longitude of the point.',
      radius: 'Search radius in meters.',
    });
    const learned: ToolHint = {
      tool: nearby.name,
      params: {
        lat: { from: { request: 0.4, upstream: 0.6 }, shapes: { float: 1 } },
        lon: { from: { request: 0.4, upstream: 0.6 }, shapes: { float: 1 } },
        radius: { from: { request: 0.9 }, shapes: { int: 1 } },
      },
    };
    const far = fillArgs(
      nearby,
      { query: 'Find museums within 5 km of the harbour, and cinemas within 2 km.', outputs: [] },
      learned,
    );
    expect(far.args).not.toHaveProperty('lat');
    expect(far.args).not.toHaveProperty('lon');
    // A decimal the request writes still fills it.
    const at = fillArgs(nearby, { query: 'Find museums near 47.6038 latitude within 10 km.', outputs: [] }, learned);
    expect(at.args).toMatchObject({ lat: '47.6038' });
  });

  it('passes a code written in capitals in lower case where the parameter learned to pass lower case (NPR → npr)', () => {
    const bySource = requiredStrings('news_by_source', 'Latest articles of one news source.', {
      source: 'The source, e.g. cnn or bbc.',
    });
    const lower: ToolHint = {
      tool: bySource.name,
      params: { source: { from: { request: 1 }, shapes: { lower: 0.85, code: 0.15 }, format: { lower: true } } },
    };
    const query = 'Get the latest articles from NPR, please.';
    expect(fillArgs(bySource, { query, outputs: [] }, lower).args).toEqual({ source: 'npr' });
    // Without that learned format, the code is passed as written.
    const asWritten: ToolHint = {
      tool: bySource.name,
      params: { source: { from: { request: 1 }, shapes: { code: 1 } } },
    };
    expect(fillArgs(bySource, { query, outputs: [] }, asWritten).args).toEqual({ source: 'NPR' });
  });

  it('never gives a parameter whose values are paths of words (time zones) a language or a town', () => {
    const astro = described(
      'astro',
      'Sun and moon events for a place.',
      {
        place_id: { type: 'string', description: 'Identifier of a place.' },
        timezone: { type: 'string', description: 'Timezone of the dates.' },
      },
      ['place_id'],
    );
    const zones: ToolHint = {
      tool: astro.name,
      params: {
        place_id: { from: { request: 1 }, shapes: { lower: 1 }, format: { lower: true } },
        timezone: {
          set: 'always',
          setRates: { overall: 1 },
          from: { request: 0.6, constant: 0.4 },
          after: { timezone: 0.9 },
          shapes: { path: 0.6, lower: 0.4 },
        },
      },
    };
    const query = 'Astronomical data for Tokyo in English using the Asia/Tokyo timezone.';
    expect(fillArgs(astro, { query, outputs: [] }, zones).args.timezone).toBe('Asia/Tokyo');
    const unwritten = 'Astronomical data for Tokyo in English.';
    expect(fillArgs(astro, { query: unwritten, outputs: [] }, zones).args.timezone).not.toBe('English');
  });

  it('leaves a required parameter out when the calls it was learned from mostly left it out, and sets it when they set it', () => {
    const tags = described(
      'games_by_tags',
      'Free games filtered by several tags.',
      { tag: { type: 'string', description: 'Tags joined by dots.' } },
      ['tag'],
    );
    const query = 'List the free fantasy games.';
    const learned = (overall: number): ToolHint => ({
      tool: tags.name,
      params: { tag: { setRates: { overall }, from: { request: 1 }, shapes: { lower: 1 }, format: { lower: true } } },
    });
    const omitted = fillArgs(tags, { query, outputs: [] }, learned(0.1));
    expect(omitted.args).toEqual({});
    expect(omitted.missing).toEqual([]);
    const tagged = 'Show me free games with the tag "fantasy".';
    expect(fillArgs(tags, { query: tagged, outputs: [] }, learned(0.9)).args.tag).toBe('fantasy');
    // Without a hint the schema decides: a required parameter is always given a value.
    expect(fillArgs(tags, { query: tagged, outputs: [] }).args.tag).toBe('fantasy');
  });

  it('lets the request override a usual value when it writes another documented one', () => {
    const { args } = fillArgs(monthly, { query: 'Monthly NZD to SEK rates, full output.', outputs: [] }, hint);
    expect(args.outputsize).toBe('full');
  });
});

describe('one value, one parameter', () => {
  const geocode = described(
    'geocode',
    'Coordinates of a city.',
    { city: { type: 'string', description: 'The city.' }, state: { type: 'string', description: 'Its state.' } },
    ['city'],
  );
  const named = { from: { request: 1 }, shapes: { name: 1 } } as const;
  const hint: ToolHint = {
    tool: 'geocode',
    params: { city: named, state: { ...named, set: 'always', setRates: { overall: 1 } } },
  };

  it('an optional parameter is left out rather than given the value another parameter took', () => {
    expect(fillArgs(geocode, { query: 'Find the coordinates of Seattle.', outputs: [] }, hint).args).toEqual({
      city: 'Seattle',
    });
    // With a value of its own it is set.
    expect(fillArgs(geocode, { query: 'Find the coordinates of Portland in Maine.', outputs: [] }, hint).args).toEqual({
      city: 'Portland',
      state: 'Maine',
    });
  });

  it("a written name is not another parameter's value when a parameter passes it as its code (English, `en`)", () => {
    const news = requiredStrings('search_news', 'News articles about a keyword.', { keyword: '', language: '' });
    const newsHint: ToolHint = {
      tool: 'search_news',
      params: {
        keyword: { from: { request: 1 }, shapes: { name: 1 } },
        language: { from: { constant: 1 }, values: [{ value: 'en', share: 1 }] },
      },
    };
    const query = 'I would like English news about Wagner.';
    expect(fillArgs(news, { query, outputs: [] }, newsHint).args).toEqual({ keyword: 'Wagner', language: 'en' });
  });

  it("takes the id from the earlier result, and the list item, that the call's part names", () => {
    const returnItem = requiredStrings('return_items', 'Return delivered items of an order.', {
      order_id: "The order id, such as '#W0000000'.",
      item_id: "The item id, such as '1008292230'.",
    });
    const order = (id: string, ...items: Array<[string, string]>) =>
      JSON.stringify({ order_id: id, items: items.map(([name, itemId]) => ({ name, item_id: itemId })) });
    const outputs = [
      order('#W1000001', ['Tablet', '3788616824']),
      order('#W1000002', ['Sneakers', '6477915553'], ['Water Bottle', '1008292230']),
      order('#W1000003', ['Desk Lamp', '8277474082']),
    ];
    const query = 'I got my tablet. Please return the sneakers I ordered.';
    const focus: Array<[number, number]> = [[query.indexOf('Please'), query.length]];
    // Without a part naming one, the latest result gives the value.
    expect(fillArgs(returnItem, { query, outputs }).args).toEqual({ order_id: '#W1000003', item_id: '8277474082' });
    expect(fillArgs(returnItem, { query, outputs, focus }).args).toEqual({
      order_id: '#W1000002',
      item_id: '6477915553',
    });
  });
});
