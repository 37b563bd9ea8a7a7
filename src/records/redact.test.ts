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

  it('ids cover SSN-like numbers and card numbers written in groups; the same card in two writings is one id', () => {
    const r: TaskRecord = {
      id: 'r2',
      query: 'My SSN is 123-45-6789 and my card 4111 1111 1111 1111 (amex 3782 822463 10005). Pay on 2024-05-01.',
      reference: 'Charged card 4111-1111-1111-1111.',
      calls: [{ tool: 'pay', args: { card: '4111111111111111', ssn: '123-45-6789' }, status: 'ok' }],
    };
    const { records, counts } = redactRecords([r], parseRedact('ids'));
    const out = records[0]!;
    expect(out.query).toBe('My SSN is <ID_1> and my card <ID_2> (amex <ID_3>). Pay on 2024-05-01.');
    expect(out.reference).toBe('Charged card <ID_2>.');
    expect(out.calls[0]!.args).toEqual({ card: '<ID_2>', ssn: '<ID_1>' });
    expect(counts.distinct).toEqual({ ids: 3 });
  });

  it('one phone number written in three formats (and an e-mail in two cases) gets one placeholder, so arguments and outputs agree', () => {
    const r: TaskRecord = {
      id: 'r3',
      query: 'Call me on (555) 123-4567 or mail Mia@Example.com.',
      reference: 'We will call +1 555 123 4567.',
      calls: [
        {
          tool: 'find_customer',
          args: { phone: '555.123.4567', email: 'mia@example.com' },
          output: { phone: '555-123-4567', other: '555-123-4568' },
          status: 'ok',
        },
      ],
    };
    const { records, counts } = redactRecords([r], parseRedact('phones,emails'));
    const out = records[0]!;
    expect(out.query).toBe('Call me on <PHONE_1> or mail <EMAIL_1>.');
    expect(out.reference).toBe('We will call <PHONE_1>.');
    expect(out.calls[0]).toMatchObject({
      args: { phone: '<PHONE_1>', email: '<EMAIL_1>' },
      output: { phone: '<PHONE_1>', other: '<PHONE_2>' },
    });
    expect(counts.distinct).toEqual({ phones: 2, emails: 1 });
  });

  it('emails cover addresses written out ([at], (at), [dot]) and URL-encoded (%40): every form is the one address', () => {
    const r: TaskRecord = {
      id: 'r4',
      query: 'Write to ada [at] example [dot] com, or ADA(at)Example.com, not ada {at} other {dot} org.',
      reference: 'Sent to ada@example.com.',
      calls: [
        {
          tool: 'lookup',
          args: { url: 'https://crm.example/find?email=ada%40example.com&q=x%20ada%40example.com' },
          status: 'ok',
        },
      ],
    };
    const { records, counts } = redactRecords([r], parseRedact('emails'));
    const out = records[0]!;
    expect(out.query).toBe('Write to <EMAIL_1>, or <EMAIL_1>, not <EMAIL_2>.');
    expect(out.reference).toBe('Sent to <EMAIL_1>.');
    expect(out.calls[0]!.args).toEqual({ url: 'https://crm.example/find?email=<EMAIL_1>&q=x%20<EMAIL_1>' });
    expect(JSON.stringify(out)).not.toMatch(/ada/i);
    expect(counts).toEqual({ replacements: { emails: 6 }, distinct: { emails: 2 } });
    // A sentence with "at" in it is no address.
    const plain = redactRecords([{ ...r, query: 'Meet at the station at 5.', calls: [] }], parseRedact('emails'));
    expect(plain.records[0]!.query).toBe('Meet at the station at 5.');
  });

  it('ids cover IBANs in groups with their country code and check digits, as the same id as the IBAN written whole', () => {
    const r: TaskRecord = {
      id: 'r5',
      query: 'Pay from DE89 3704 0044 0532 0130 00 or GB82 WEST 1234 5698 7654 32 with this ref.',
      reference: 'Paid from DE89370400440532013000.',
      calls: [{ tool: 'pay', args: { iban: 'de89-3704-0044-0532-0130-00' }, status: 'ok' }],
    };
    const { records, counts } = redactRecords([r], parseRedact('ids'));
    const out = records[0]!;
    expect(out.query).toBe('Pay from <ID_1> or <ID_2> with this ref.');
    expect(out.reference).toBe('Paid from <ID_1>.');
    expect(out.calls[0]!.args).toEqual({ iban: '<ID_1>' });
    expect(JSON.stringify(out)).not.toContain('DE89');
    expect(counts.distinct).toEqual({ ids: 2 });
    // Capitals in groups without the digits of an account are words.
    const words = redactRecords([{ ...r, query: 'Code AB12 CDEF GHIJ is a phrase.' }], parseRedact('ids'));
    expect(words.records[0]!.query).toBe('Code AB12 CDEF GHIJ is a phrase.');
  });

  it('takes regular expressions, and names a bad one', () => {
    const { records } = redactRecords([record], parseRedact('W\\d+'));
    expect(records[0]!.reference).toBe('Order #<REDACTED_1> for mia@example.com is cancelled.');
    expect(() => parseRedact('emails,([')).toThrow(/--redact: '\(\[' is neither emails, phones nor ids/);
  });
});
