import { describe, expect, it } from 'vitest';
import { applyArgDirectives, formatArgDirective, hasArgDirective, parseArgDirectives, stripArgDirectives, withArgDirective } from './arg-directives.js';

describe('argument directives in a tool position task', () => {
  it('reads back what it writes, in order; a broken JSON value is no directive', () => {
    let task = 'Step 2: look up the quote.';
    task = withArgDirective(task, { tool: 'quote', key: 'datatype', value: 'json' });
    task = withArgDirective(task, { tool: 'quote', key: 'adjusted', omit: true });
    task = withArgDirective(task, { tool: 'news', key: 'limit', value: 10 });
    expect(task).toBe('Step 2: look up the quote. For `quote`, set `datatype` to `"json"`. For `quote`, leave `adjusted` out. For `news`, set `limit` to `10`.');
    expect(parseArgDirectives(task)).toEqual([
      { tool: 'quote', key: 'datatype', value: 'json' },
      { tool: 'quote', key: 'adjusted', omit: true },
      { tool: 'news', key: 'limit', value: 10 },
    ]);
    expect(parseArgDirectives('For `quote`, set `x` to `{broken`.')).toEqual([]);
    expect(hasArgDirective(task, 'news', 'limit')).toBe(true);
    expect(hasArgDirective(task, 'news', 'datatype')).toBe(false);
    expect(stripArgDirectives(task)).toBe('Step 2: look up the quote.');
  });

  it('a new directive for the same tool and argument replaces the old one', () => {
    const once = withArgDirective('Task.', { tool: 'quote', key: 'datatype', value: 'json' });
    const twice = withArgDirective(once, { tool: 'quote', key: 'datatype', omit: true });
    expect(twice).toBe('Task. For `quote`, leave `datatype` out.');
    expect(formatArgDirective({ tool: 'quote', key: 'datatype', omit: true })).toBe('For `quote`, leave `datatype` out.');
  });

  it('applies only to calls of the tool it names; a required argument is never left out', () => {
    const node = { task: 'T. For `quote`, set `datatype` to `"csv"`. For `quote`, leave `symbol` out. For `quote`, leave `adjusted` out.' };
    expect(applyArgDirectives(node, 'quote', { symbol: 'AAPL', adjusted: true }, ['symbol'])).toEqual({ args: { symbol: 'AAPL', datatype: 'csv' }, set: ['datatype'] });
    const args = { q: 'x' };
    expect(applyArgDirectives(node, 'news', args).args).toBe(args);
  });
});
