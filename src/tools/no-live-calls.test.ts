import { beforeEach, describe, expect, it } from 'vitest';
import {
  orderRecords,
  readsMade,
  resetOrders,
  tools as orderTools,
  writesMade,
} from '../../test/support/order-tools.js';
import { withoutLiveCalls } from './no-live-calls.js';
import { createToolRegistry } from './registry.js';
import { createReplayTools } from './replay-tools.js';

beforeEach(() => resetOrders());

const records = orderRecords(4);

describe('tools that call nothing live', () => {
  it("answer a live tool's calls, reads included, from the records or not at all, and count them", async () => {
    const tools = withoutLiveCalls(createToolRegistry(orderTools), records, 'dry run');
    const recorded = records[0]!.calls[0]!;
    const hit = await tools.call(recorded.tool, recorded.args);
    expect(hit).toMatchObject({ status: 'ok', output: recorded.output, origin: 'replay' });
    const miss = await tools.call('list_orders', {});
    expect(miss).toMatchObject({
      status: 'error',
      error: "not run: 'list_orders' is a live tool and no record answers this call (dry run)",
    });
    const write = records[0]!.calls[1]!;
    expect(await tools.call(write.tool, write.args)).toMatchObject({ status: 'ok', output: write.output });
    expect(await tools.call('cancel_order', { order_id: '1003', reason: 'r', refund_to: 'x' })).toMatchObject({
      status: 'error',
    });
    expect(tools.liveCalls()).toEqual({ calls: 4, writes: 2, answeredFromRecords: 2, notMade: 2 });
    // Nothing reached the live tools.
    expect(readsMade()).toEqual([]);
    expect(writesMade()).toEqual([]);
  });

  it('let replay tools answer as they do: they touch nothing live', async () => {
    const replay = createToolRegistry(
      createReplayTools(
        records,
        orderTools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
      ),
    );
    const tools = withoutLiveCalls(replay, [], 'dry run');
    const recorded = records[1]!.calls[0]!;
    expect(await tools.call(recorded.tool, recorded.args)).toMatchObject({ status: 'ok', output: recorded.output });
    expect(tools.liveCalls().calls).toBe(0);
  });
});
