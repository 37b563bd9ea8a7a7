import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { openStore } from '../../src/store/open-store.js';
import { captureIO } from '../support/cli-io.js';
import { initialOrders, orderState, readsMade, resetOrders, writesMade } from '../support/order-tools.js';
import { writeOrderFixture } from './order-fixture.js';

beforeEach(() => resetOrders());

describe('search on live function tools that write', () => {
  it('sends no write call to the live tools without --allow-live-writes: the store is unchanged and the run says what it did instead', async () => {
    const fx = writeOrderFixture();
    const io = captureIO();
    const args = [
      'search',
      '--records',
      fx.records,
      '--tools',
      fx.tools,
      '--iterations',
      '3',
      '--seed',
      '1',
      '--out',
      join(fx.dir, 'run'),
      '--db',
      join(fx.dir, 'a.db'),
    ];
    expect(await runCli(args, io), io.errors()).toBe(0);
    const text = io.text();
    expect(text).toContain(
      'Live writes: off: write calls to 3 live write tools (change_order_address, hold_orders, cancel_order) are answered from replay or refused (--allow-live-writes sends them)',
    );
    const line = text.split('\n').find((l) => l.startsWith('Write calls: '));
    const m = /^Write calls: (\d+) answered from replay, (\d+) refused \(not run\), 0 sent to live tools$/.exec(
      line ?? '',
    );
    expect(m, text).not.toBeNull();
    // Every candidate ran every D_opt and D_val record, and every record has a write call.
    expect(Number(m![1]) + Number(m![2])).toBeGreaterThan(0);
    // Nothing reached the live tools' store: no write was made, every order is as it was.
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
  });

  it('--dry-run counts the write calls the search would make to live tools, and calls no live tool, reads included', async () => {
    const fx = writeOrderFixture();
    const io = captureIO();
    expect(
      await runCli(
        ['search', '--records', fx.records, '--tools', fx.tools, '--iterations', '4', '--seed', '1', '--dry-run'],
        io,
      ),
      io.errors(),
    ).toBe(0);
    const m =
      /projected: (\d+) write calls to live tools \(([\d.]+) a query; at most, before the memo\); they would be answered from replay or refused, not sent/.exec(
        io.text(),
      );
    expect(m, io.text()).not.toBeNull();
    const parts = /(\d+) D_opt, (\d+) D_val, (\d+) D_test records; strategy mcts, J=4/
      .exec(io.text())!
      .slice(1)
      .map(Number);
    // The record runs of the search: G0 on D_opt and D_val, 4 candidates on (with racing, part of) them, G0 and the best on D_test.
    expect(Number(m![1])).toBeGreaterThanOrEqual(Math.round(Number(m![2]) * (parts[0]! + parts[1]! + 2 * parts[2]!)));
    expect(Number(m![1])).toBeLessThanOrEqual(
      Math.round(Number(m![2]) * (5 * (parts[0]! + parts[1]!) + 2 * parts[2]!)),
    );
    expect(Number(m![2])).toBeGreaterThan(0);
    expect(writesMade()).toEqual([]);
    // Not even a lookup reached the live tools: the records' recorded responses answered G0's calls.
    expect(readsMade()).toEqual([]);
    expect(io.text()).toContain('Dry run (nothing is sent to a model or a live tool)');
    const calls =
      /tool calls: none made; of G0's (\d+) calls to live tools on 5 D_opt records, (\d+) answered from the records' recorded responses, (\d+) not made/.exec(
        io.text(),
      );
    expect(calls, io.text()).not.toBeNull();
    expect(Number(calls![2])).toBeGreaterThan(0);
    expect(Number(calls![1])).toBe(Number(calls![2]) + Number(calls![3]));
    const json = captureIO();
    expect(
      await runCli(
        [
          'search',
          '--records',
          fx.records,
          '--tools',
          fx.tools,
          '--iterations',
          '4',
          '--seed',
          '1',
          '--dry-run',
          '--json',
        ],
        json,
      ),
      json.errors(),
    ).toBe(0);
    expect(JSON.parse(json.text()).liveToolCalls).toEqual({
      made: 0,
      answeredFromRecords: Number(calls![2]),
      notMade: Number(calls![3]),
    });
    expect(readsMade()).toEqual([]);
  });

  it('eval and baseline on the same live tools send no write call either, and both say what they did instead', async () => {
    const fx = writeOrderFixture();
    const out = join(fx.dir, 'run-e');
    const io = captureIO();
    expect(
      await runCli(
        [
          'search',
          '--records',
          fx.records,
          '--tools',
          fx.tools,
          '--iterations',
          '1',
          '--seed',
          '1',
          '--out',
          out,
          '--db',
          join(fx.dir, 'e.db'),
        ],
        io,
      ),
      io.errors(),
    ).toBe(0);
    const ev = captureIO();
    expect(
      await runCli(['eval', join(out, 'best.workflow.json'), '--records', fx.records, '--tools', fx.tools], ev),
      ev.errors(),
    ).toBe(0);
    expect(ev.text()).toContain(
      'Live writes: off: write calls to 3 live write tools (change_order_address, hold_orders, cancel_order) are answered from replay or refused',
    );
    expect(ev.text()).toMatch(/Write calls: \d+ answered from replay, \d+ refused \(not run\), 0 sent to live tools/);
    const base = captureIO();
    expect(
      await runCli(['baseline', 'pm4py-style', '--records', fx.records, '--tools', fx.tools, '--max-test', '4'], base),
      base.errors(),
    ).toBe(0);
    // baseline says what happens to write calls and what happened, in the words eval uses.
    expect(base.text()).toContain(
      '  Live writes: off: write calls to 3 live write tools (change_order_address, hold_orders, cancel_order) are answered from replay or refused (--allow-live-writes sends them)',
    );
    const counted =
      /^ {2}Write calls: (\d+) answered from replay, (\d+) refused \(not run\), 0 sent to live tools$/m.exec(
        base.text(),
      );
    expect(counted, base.text()).not.toBeNull();
    // Four test queries, each with one write call.
    expect(Number(counted![1]) + Number(counted![2])).toBeGreaterThan(0);
    const baseJson = captureIO();
    expect(
      await runCli(
        ['baseline', 'pm4py-style', '--records', fx.records, '--tools', fx.tools, '--max-test', '4', '--json'],
        baseJson,
      ),
      baseJson.errors(),
    ).toBe(0);
    expect(JSON.parse(baseJson.text()).writeCalls).toEqual({
      allowLiveWrites: false,
      writeTools: ['change_order_address', 'hold_orders', 'cancel_order'],
      answeredFromReplay: Number(counted![1]),
      refused: Number(counted![2]),
      sentLive: 0,
    });
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
  });

  it('with --allow-live-writes the writes reach the live tools, and the header and the store say so', async () => {
    const fx = writeOrderFixture();
    const io = captureIO();
    const db = join(fx.dir, 'b.db');
    const args = [
      'search',
      '--records',
      fx.records,
      '--tools',
      fx.tools,
      '--iterations',
      '1',
      '--seed',
      '1',
      '--out',
      join(fx.dir, 'run-b'),
      '--db',
      db,
      '--allow-live-writes',
      '--json',
    ];
    expect(await runCli(args, io), io.errors()).toBe(0);
    const doc = JSON.parse(io.text());
    expect(doc.writeCalls.allowLiveWrites).toBe(true);
    expect(doc.writeCalls.sentLive).toBeGreaterThan(0);
    expect(writesMade().length).toBeGreaterThan(0);
    expect(orderState()).not.toEqual(initialOrders());
    const store = openStore(db, { mustExist: true });
    try {
      expect(store.getRun(doc.run).config).toMatchObject({ allowLiveWrites: true });
    } finally {
      store.close();
    }
  });
});
