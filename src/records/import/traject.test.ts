import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordSchema } from '../schema.js';
import { bundledTrajectPaths } from '../bundled.js';
import { DROP_FAILED_CALL, DROP_UNKNOWN_API, importTraject } from './traject.js';

const MINI = join(import.meta.dirname, '../../../test/fixtures/records/traject-mini');
const mini = (keepFailed = false) =>
  importTraject(join(MINI, 'traj_query.json'), join(MINI, 'Mini_tool.json'), { keepFailed });

describe('importTraject (hand-made fixture)', () => {
  it('turns a trajectory into a record with ToolBench names, merged args, raw outputs and meta hints', () => {
    const { records } = mini();
    expect(records).toHaveLength(1);
    const [rec] = records;
    expect(RecordSchema.parse(rec)).toEqual(rec);
    expect(rec).toMatchObject({
      id: 'mini-0-0',
      group: 'mini-0',
      domain: 'Mini',
      query: 'Where is Paris and what is the weather there?',
      reference: 'Paris is at 48.85, 2.35; it is 18 °C and sunny.',
    });
    expect(rec!.calls).toEqual([
      {
        tool: 'get_24h_lookup_for_geo_codes',
        args: { q: 'Paris' },
        output: "[{'lat': 48.85, 'lon': 2.35, 'name': 'Paris'}]",
        status: 'ok',
      },
      {
        tool: 'current_weather_for_weather_hub',
        args: { city: 'Paris', days: 2, metric: true },
        output: "{'temp_c': 18, 'condition': 'Sunny'}",
        status: 'ok',
      },
    ]);
    expect(rec!.meta).toMatchObject({
      source: 'traject-bench',
      sequenceName: 'Geo → Weather',
      sequenceIndex: 0,
      trajectoryIndex: 0,
      adapt: [{ call: 1, parameter: 'city', constraint: 'the city found first', reason: 'Paris is the first result.' }],
    });
  });

  it('drops records with failed calls by reason and counts everything', () => {
    const { counts } = mini();
    expect(counts).toMatchObject({
      records: 3,
      recordsAllOk: 1,
      kept: 1,
      dropped: { [DROP_FAILED_CALL]: 1, [DROP_UNKNOWN_API]: 1 },
      calls: 5,
      failedCalls: 2,
      unknownApiCalls: 1,
      unknownApis: ['Flightera Flight Data: airlineAircrafts'],
      keptCalls: 2,
      distinctTools: 2,
      distinctToolsKept: 2,
      toolDefs: 3,
      tools: 2,
      duplicateDefs: 1,
      collisions: [],
      widenedParams: [],
    });
  });

  it('keeps failed records with keepFailed, naming unknown APIs from their display name', () => {
    const { records, counts } = mini(true);
    expect(records.map((r) => r.id)).toEqual(['mini-0-0', 'mini-0-1', 'mini-1-0']);
    expect(counts.dropped).toEqual({});
    expect(records[1]!.calls[1]).toMatchObject({ status: 'error', output: 'ERROR: Failed after 5 attempts' });
    expect(records[2]!.calls[0]!.tool).toBe('airlineaircrafts_for_flightera_flight_data');
  });

  it('builds JSON-Schema inputs from the ToolBench parameter lists', () => {
    const { tools } = mini();
    const weather = tools.find((t) => t.name === 'current_weather_for_weather_hub')!;
    expect(weather.description).toBe(
      'Current Weather: Current conditions for a city.\nPart of Weather Hub: Weather data for any city.',
    );
    expect(weather.inputSchema).toEqual({
      type: 'object',
      required: ['city'],
      properties: {
        city: { type: 'string', description: 'City name', default: 'London' },
        days: { type: 'number', description: 'Days ahead', default: 3 },
        metric: { type: 'boolean', default: true },
        dt: { type: 'string', description: 'Date Format: YYYY-MM-DD.' },
        unit: { type: 'string', description: 'Unit', default: 'C' },
        extra: { type: 'string', description: '? Type: weird.', default: '5' },
      },
    });
    expect(tools.find((t) => t.name === 'get_24h_lookup_for_geo_codes')!.inputSchema).toEqual({
      type: 'object',
      required: [],
      properties: { q: { type: 'string', description: 'query' } },
    });
  });

  it('names the file and JSON path of a malformed trajectory file', () => {
    expect(() => importTraject(join(MINI, 'Mini_tool.json'), join(MINI, 'Mini_tool.json'))).toThrow(
      /Mini_tool\.json \(\$\[0\]\.query\): is required/,
    );
  });
});

