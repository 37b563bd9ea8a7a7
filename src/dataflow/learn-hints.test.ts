import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../contracts/tools.js';
import type { TaskRecord } from '../records/schema.js';
import { HINT_PARAMETERS, learnToolHints } from './learn-hints.js';
import { ToolHintSchema } from '../graph/schema.js';

const lookup: ToolDescriptor = {
  name: 'order_lookup',
  description: 'Look up an order of a customer.',
  inputSchema: {
    type: 'object',
    properties: {
      order_id: { type: 'string' },
      detail: { type: 'string' },
      channel: { type: 'string' },
    },
    required: ['order_id'],
  },
};

/** One customer's task, run once: its own order id, the detail level the domain always uses. */
const run = (id: string, group: string, orderId: string, channel?: string): TaskRecord => ({
  id,
  group,
  query: `Hello, I am Mara Quist. Please look up my order ${orderId} in full detail.`,
  reference: '',
  calls: [{ tool: lookup.name, args: { order_id: orderId, detail: 'full', ...(channel ? { channel } : {}) } }],
});

describe('hints learned from the records', () => {
  it('give a cue word a share of at most 1 when a request writes it twice before the value', () => {
    const cards: ToolDescriptor = {
      name: 'cards_by_level',
      description: 'Cards of one level.',
      inputSchema: { type: 'object', properties: { level: { type: 'string' } }, required: ['level'] },
    };
    const records: TaskRecord[] = ['a', 'b', 'c', 'd', 'e', 'f'].map((g, i) => ({
      id: g,
      group: g,
      query: `Show me the cards of the level: Level ${20 + i} please.`,
      reference: '',
      calls: [{ tool: cards.name, args: { level: String(20 + i) } }],
    }));
    const hint = learnToolHints(records, [cards]).get(cards.name)!;
    const before = hint.params?.level?.before ?? {};
    expect(Object.keys(before)).toContain('level');
    expect(Math.max(...Object.values(before))).toBeLessThanOrEqual(1);
    expect(ToolHintSchema.safeParse(hint).success).toBe(true);
  });

  it("keep in a tool's asks only words that come with its calls more often than with every call", () => {
    const cancel: ToolDescriptor = {
      name: 'cancel_order',
      description: 'Cancel an order.',
      inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    };
    // Every request says the same about the customer; only its verb tells the tools apart.
    const persona = 'since I am a private person who does not want to reveal much.';
    const records: TaskRecord[] = ['a', 'b', 'c', 'd'].flatMap((g, i) => [
      {
        id: `l${i}`,
        group: g,
        query: `Please look up the status of my order #W10${i}0001, ${persona}`,
        reference: '',
        calls: [{ tool: lookup.name, args: { order_id: `#W10${i}0001` } }],
      },
      {
        id: `c${i}`,
        group: g,
        query: `Please cancel my order #W20${i}0001 right away, ${persona}`,
        reference: '',
        calls: [{ tool: cancel.name, args: { order_id: `#W20${i}0001` } }],
      },
    ]);
    const hints = learnToolHints(records, [lookup, cancel]);
    expect(Object.keys(hints.get(cancel.name)!.asks ?? {})).toContain('cancel');
    expect(Object.keys(hints.get(lookup.name)!.asks ?? {})).toContain('status');
    for (const hint of hints.values())
      for (const w of ['private', 'reveal', 'order']) expect(hint.asks?.[w]).toBeUndefined();
  });

  it('keep a value only when it recurs in at least minValueGroups groups', () => {
    const four = ['a', 'b', 'c', 'd'].map((g, i) => run(`r${i}`, g, `#W10${i}0001`));
    const hint = learnToolHints(four, [lookup]).get(lookup.name)!;
    expect(hint.params?.detail?.values).toBeUndefined();
    const five = [...four, run('r4', 'e', '#W1040001')];
    expect(learnToolHints(five, [lookup]).get(lookup.name)!.params?.detail?.values).toEqual([
      { value: 'full', share: 1 },
    ]);
    expect(HINT_PARAMETERS.minValueGroups).toBe(5);
  });

  it('count one customer run many times as one group: a value of one task is never kept', () => {
    const repeated = Array.from({ length: 8 }, (_, i) => run(`r${i}`, 'task-7', '#W6390527', 'phone'));
    const hint = learnToolHints(repeated, [lookup]).get(lookup.name)!;
    expect(JSON.stringify(hint)).not.toContain('#W6390527');
    expect(JSON.stringify(hint)).not.toContain('phone');
  });

  it('say a value came from an earlier output when a lookup answered with the id itself (a bare output)', () => {
    const findUser: ToolDescriptor = {
      name: 'find_user',
      description: 'Find a user id by e-mail.',
      inputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
    };
    const details: ToolDescriptor = {
      name: 'user_details',
      description: 'The details of a user.',
      inputSchema: { type: 'object', properties: { user_id: { type: 'string' } }, required: ['user_id'] },
    };
    const runs: TaskRecord[] = ['ana', 'ben', 'cy', 'dee', 'eli'].map((name, i) => ({
      id: `r${i}`,
      group: name,
      query: `I am ${name}, my e-mail is ${name}@example.com. What is my balance?`,
      reference: '',
      calls: [
        { tool: 'find_user', args: { email: `${name}@example.com` }, output: `${name}_smith_10${i}` },
        { tool: 'user_details', args: { user_id: `${name}_smith_10${i}` }, output: '{"balance": 10}' },
      ],
    }));
    const hint = learnToolHints(runs, [findUser, details]).get('user_details')!;
    expect(hint.params?.user_id?.from).toEqual({ upstream: 1 });
  });

  it('never keep an identifier-shaped value, however many groups it recurs in', () => {
    const shared = Array.from({ length: 7 }, (_, i) => run(`r${i}`, `g${i}`, '#W6390527'));
    const hint = learnToolHints(shared, [lookup]).get(lookup.name)!;
    expect(hint.params?.order_id?.values).toBeUndefined();
    expect(JSON.stringify(hint)).not.toContain('6390527');
  });

  it('keep no record text: no name, no digits, no request', () => {
    const records = Array.from({ length: 6 }, (_, i) => run(`r${i}`, `g${i}`, `#W10${i}0001`));
    const text = JSON.stringify(learnToolHints(records, [lookup]).get(lookup.name));
    expect(text).not.toMatch(/mara|quist/i);
    expect(text).not.toMatch(/\d{3}/);
    expect(text).not.toContain('look up my order');
    // What they do keep is about the tool: the words before its id, the detail level it always takes.
    expect(JSON.parse(text).params.order_id.before).toHaveProperty('order');
  });

  it('keep no name that opens a clause, stands next to a value or hides in an e-mail, though one customer repeats it in many tasks', () => {
    // One customer's six tasks (six groups), as customer-service logs hold them: the name opens the
    // request, stands right before the order id and makes up the e-mail address.
    const records = Array.from({ length: 6 }, (_, i) => ({
      id: `r${i}`,
      group: `task-${i}`,
      query: `Mara asks to look up the order of Quist W${i}00${i}1 at mara.quist@example.com in full detail`,
      reference: '',
      calls: [{ tool: lookup.name, args: { order_id: `W${i}00${i}1`, detail: 'full' } }],
    }));
    const hint = learnToolHints(records, [lookup]).get(lookup.name)!;
    expect(JSON.stringify(hint)).not.toMatch(/mara|quist|example/i);
    // The requests' own lower-case words are still learned.
    expect(hint.asks).toHaveProperty('order');
    expect(hint.params?.order_id?.before).toHaveProperty('of');
  });

  it('keep a date template only when it recurs across groups and carries no identifier around the date', () => {
    const book: ToolDescriptor = {
      name: 'book_slot',
      description: 'Book a delivery slot.',
      inputSchema: { type: 'object', properties: { slot: { type: 'string' } }, required: ['slot'] },
    };
    const call = (id: string, group: string, slot: string): TaskRecord => ({
      id,
      group,
      query: `Book a delivery slot on ${slot.slice(0, 10)} please`,
      reference: '',
      calls: [{ tool: book.name, args: { slot } }],
    });
    // One customer's task run three times: its template holds that customer's account id.
    const mine = [1, 2, 3].map((d) => call(`m${d}`, 'task-1', `2024-05-0${d} acct W7730215`));
    const template = (rs: TaskRecord[]) => learnToolHints(rs, [book]).get(book.name)!.params?.slot?.format?.template;
    expect(template(mine)).toBeUndefined();
    expect(JSON.stringify(learnToolHints(mine, [book]).get(book.name))).not.toContain('W7730215');
    // The same in three customers' tasks: still an identifier, never kept.
    expect(template(['a', 'b', 'c'].map((g, i) => call(g, g, `2024-05-0${i + 1} acct W7730215`)))).toBeUndefined();
    // A time of day after the date, in three groups, is the domain's format: kept.
    expect(template(['a', 'b', 'c'].map((g, i) => call(g, g, `2024-05-0${i + 1}T09:00:00Z`)))).toBe('{date}T09:00:00Z');
  });

  it('learn how often a required parameter is set when the calls left it out, and nothing of the kind when they always set it', () => {
    const tags: ToolDescriptor = {
      name: 'games_by_tags',
      description: 'Free games filtered by tags.',
      inputSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
    };
    const records = (setEvery: number): TaskRecord[] =>
      ['a', 'b', 'c', 'd', 'e', 'f'].map((g, i) => ({
        id: g,
        group: g,
        query: 'List the free fantasy games.',
        reference: '',
        calls: [{ tool: tags.name, args: i % setEvery === 0 ? { tag: 'fantasy' } : {} }],
      }));
    const hint = (setEvery: number) => learnToolHints(records(setEvery), [tags]).get(tags.name)!.params?.tag;
    expect(hint(3)?.setRates?.overall).toBeCloseTo(2 / 6, 2);
    expect(hint(1)?.setRates).toBeUndefined();
    expect(ToolHintSchema.safeParse(learnToolHints(records(3), [tags]).get(tags.name)).success).toBe(true);
  });

  it('say a parameter takes several values joined when the references pass what the request writes apart as one', () => {
    const rate: ToolDescriptor = {
      name: 'exchange_rate',
      description: 'The exchange rate of a currency pair.',
      inputSchema: { type: 'object', properties: { pair: { type: 'string' } }, required: ['pair'] },
    };
    const codes = [
      ['BTC', 'USD'],
      ['ETH', 'EUR'],
      ['EUR', 'GBP'],
      ['SOL', 'USD'],
    ];
    const records = (sep: string): TaskRecord[] =>
      codes.map(([a, b], i) => ({
        id: `r${i}`,
        group: `g${i}`,
        query: `Show me the current rate between ${a} and ${b}.`,
        reference: '',
        calls: [{ tool: rate.name, args: { pair: `${a}${sep}${b}` } }],
      }));
    const format = (sep: string) => learnToolHints(records(sep), [rate]).get(rate.name)!.params?.pair?.format;
    expect(format(',')?.listSep).toBe(',');
    expect(format(', ')?.listSep).toBe(', ');
    // Values the request writes whole say nothing of joining.
    const whole = codes.map(([a, b], i) => ({ ...records('/')[i]!, query: `Show me the current ${a}/${b} rate.` }));
    expect(learnToolHints(whole, [rate]).get(rate.name)!.params?.pair?.format?.listSep).toBeUndefined();
  });
});

