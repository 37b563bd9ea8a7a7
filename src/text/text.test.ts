import { describe, expect, it } from 'vitest';
import { nameWordsOf } from './words.js';
import { requestClauses, splitClauses } from './clauses.js';

describe('splitClauses: fragments that ask for nothing', () => {
  it('joins a qualifying phrase cut off by "also" to the clause it qualifies', () => {
    expect(
      splitClauses(
        'Check the snow conditions at Aspen in imperial units, then get the 5-day forecast for Aspen also in imperial units. After that, find the nearest place to 37.8, -122.4.',
      ),
    ).toEqual([
      'Check the snow conditions at Aspen in imperial units',
      'get the 5-day forecast for Aspen also in imperial units',
      'find the nearest place to 37.8, -122.4',
    ]);
    expect(splitClauses('Show the hourly weather at those coordinates, also in metric units.')).toEqual([
      'Show the hourly weather at those coordinates, also in metric units',
    ]);
  });

  it('reads "next" before a noun as an adjective, not as a sequence marker', () => {
    expect(
      splitClauses(
        'I need to find Chicago airports for my trip next year. Could you show me the airport nearest downtown?',
      ),
    ).toEqual([
      'I need to find Chicago airports for my trip next year',
      'Could you show me the airport nearest downtown',
    ]);
    expect(
      splitClauses('Get the ski forecast for Duck Mountain for the next 5 days. Finally, show the snow report.'),
    ).toEqual(['Get the ski forecast for Duck Mountain for the next 5 days', 'show the snow report']);
  });

  it('keeps a short clause that names a thing to look up, and a short request', () => {
    expect(
      splitClauses('Get the income statement of AAPL, then its cash flow, and finally its balance sheet.'),
    ).toEqual(['Get the income statement of AAPL', 'its cash flow', 'its balance sheet']);
    expect(splitClauses('Get the snow report. Next, get the forecast.')).toEqual([
      'Get the snow report',
      'get the forecast',
    ]);
  });
});

describe("splitClauses: sentence ends are the library's", () => {
  it('does not end a clause at the period of an abbreviation before a parenthesis', () => {
    expect(
      splitClauses(
        "Show me the portfolio composition for Caterpillar Inc. (CAT) since it's well known. Then get its latest news.",
      ),
    ).toEqual([
      "Show me the portfolio composition for Caterpillar Inc. (CAT) since it's well known",
      'get its latest news',
    ]);
    expect(splitClauses('Get the news on ACADIA Pharmaceuticals Inc.  (ACAD). Then analyze it.')).toEqual([
      'Get the news on ACADIA Pharmaceuticals Inc.  (ACAD)',
      'analyze it',
    ]);
  });

  it('ends a sentence at a period the library reads as an abbreviation when a word no name takes follows', () => {
    expect(splitClauses('Get the forecast for 37.8, -122.4W. Then check the alerts.')).toEqual([
      'Get the forecast for 37.8, -122.4W',
      'check the alerts',
    ]);
  });
});

describe('nameWordsOf: run-together tool names', () => {
  it('splits a name written without separators into the words its description uses', () => {
    expect(
      nameWordsOf(
        'usacitieslist_for_gas_price',
        'usaCitiesList: Retrieves a list of cities with gasoline and diesel price information across the USA.',
      ),
    ).toBe('usa cities list for gas price');
    expect(nameWordsOf('airportinfo', 'Returns airport details; info for one airport.')).toBe('airport info');
  });

  it('leaves a word alone that the description does not make up wholly, and short or known words', () => {
    expect(nameWordsOf('flightera_data', 'Flight data from a provider.')).toBe('flightera data');
    expect(nameWordsOf('getUser', 'Gets a user.')).toBe('get User');
    expect(nameWordsOf('weatherapi', 'The weatherapi service; weather from an api.')).toBe('weatherapi');
  });
});

describe('requestClauses: requests written as needs', () => {
  const query =
    'I need to find cities with Flixbus stations, then check the bus schedule for station ID 36991, and afterward find hotels near 50.07, -8.41.';

  it('splits at "afterward" as at "afterwards"', () => {
    expect(splitClauses(query)).toHaveLength(3);
  });

  it('keeps an opening "I need to find …" as the first request, while a scene-setting opening is dropped', () => {
    expect(requestClauses(query)[0]).toBe('I need to find cities with Flixbus stations');
    expect(
      requestClauses('I need comprehensive weather information for Seattle. Get the forecast, then the alerts.')[0],
    ).toBe('Get the forecast');
  });
});

describe('splitClauses: a comma before a request verb', () => {
  it('starts a new clause at ", analyze …" as at ", get …"', () => {
    expect(
      splitClauses(
        "Get the latest news for Albemarle (ALB), analyze the sentiment of ALB's news coverage, and finally show its profile.",
      ),
    ).toEqual([
      'Get the latest news for Albemarle (ALB)',
      "analyze the sentiment of ALB's news coverage",
      'show its profile',
    ]);
    expect(
      splitClauses('Read up to 100 English reviews for hotel 700022612, and see large-sized photos of it.'),
    ).toEqual(['Read up to 100 English reviews for hotel 700022612', 'see large-sized photos of it']);
    // A comma before a word that is no verb in its dictionary form starts nothing ("…, including photos").
    expect(splitClauses('Show the details of hotel 700008849, including photos and reviews.')).toEqual([
      'Show the details of hotel 700008849, including photos and reviews',
    ]);
  });
});
