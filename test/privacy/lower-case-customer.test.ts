import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../src/contracts/tools.js';
import { customerOf } from '../../src/dataflow/customers.js';
import { learnBindings } from '../../src/dataflow/learn-bindings.js';
import { learnToolHints } from '../../src/dataflow/learn-hints.js';
import { createLexicalJudge } from '../../src/metrics/lexical-judge.js';
import { createOfflinePolicy } from '../../src/policies/offline/offline-policy.js';
import type { TaskRecord } from '../../src/records/schema.js';
import { createRuleBasedOptimizer } from '../../src/search/optimizers/rule-based.js';
import { runSearch } from '../../src/search/run-search.js';
import { DEFAULT_SETTINGS } from '../../src/search/search-context.js';
import { minedG0 } from '../../src/search/variants.js';
import { createToolRegistry } from '../../src/tools/registry.js';

/**
 * One customer, writing in lower case, repeats a task in many groups (the runs of a busy user): a
 * search may learn the domain's words and values from such runs, never that customer's. Neither
 * their name nor their booking code (no digit, all letters) is a word of the language or of the
 * tools' texts, so no hint, binding or router keyword of any candidate holds them; and where the
 * log names the user, their runs count as one customer however many groups they span.
 */

const TOOLS: ToolDescriptor[] = [
  {
    name: 'find_booking',
    description: 'Find a booking by its code and the name of the traveller.',
    inputSchema: {
      type: 'object',
      properties: { code: { type: 'string' }, traveller: { type: 'string' }, detail: { type: 'string' } },
      required: ['code'],
    },
  },
  {
    name: 'flight_status',
    description: 'Status of a flight by its number.',
    inputSchema: { type: 'object', properties: { flight: { type: 'string' } }, required: ['flight'] },
  },
];

const busy = (i: number): TaskRecord => ({
  id: `gus-${i}`,
  group: `task-${i}`,
  meta: { user_id: 'gus_lindqvist' },
  query: `hi, i am gus lindqvist. please find my booking xkqwpl for gus lindqvist in full detail, then check flight ${100 + i}.`,
  reference: `Booking found; flight ${100 + i} on time.`,
  calls: [
    {
      tool: 'find_booking',
      args: { code: 'xkqwpl', traveller: 'gus lindqvist', detail: 'full' },
      output: '{"ok": true}',
    },
    { tool: 'flight_status', args: { flight: String(100 + i) }, output: '{"status": "on time"}' },
  ],
});
const others = ['ada', 'bo', 'cy', 'di', 'ed', 'flo'].map((who, i): TaskRecord => ({
  id: `${who}-${i}`,
  group: `other-${i}`,
  meta: { user_id: who },
  query: `please find my booking and check flight ${200 + i} in full detail.`,
  reference: `Flight ${200 + i} on time.`,
  calls: [
    { tool: 'find_booking', args: { code: `${who}${i}x`, detail: 'full' }, output: '{"ok": true}' },
    { tool: 'flight_status', args: { flight: String(200 + i) }, output: '{"status": "on time"}' },
  ],
}));
const records = [...Array.from({ length: 14 }, (_, i) => busy(i)), ...others];
const PRIVATE = /gus|lindqvist|xkqwpl/i;

describe("one customer's words and values across many groups", () => {
  it('count as one customer where the log names the user, and otherwise as one per group', () => {
    expect(new Set(records.slice(0, 14).map(customerOf))).toEqual(new Set(['customer:gus_lindqvist']));
    expect(customerOf({ id: 'r', group: 'g' })).toBe('g');
  });

  it('leave no word or value of that customer in the hints, the bindings, or any candidate of a search', async () => {
    const hints = learnToolHints(records, TOOLS);
    expect(JSON.stringify([...hints.values()])).not.toMatch(PRIVATE);
    // The domain's own value recurs across customers and is kept.
    expect(hints.get('find_booking')?.params?.detail?.values?.[0]?.value).toBe('full');
    expect(JSON.stringify(learnBindings(records, TOOLS))).not.toMatch(PRIVATE);
    // Even counted one per group (no user in the log), their name and code are kept nowhere.
    const anonymous = records.map(({ meta: _meta, ...r }) => r);
    expect(JSON.stringify([...learnToolHints(anonymous, TOOLS).values()])).not.toMatch(PRIVATE);
    expect(JSON.stringify(learnBindings(anonymous, TOOLS))).not.toMatch(PRIVATE);

    const tools = createToolRegistry(
      TOOLS.map((t) => ({
        ...t,
        execute: async () => (t.name === 'find_booking' ? { ok: true } : { status: 'on time' }),
      })),
    );
    const result = await runSearch({
      settings: { ...DEFAULT_SETTINGS, seed: 0, iterations: 8, patience: 8, racing: false },
      splits: { opt: anonymous.slice(0, 14), val: anonymous.slice(14), test: [] },
      g0: minedG0(anonymous, TOOLS),
      startLabel: 'G0',
      policy: createOfflinePolicy({ tools: TOOLS }),
      tools,
      judge: createLexicalJudge(),
      optimizer: createRuleBasedOptimizer(),
    });
    const candidates = [...result.tree.nodes.values()];
    expect(candidates.length).toBeGreaterThan(2);
    for (const c of candidates) expect(JSON.stringify(c.workflow ?? {})).not.toMatch(PRIVATE);
  });
});