describe('importTraject (bundled TRAJECT-Bench data)', () => {
  it('imports Travel: 136 records, 112 with every call ok, 892 calls, 37 distinct tools', () => {
    const p = bundledTrajectPaths('travel');
    const { records, tools, counts } = importTraject(p.trajQuery, p.tools);
    expect(counts).toMatchObject({
      records: 136,
      recordsAllOk: 112,
      kept: 112,
      calls: 892,
      failedCalls: 24,
      unknownApiCalls: 16,
      distinctTools: 37,
      toolDefs: 131,
    });
    expect(new Set(records.map((r) => r.id)).size).toBe(112);
    expect(records.every((r) => /^travel-\d+-[0-3]$/.test(r.id) && r.group === r.id.replace(/-\d+$/, ''))).toBe(true);
    expect(counts.widenedParams).toContainEqual({
      tool: 'hotel_details_for_priceline_com_provider',
      param: 'photos',
      from: 'boolean',
      added: ['string'],
    });
    const names = new Set(tools.map((t) => t.name));
    expect(records.flatMap((r) => r.calls).every((c) => names.has(c.tool) && c.tool.length <= 64)).toBe(true);
  });

  it('reports the Bybit name collision in Finance and describes the API the records call', () => {
    const p = bundledTrajectPaths('Finance');
    const { tools, counts } = importTraject(p.trajQuery, p.tools);
    expect(counts.collisions.map((c) => c.name)).toEqual(['contract_info_for_bybit']);
    const bybit = tools.find((t) => t.name === 'contract_info_for_bybit')!;
    expect(Object.keys((bybit.inputSchema as { properties: object }).properties)).toContain('status');
  });
});

describe('importTraject: parallel sets', () => {
  const PAR = join(import.meta.dirname, '../../../test/fixtures/records/traject-parallel');
  const run = (keepFailed = false) =>
    importTraject(join(PAR, 'simple_ver.json'), join(PAR, 'Travel_tool.json'), { keepFailed });

  it('imports a parallel set: string final_answer, calls in listed order, ERROR outputs are failed calls', () => {
    const { records, counts } = run();
    expect(records.map((r) => r.id)).toEqual(['travel-simple_ver-0', 'travel-simple_ver-1']);
    for (const r of records) expect(RecordSchema.parse(r)).toEqual(r);
    expect(records[0]!.calls.map((c) => c.tool)).toEqual([
      'autocomplete_for_deutsche_bahn',
      'schedule_for_flixbus',
      'airlinesearch_for_flightera_flight_data',
    ]);
    expect(records[0]!.calls[0]!.args).toEqual({ query: 'berlin hauptbahnhof' });
    expect(records[0]!.reference).toMatch(/^I've gathered information for your trip planning/);
    expect(records[0]!.meta).toEqual({
      source: 'traject-bench',
      trajectoryType: 'parallel',
      set: 'simple_ver',
      index: 0,
    });
    expect(counts).toMatchObject({ records: 3, recordsAllOk: 2, kept: 2, dropped: { [DROP_FAILED_CALL]: 1 } });
    const kept = run(true);
    const failed = kept.records[2]!.calls.filter((c) => c.status === 'error');
    expect(failed.length).toBeGreaterThan(0);
    expect(String(failed[0]!.output)).toMatch(/^ERROR/);
  });
});
