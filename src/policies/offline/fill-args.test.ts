import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../records/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { learnCueModel } from './cue-model.js';
import { fillArgs } from './fill-args.js';

/**
 * Tools the records never called (a held-out API chain) still share parameter names with tools
 * they did call: the back-off statistics per parameter name decide whether the tool's schema
 * default is the usual value and whether an optional parameter is set.
 */
const fx = (fn: string, extra: Record<string, unknown> = {}): ToolDescriptor => ({
  name: `${fn.toLowerCase()}_for_alpha_vantage`,
  description: `${fn} exchange rates.`,
  inputSchema: {
    type: 'object',
    properties: {
      function: { type: 'string', default: fn },
      from_symbol: { type: 'string', default: 'EUR' },
      to_symbol: { type: 'string', default: 'USD' },
      outputsize: { type: 'string', default: 'compact' },
      ...extra,
    },
    required: ['function', 'from_symbol', 'to_symbol'],
  },
});
const daily = fx('FX_DAILY');
const weekly = fx('FX_WEEKLY');
const monthly = fx('FX_MONTHLY');
const tools = [daily, weekly, monthly];

const call = (tool: ToolDescriptor, from: string, to: string, outputsize?: string) => ({
  tool: tool.name,
  args: {
    function: (tool.inputSchema as { properties: { function: { default: string } } }).properties.function.default,
    from_symbol: from,
    to_symbol: to,
    ...(outputsize ? { outputsize } : {}),
  },
});
const records: TaskRecord[] = [
  {
    id: 'a',
    query: 'Daily GBP to JPY rates, then weekly GBP to JPY rates.',
    reference: '',
    calls: [call(daily, 'GBP', 'JPY', 'full'), call(weekly, 'GBP', 'JPY', 'full')],
  },
  {
    id: 'b',
    query: 'Daily CHF to USD rates, then weekly CHF to USD rates.',
    reference: '',
    calls: [call(daily, 'CHF', 'USD', 'full'), call(weekly, 'CHF', 'USD', 'full')],
  },
  { id: 'c', query: 'Weekly AUD to CAD rates.', reference: '', calls: [call(weekly, 'AUD', 'CAD', 'full')] },
];

describe('argument filling for a tool the records never called', () => {
  const model = learnCueModel(records, tools);
  const query = 'Show me the monthly NZD to SEK exchange rates.';

  it('learns per parameter name how often the value was the schema default and how often it was set', () => {
    const fn = model.params.get('function')!;
    expect([fn.calls, fn.set, fn.asDefault]).toEqual([5, 5, 5]);
    expect(model.params.get('outputsize')!.set).toBe(5);
    expect(model.tools.has(monthly.name)).toBe(false);
  });

  it('takes the tool’s own default where parameters of that name took theirs, and sets an optional parameter other tools always set to their usual value', () => {
    const { args } = fillArgs(monthly, { query, outputs: [] }, model);
    expect(args.function).toBe('FX_MONTHLY');
    expect(args.outputsize).toBe('full');
    // Without records nothing is known: the function parameter takes a value found in the query.
    const blind = fillArgs(monthly, { query, outputs: [] }, learnCueModel([], tools)).args;
    expect(blind.function).not.toBe('FX_MONTHLY');
    expect(blind).not.toHaveProperty('outputsize');
  });
});
