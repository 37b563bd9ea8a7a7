import { describe, expect, it } from 'vitest';
import { parseRedact, redactRecords } from './redact.js';
import type { TaskRecord } from './schema.js';

const record: TaskRecord = {
  id: 'r1',
  query:
    'I am mia_garcia_4516 (mia@example.com, +44 20 7946 0958). Order #W5490111 on 2023-09-12 14:00:00 for 54.85 dollars, zip 46229.',
  reference: 'Order #W5490111 for mia@example.com is cancelled.',
  calls: [
    {
      tool: 'get_order_v2',
      args: { order_id: '#W5490111', note: 'call 415-555-0199' },
      output: { user: 'mia_garcia_4516', items: ['4579334072'] },
      status: 'ok',
    },
  ],
  group: 'mia_garcia_4516',
  meta: { file: 'runs-2023.json' },
};

describe('redactRecords', () => {
  it('replaces e-mails, phones and ids with stable placeholders, leaving dates, amounts, tool names and meta', () => {
    const { records, counts } = redactRecords([record], parseRedact('emails,phones,ids'));
    const r = records[0]!;
    expect(r.query).toBe(
      'I am <ID_1> (<EMAIL_1>, <PHONE_1>). Order <ID_2> on 2023-09-12 14:00:00 for 54.85 dollars, zip 46229.',
    );
    expect(r.reference).toBe('Order <ID_2> for <EMAIL_1> is cancelled.');
    expect(r.calls[0]).toEqual({
      tool: 'get_order_v2',
      args: { order_id: '<ID_2>', note: 'call <PHONE_2>' },
      output: { user: '<ID_1>', items: ['<ID_3>'] },
      status: 'ok',
    });
    expect(r.group).toBe('<ID_1>');
    expect(r.meta).toEqual({ file: 'runs-2023.json' });
    expect(counts).toEqual({
      replacements: { emails: 2, phones: 2, ids: 7 },
      distinct: { emails: 1, phones: 2, ids: 3 },
    });
  });

  it('takes regular expressions, and names a bad one', () => {
    const { records } = redactRecords([record], parseRedact('W\\d+'));
    expect(records[0]!.reference).toBe('Order #<REDACTED_1> for mia@example.com is cancelled.');
    expect(() => parseRedact('emails,([')).toThrow(/--redact: '\(\[' is neither emails, phones nor ids/);
  });
});
