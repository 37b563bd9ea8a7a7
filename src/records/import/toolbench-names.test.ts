import { describe, expect, it } from 'vitest';
import {
  changeName,
  findNameCollisions,
  matchFunctionName,
  standardize,
  standardizeParamName,
  toolbenchFunctionName,
} from './toolbench-names.js';

describe('standardize (ToolBench)', () => {
  it.each([
    ['Yahoo Finance_v2', 'yahoo_finance_v2'],
    ['WeatherAPI.com', 'weatherapi_com'],
    ['{type}/parent/get-recent-investment-rating-change', 'type_parent_get_recent_investment_rating_change'],
    ['TIME_SERIES_DAILY', 'time_series_daily'],
    ['24 hours tickers', 'get_24_hours_tickers'],
    ['  --Hello,   World!-- ', 'hello_world'],
    ['/points/{point}', 'points_point'],
    ['a^b', 'a^b'],
    ['天气 API', '天气_api'],
    ['!!!', ''],
  ])('%s → %s', (input, expected) => {
    expect(standardize(input)).toBe(expected);
  });
});

describe('changeName and parameter names', () => {
  it('renames reserved words only when they are the whole name', () => {
    expect(changeName('id')).toBe('is_id');
    expect(changeName('from')).toBe('is_from');
    expect(changeName('idx')).toBe('idx');
    expect(standardizeParamName('securityId')).toBe('securityid');
    expect(standardizeParamName('ID')).toBe('is_id');
  });
});

describe('toolbenchFunctionName', () => {
  it('builds api_for_tool names as in the ToolBench fixtures', () => {
    expect(toolbenchFunctionName('{type}/parent/get-recent-investment-rating-change', 'Morning Star')).toBe(
      'type_parent_get_recent_investment_rating_change_for_morning_star',
    );
    expect(toolbenchFunctionName('TIME_SERIES_DAILY', 'Alpha Vantage')).toBe('time_series_daily_for_alpha_vantage');
    expect(toolbenchFunctionName('id', 'Some Tool')).toBe('is_id_for_some_tool');
  });

  it('keeps the last 64 characters of a long name', () => {
    const name = toolbenchFunctionName('SHO Threshold Securities List', 'Investors Exchange (IEX) Trading');
    expect('sho_threshold_securities_list_for_investors_exchange_iex_trading'.length).toBe(64);
    expect(name).toBe('sho_threshold_securities_list_for_investors_exchange_iex_trading');
    const longer = toolbenchFunctionName('Historical data', 'Forecast crypto and fiat currency exchange rates');
    expect(longer).toHaveLength(64);
    expect(longer).toBe('orical_data_for_forecast_crypto_and_fiat_currency_exchange_rates');
  });
});

describe('findNameCollisions', () => {
  it('reports two APIs whose truncated names agree, but not the same API twice', () => {
    const tool = 'Forecast crypto and fiat currency exchange rates';
    const collisions = findNameCollisions([
      { tool, api: 'Crypto historical data' },
      { tool, api: 'Fiat historical data' },
      { tool, api: 'Fiat historical data' },
      { tool: 'Alpha Vantage', api: 'TIME_SERIES_DAILY' },
    ]);
    expect(collisions).toEqual([
      {
        name: 'orical_data_for_forecast_crypto_and_fiat_currency_exchange_rates',
        apis: [
          { tool, api: 'Crypto historical data' },
          { tool, api: 'Fiat historical data' },
        ],
      },
    ]);
  });
});

describe('matchFunctionName', () => {
  const offered = ['search_for_my_tool_for_shop', 'for_shop', 'get_item_for_shop', 'Finish'];
  it('prefers an exact match, then the longest suffix match', () => {
    expect(matchFunctionName('get_item_for_shop', offered)).toBe('get_item_for_shop');
    expect(matchFunctionName('xsearch_for_my_tool_for_shop', offered)).toBe('search_for_my_tool_for_shop');
    expect(matchFunctionName('dota_2_steam_web', offered)).toBeUndefined();
  });
});
