import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordSchema } from '../schema.js';
import { importToolbench, queryIdOf, TOOLBENCH_DROP } from './toolbench.js';
import { UNPARSED_ARGUMENTS_KEY } from './toolbench-observation.js';

const FIX = join(import.meta.dirname, '../../../test/fixtures/records');

describe('importToolbench on upstream fixtures', () => {
  it('keeps the winning answers and counts the dropped ones by reason', () => {
    const { records, counts } = importToolbench([join(FIX, 'toolbench')]);
    expect(counts).toMatchObject({ files: 3, kept: 2, dropped: { [TOOLBENCH_DROP.giveUp]: 1 } });
    expect(records.map((r) => r.id)).toEqual(['10', '21']);
    for (const r of records) expect(RecordSchema.parse(r)).toEqual(r);
  });

  it('extracts q, r and π of a DFSDT answer (G1 10)', () => {
    const [rec] = importToolbench([join(FIX, 'toolbench/G1_answer/10_ChatGPT_DFS_woFilter_w2.json')]).records;
    expect(rec!.query).toMatch(/^Can you retrieve the contact details of the 'Gondrand' customs agency/);
    expect(rec!.reference).toMatch(/^The contact details/);
    expect(rec!.calls.map((c) => c.tool)).toEqual(['transitaires_for_transitaires', 'transitaire_for_transitaires']);
    expect(rec!.calls.every((c) => c.tool !== 'Finish')).toBe(true);
    const truncated = rec!.calls.find(
      (c) => typeof c.output === 'string' && c.output.endsWith('...') && c.output.startsWith('{"error"'),
    );
    expect(truncated, 'a truncated observation is kept as the raw content').toBeDefined();
  });

  it('keeps a hallucinated function name as called and marks error observations', () => {
    const { records, counts } = importToolbench([join(FIX, 'toolbench/G3_answer')]);
    expect(records[0]!.calls.map((c) => [c.tool, c.status])).toEqual([
      ['raiderio_call_for_raider_io', 'error'],
      ['dota_2_steam_web', 'ok'],
      ['getsponsorships_for_diablo4_smartable', 'ok'],
    ]);
    expect(records[0]!.calls[0]!.args).toEqual({
      region: 'us',
      realm: 'stormrage',
      fields: 'mythic_plus_scores_by_season:current',
      name: '',
    });
    expect(counts.unmatchedNames).toBe(1);
  });

  it('reads StableToolBench CoT answers (no finish_type) and drops invalid ones', () => {
    const { records, counts } = importToolbench([join(FIX, 'stabletoolbench')]);
    expect(counts).toMatchObject({ files: 2, kept: 1, dropped: { [TOOLBENCH_DROP.invalid]: 1 } });
    expect(records[0]!.id).toBe('1073');
    expect(records[0]!.calls.map((c) => c.tool)).toEqual([
      'popularsitesforquery_for_keyword_analysis',
      'querykeywords_for_keyword_analysis',
    ]);
  });
});

describe('importToolbench on the hand-made answer', () => {
  const all = importToolbench([join(FIX, 'toolbench/G1_answer'), join(FIX, 'toolbench-handmade')]);
  const rec = all.records.find((r) => r.meta?.file === '10_handmade_DFS.json')!;

  it('suffixes a repeated query id', () => {
    expect(all.records.map((r) => r.id)).toEqual(['10', '10-2']);
    expect(rec.id).toBe('10-2');
  });

  it('walks only the last path, ignoring reflection messages and thoughts', () => {
    expect(rec.query).toBe('What is the AAPL quote and the historical EUR rate?');
    expect(rec.reference).toBe('AAPL trades at 189.5 USD; EUR was 1.08 USD.');
    expect(rec.calls).toHaveLength(3);
    expect(all.counts.ignoredUserMessages).toBe(1);
  });

  it('parses arguments, maps names by suffix and keeps observations raw', () => {
    const [quote, rates, broken] = rec.calls;
    expect(quote).toEqual({
      tool: 'get_quote_for_stocks',
      args: { symbol: 'AAPL', is_id: 5 },
      output: "{'symbol': 'AAPL', 'price': 189.5}",
      status: 'ok',
    });
    expect(rates!.tool).toBe('orical_data_for_forecast_crypto_and_fiat_currency_exchange_rates');
    expect(rates!.args).toEqual({});
    expect(rates!.status).toBe('ok');
    expect(String(rates!.output)).toMatch(/^\{"error": "", "response": ".*\.\.\.$/s);
    expect(broken).toMatchObject({
      args: { [UNPARSED_ARGUMENTS_KEY]: '{symbol: AAPL}' },
      status: 'error',
      output: 'Tool input parse error...\n',
    });
    expect(all.counts).toMatchObject({ unparsedArguments: 1, truncatedObservations: 2, unmatchedNames: 0 });
  });

  it('collects the offered functions as tools (without Finish and the non-standard optional list)', () => {
    const tool = all.tools.find((t) => t.name === 'get_quote_for_stocks')!;
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { symbol: { type: 'string', description: 'ticker' }, is_id: { type: 'number' } },
      required: ['symbol'],
    });
    expect(all.tools.some((t) => t.name === 'Finish')).toBe(false);
  });
});

describe('queryIdOf', () => {
  it('takes the file name up to the first underscore', () => {
    expect(queryIdOf('/a/G1_answer/10_ChatGPT_DFS_woFilter_w2.json')).toBe('10');
    expect(queryIdOf('1073_CoT@1.json')).toBe('1073');
    expect(queryIdOf('plain.json')).toBe('plain');
  });
});
