import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { costUsd, loadPriceTable, lookupPrice } from './prices.js';
import { parseRetryAfter, retryDelayMs } from './retry.js';

describe('prices', () => {
  it('matches dated variants by the longest key and says when a model has no price', () => {
    expect(lookupPrice('openai', 'gpt-4o-mini-2024-07-18')).toMatchObject({ key: 'openai:gpt-4o-mini', priced: true });
    expect(lookupPrice('openai', 'gpt-4o')).toMatchObject({ key: 'openai:gpt-4o' });
    expect(lookupPrice('openai-compatible', 'qwen2.5')).toEqual({ price: { input: 0, output: 0 }, priced: false });
    expect(lookupPrice('ollama', 'llama3.1')).toMatchObject({ priced: true, price: { input: 0, output: 0 } });
    expect(costUsd({ input: 0.15, output: 0.6 }, 1000, 500)).toBeCloseTo(0.00045);
  });

  it('reads an override file over the defaults and names the bad path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-prices-'));
    const good = join(dir, 'p.json');
    writeFileSync(good, JSON.stringify({ 'openai-compatible:qwen': { input: 0.1, output: 0.2 } }));
    const table = loadPriceTable(good);
    expect(lookupPrice('openai-compatible', 'qwen', table)).toMatchObject({
      priced: true,
      price: { input: 0.1, output: 0.2 },
    });
    expect(table['openai:gpt-4o-mini']).toBeDefined();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ x: { input: -1, output: 1 } }));
    expect(() => loadPriceTable(bad)).toThrow(/price table/);
  });
});

describe('retry timing', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '120', 'retry-after': '9' })).toBe(120);
    expect(parseRetryAfter({ 'Retry-After': '2.5' })).toBe(2500);
    expect(
      parseRetryAfter({ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }, () => Date.parse('2025-01-01T00:00:00Z')),
    ).toBe(10_000);
    expect(parseRetryAfter({ 'retry-after': 'soon' })).toBeUndefined();
  });

  it('grows exponentially, jitters within [cap/2, cap], and caps server waits', () => {
    const opts = { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 };
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, { kind: 'server', retryable: true }, opts))).toEqual([
      50, 100, 200, 400, 500,
    ]);
    expect(retryDelayMs(1, { kind: 'rate-limit', retryable: true, retryAfterMs: 60_000 }, opts)).toBe(1000);
  });
});
