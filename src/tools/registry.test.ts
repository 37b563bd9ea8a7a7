import { describe, expect, it } from 'vitest';
import { isFlowScoutError } from '../errors/index.js';
import { createToolRegistry } from './registry.js';
import { toolResult } from './tool-result.js';
import type { ToolSpec } from '../contracts/tools.js';

const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather of a city',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'number' }, unit: { type: 'string', enum: ['C', 'F'] } },
    required: ['city'],
  },
  execute: async (args) => ({ city: args.city, days: args.days, temp: 21 }),
};

function tool(name: string, execute: ToolSpec['execute']): ToolSpec {
  return { name, description: name, inputSchema: { type: 'object', properties: {} }, execute };
}

describe('createToolRegistry', () => {
  it('runs a valid call and coerces "3" for a number parameter the way the canonical form does', async () => {
    const reg = createToolRegistry([weather]);
    const out = await reg.call('get_weather', { city: 'Paris', days: '3' });
    expect(out).toMatchObject({
      status: 'ok',
      output: { city: 'Paris', days: 3, temp: 21 },
      args: { city: 'Paris', days: '3' },
    });
    expect(reg.stats()).toMatchObject({ calls: 1, errors: 0 });
  });

  it('rejects bad arguments with the JSON path and what is expected, without calling the tool', async () => {
    let called = false;
    const reg = createToolRegistry([{ ...weather, execute: async () => (called = true) }]);
    const out = await reg.call('get_weather', { days: 'many', unit: 'K' });
    expect(out.status).toBe('error');
    expect(out.error).toContain('$.city: required but missing');
    expect(out.error).toContain('$.days: expected number, got string "many"');
    expect(out.error).toContain('$.unit: must be one of "C", "F"');
    expect(called).toBe(false);
  });

  it('answers an unknown tool with the close names', async () => {
    const reg = createToolRegistry([weather, tool('get_forecast', async () => 1)]);
    const out = await reg.call('get_wether', { city: 'x' });
    expect(out.status).toBe('error');
    expect(out.error).toMatch(/unknown tool 'get_wether'; did you mean 'get_weather'/);
  });

  it('turns a throw, a rejection and a non-Error rejection into error outcomes', async () => {
    const reg = createToolRegistry([
      tool('throws', () => {
        throw new Error('boom');
      }),
      tool('rejects', () => Promise.reject(new TypeError('bad gateway'))),
      tool('rejects_object', () => Promise.reject({ code: 429 })),
    ]);
    expect((await reg.call('throws', {})).error).toBe("'throws' failed: boom");
    expect((await reg.call('rejects', {})).error).toBe("'rejects' failed: bad gateway");
    expect((await reg.call('rejects_object', {})).error).toBe(`'rejects_object' failed: {"code":429}`);
    expect(reg.stats().errors).toBe(3);
  });

  it('times out a tool that ignores its abort signal, and one that honours it', async () => {
    let sawAbort = false;
    const reg = createToolRegistry(
      [
        tool('hangs', () => new Promise(() => {})),
        tool(
          'polite',
          (_a, ctx) =>
            new Promise((_r, reject) =>
              ctx.signal?.addEventListener('abort', () => {
                sawAbort = true;
                reject(new Error('aborted'));
              }),
            ),
        ),
      ],
      { timeoutMs: 30 },
    );
    const t0 = Date.now();
    const [a, b] = await Promise.all([reg.call('hangs', {}), reg.call('polite', {})]);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(a).toMatchObject({ status: 'error', error: "'hangs' timed out after 30 ms" });
    expect(b.error).toContain('timed out');
    expect(sawAbort).toBe(true);
    expect(reg.stats()).toMatchObject({ timeouts: 2, errors: 2 });
    expect((await reg.call('hangs', {}, { timeoutMs: 5 })).error).toContain('after 5 ms');
  });

  it('refuses outputs that are not JSON: cycles, BigInt, functions', async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const reg = createToolRegistry([
      tool('cycle', async () => cyclic),
      tool('big', async () => ({ n: 10n })),
      tool('fn', async () => ({ list: [1, () => 2] })),
      tool('date', async () => ({ when: new Date(0) })),
    ]);
    expect((await reg.call('cycle', {})).error).toMatch(/\$\.self refers back to one of its parents/);
    expect((await reg.call('big', {})).error).toMatch(/\$\.n is a BigInt/);
    expect((await reg.call('fn', {})).error).toMatch(/\$\.list\[1\] is a function/);
    expect(await reg.call('date', {})).toMatchObject({ status: 'ok', output: { when: '1970-01-01T00:00:00.000Z' } });
  });

  it('stops a call promptly when the caller aborts', async () => {
    const reg = createToolRegistry([tool('hangs', () => new Promise(() => {}))]);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 10);
    const out = await reg.call('hangs', {}, { signal: ac.signal });
    expect(out).toMatchObject({ status: 'error', error: 'cancelled' });
  });

  it('counts replay hits, misses and simulations from tagged results', async () => {
    const reg = createToolRegistry([
      tool('hit', async () => toolResult({ status: 'ok', output: 'x', origin: 'replay', cache: 'hit' })),
      tool('miss', async () =>
        toolResult({ status: 'error', error: 'no recorded response', origin: 'replay', cache: 'miss' }),
      ),
      tool('sim', async () => toolResult({ status: 'ok', output: 'y', origin: 'simulated', cache: 'miss' })),
    ]);
    expect(await reg.call('hit', {})).toMatchObject({ status: 'ok', output: 'x', origin: 'replay' });
    await reg.call('miss', {});
    expect(await reg.call('sim', {})).toMatchObject({ origin: 'simulated' });
    expect(reg.stats()).toMatchObject({ calls: 3, replayHits: 1, replayMisses: 1, simulated: 1, errors: 1 });
  });

  it('refuses duplicate tool names across sources and closes every set once', async () => {
    let closes = 0;
    const set = { name: 'srv', tools: [weather], close: async () => void closes++ };
    try {
      createToolRegistry([weather, set]);
      expect.unreachable();
    } catch (e) {
      expect(isFlowScoutError(e) && e.message).toBe(
        "tool 'get_weather' is defined twice (by the tool list and by source 'srv')",
      );
    }
    const reg = createToolRegistry([set]);
    await reg.close();
    await reg.close();
    expect(closes).toBe(1);
    expect((await reg.call('get_weather', { city: 'a' })).error).toContain('closed');
  });
});