describe('the case a parameter takes', () => {
  const stories: ToolDescriptor = {
    name: 'stories_by_topic',
    description: 'Stories on a topic.',
    inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
  };
  const records = (written: string[], passed: (w: string) => string): TaskRecord[] =>
    written.map((w, i) => ({
      id: `r${i}`,
      group: `g${i}`,
      query: `Show me the latest stories about ${w} please.`,
      reference: '',
      calls: [{ tool: stories.name, args: { topic: passed(w) } }],
    }));
  const lower = (rs: TaskRecord[]) => learnToolHints(rs, [stories]).get(stories.name)!.params?.topic?.format?.lower;

  it('is lower case when the names the requests capitalised were passed lower-cased, whatever the requests wrote in lower case', () => {
    // Two of five values were written with capitals, both passed lower-cased; three were written lower-case.
    const written = ['GraphQL', 'Kubernetes', 'rust', 'python', 'testing'];
    expect(lower(records(written, (w) => w.toLowerCase()))).toBe(true);
  });

  it('is as written when the capitalised names were passed as written as often', () => {
    const written = ['GraphQL', 'Kubernetes', 'Rust', 'Python', 'testing'];
    const passed = (w: string) => (w === 'GraphQL' || w === 'Kubernetes' ? w.toLowerCase() : w);
    expect(lower(records(written, passed))).toBeUndefined();
  });
});
