import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { loadToolConfig } from '../../src/tools/load-tool-config.js';
import { captureIO } from '../support/cli-io.js';
import { startTestLlmServer } from '../support/llm-server.js';
import { scriptedModel } from '../support/scripted-model.js';
import { initialOrders, orderRecords, orderState, resetOrders, writesMade } from '../support/order-tools.js';
import { planToolAnswer } from '../support/workflows.js';
import { writeOrderFixture } from './order-fixture.js';

/**
 * A pattern in a tool config's `effects` never lowers the effect a tool's source declares: with
 * `"*_order": "read"`, `cancel_order` (declared destructive by its `defineTool`) used to count as a
 * read, so `eval` sent its cancels to the live tool without `--allow-live-writes`. Now the declared
 * effect stands, the config's reader warns naming the tool and how to lower it by name, and an exact
 * name still lowers it.
 */

beforeEach(() => resetOrders());

const CANCEL_WF = planToolAnswer({
  name: 'Cancel desk',
  tool: { id: 'cancel', task: 'Cancel the order the customer asks about', tools: ['cancel_order'] },
});

describe('an effects pattern that would lower a declared effect', () => {
  it('eval: cancel_order stays destructive, so no cancel reaches the live tool without --allow-live-writes; stderr names the tool and the exact-name fix', async () => {
    const fx = writeOrderFixture(20, { effects: { '*_order': 'read' } });
    const wf = join(fx.dir, 'cancel.workflow.json');
    writeFileSync(wf, JSON.stringify(CANCEL_WF));
    // A model that plans each record's cancel (the order id, reason and refund method of its request).
    const plans = orderRecords().map((r) => ({ ...r, calls: r.calls.filter((c) => c.tool === 'cancel_order') }));
    const server = await startTestLlmServer({ script: scriptedModel(plans) });
    const io = captureIO();
    try {
      const code = await runCli(
        ['eval', wf, '--records', fx.records, '--tools', fx.tools, '--model', server.spec()],
        io,
      );
      expect(code, io.errors()).toBe(0);
    } finally {
      await server.close();
    }
    expect(io.text()).toMatch(/Write calls: 10 answered from replay, 0 refused \(not run\), 0 sent to live tools/);
    expect(io.text()).toContain('Live writes: off');
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
    expect(io.errors()).toContain(
      `warning: ${fx.tools}: the "effects" pattern would lower the effect the tool's source declares for cancel_order (destructive, from tool definition; "*_order" says read): not applied, the declared effect stands. A declared effect is lowered only by the tool's exact name: "effects": {"cancel_order": "read"}.`,
    );
  });

  it('names every tool a pattern would lower; an exact name lowers without a warning; a pattern may raise', async () => {
    const warnings: string[] = [];
    const broad = writeOrderFixture(2, { effects: { '*order*': 'read', 'get_*': 'write' } });
    const reg = await loadToolConfig(broad.tools, { warn: (l) => warnings.push(l) });
    try {
      expect(reg.effectOf('cancel_order')).toMatchObject({ effect: 'destructive', from: 'tool definition' });
      expect(reg.effectOf('change_order_address')).toMatchObject({ effect: 'write', from: 'tool definition' });
      expect(reg.effectOf('hold_orders')).toMatchObject({ effect: 'write', from: 'tool definition' });
      // list_orders is a read already; get_order is raised to write by "get_*" (first matching pattern: "*order*" says read, which lowers nothing).
      expect(reg.effectOf('list_orders')).toMatchObject({ effect: 'read', from: 'tool config ("*order*")' });
      expect(warnings).toHaveLength(1);
      for (const t of ['change_order_address (write', 'hold_orders (write', 'cancel_order (destructive'])
        expect(warnings[0]).toContain(t);
      expect(warnings[0]).toContain('"effects": {"change_order_address": "read", "hold_orders": "read"');
    } finally {
      await reg.close();
    }

    const exact: string[] = [];
    const named = writeOrderFixture(2, { effects: { cancel_order: 'read', '*_address': 'destructive' } });
    const reg2 = await loadToolConfig(named.tools, { warn: (l) => exact.push(l) });
    try {
      expect(reg2.effectOf('cancel_order')).toMatchObject({ effect: 'read', from: 'tool config' });
      expect(reg2.effectOf('change_order_address')).toMatchObject({
        effect: 'destructive',
        from: 'tool config ("*_address")',
      });
      expect(exact).toEqual([]);
    } finally {
      await reg2.close();
    }
  });
});
