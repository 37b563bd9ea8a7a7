import { beforeEach, describe, expect, it } from 'vitest';
import {
  initialOrders,
  orderRecords,
  orderState,
  resetOrders,
  tools as orderTools,
  writesMade,
} from '../../test/support/order-tools.js';
import type { TaskRecord } from '../records/schema.js';
import { createToolRegistry } from './registry.js';
import { addWriteCalls, createWriteAnswers, guardLiveWrites, REFUSED_WRITE, writeGuardSummary } from './write-guard.js';

beforeEach(() => resetOrders());

const records = orderRecords(4);
const cancel = records[0]!.calls[1]!;
const move = records[1]!.calls[1]!;

describe('the write guard', () => {
  it("answers a worker's write calls from the coordinator's recorded writes exactly as the coordinator's guard does", async () => {
    // A second record recording another answer for the first cancellation: the first recorded answer wins.
    const conflicting: TaskRecord = {
      ...records[0]!,
      id: 'again',
      calls: [{ ...cancel, output: { order_id: cancel.args.order_id, status: 'something else' } }],
    };
    const coordinator = guardLiveWrites(createToolRegistry(orderTools), { records: [...records, conflicting] });
    const shipped = JSON.parse(JSON.stringify(coordinator.recordedWrites()));
    // Only the write tools' calls travel, in record order.
    expect(shipped.map((c: { tool: string }) => c.tool)).toEqual([
      'cancel_order',
      'change_order_address',
      'cancel_order',
      'change_order_address',
      'cancel_order',
    ]);
    const worker = guardLiveWrites(createToolRegistry(orderTools), { recordedWrites: shipped });
    const asked = [
      { tool: cancel.tool, args: cancel.args },
      { tool: move.tool, args: { ...move.args, address: 'somewhere else' } },
      { tool: 'get_order', args: { order_id: '1002' } },
    ];
    const outcomes = async (g: typeof worker) => {
      const out = [];
      for (const c of asked) {
        const o = await g.call(c.tool, c.args);
        out.push({ status: o.status, output: o.output, error: o.error });
      }
      return out;
    };
    const here = await outcomes(coordinator);
    expect(await outcomes(worker)).toEqual(here);
    expect(here[0]).toMatchObject({ status: 'ok', output: cancel.output });
    expect(here[1]!.error).toContain(REFUSED_WRITE);
    expect(worker.writeGuard()).toEqual(coordinator.writeGuard());
    expect(worker.writeGuard()).toMatchObject({ answeredFromReplay: 1, refused: 1, sentLive: 0 });
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
  });

  it('guards sharing one index count their own calls, and a guard that allows live writes still gives its recorded writes', async () => {
    const inner = createToolRegistry(orderTools);
    const answers = createWriteAnswers(inner, { records });
    const a = guardLiveWrites(inner, { answers });
    const b = guardLiveWrites(inner, { answers });
    await a.call(cancel.tool, cancel.args);
    await b.call(move.tool, move.args);
    await b.call(move.tool, { ...move.args, address: 'elsewhere' });
    expect(a.writeGuard()).toMatchObject({ answeredFromReplay: 1, refused: 0 });
    expect(b.writeGuard()).toMatchObject({ answeredFromReplay: 1, refused: 1 });
    const allowing = guardLiveWrites(inner, { records, allowLiveWrites: true });
    expect(allowing.recordedWrites()).toEqual(answers.calls);
    expect(writesMade()).toEqual([]);
  });

  it('the summary adds the write calls made elsewhere and names any a worker sent live', () => {
    const report = guardLiveWrites(createToolRegistry(orderTools)).writeGuard();
    expect(writeGuardSummary(addWriteCalls(report, { answeredFromReplay: 3, refused: 2, sentLive: 0 }))).toBe(
      'Write calls: 3 answered from replay, 2 refused (not run), 0 sent to live tools',
    );
    // A run without --allow-live-writes: only a worker of an older version, which ignores the run's decision, sends one.
    expect(writeGuardSummary(addWriteCalls(report, { answeredFromReplay: 0, refused: 0, sentLive: 4 }))).toBe(
      'Write calls: 0 answered from replay, 0 refused (not run), 4 sent to live tools (by workers of an older FlowScout started with --allow-live-writes, which ignore the run: update them)',
    );
    // A run with it: workers started without the flag still answer from replay or refuse.
    const allowing = guardLiveWrites(createToolRegistry(orderTools), { allowLiveWrites: true }).writeGuard();
    expect(writeGuardSummary(addWriteCalls(allowing, { answeredFromReplay: 1, refused: 2, sentLive: 4 }))).toBe(
      'Write calls: 4 sent to live tools (--allow-live-writes), 1 answered from replay and 2 refused by workers without --allow-live-writes',
    );
  });
});
