import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordSchema } from '../schema.js';
import { splitRecords } from '../split.js';
import { importAgentLogs } from './agent-logs.js';
import { DROP_FAILED } from './conversation.js';
import { formatConversationCounts } from './conversation-counts.js';
import { hasContent, isErrorOutput, queryOf, referenceOf } from './dialogue.js';
import { readToolDefinitions } from './tool-definitions.js';

/**
 * Real agents' logs as they are (test/fixtures/agent-logs/nested-runs, from API-Bank and tau-bench
 * retail): runs with their messages under `traj`, tool schemas in a file of their own, reward 0 and
 * 1, four runs per task, hand-offs and "Error: …" tool outputs.
 */

const DIR = join(import.meta.dirname, '../../../test/fixtures/agent-logs/nested-runs');
const RUNS = join(DIR, 'runs.json');
const TOOLS = join(DIR, 'tools.json');
type Run = {
  task_id: string;
  trial: number;
  reward: number;
  info: { mode: string };
  traj: Array<Record<string, unknown>>;
};
const raw = JSON.parse(readFileSync(RUNS, 'utf8')) as Run[];
const tmp = () => mkdtempSync(join(tmpdir(), 'fs-nested-'));

describe('the nested-runs fixture', () => {
  it('is what the tests below assume: 8 tasks × 4 runs under traj, reward 0 and 1, hand-offs and Error outputs', () => {
    expect(raw).toHaveLength(32);
    expect(new Set(raw.map((r) => r.task_id)).size).toBe(8);
    expect(raw.every((r) => Array.isArray(r.traj) && !('messages' in r))).toBe(true);
    expect(raw.filter((r) => r.reward === 1)).toHaveLength(24);
    expect(raw.filter((r) => JSON.stringify(r.traj.at(-2)).includes('transfer_to_human_agents'))).toHaveLength(6);
    expect(
      raw.flatMap((r) => r.traj).filter((m) => m.role === 'tool' && String(m.content).startsWith('Error: ')),
    ).toHaveLength(14);
  });
});

describe('importAgentLogs on runs nested under another key', () => {
  const all = importAgentLogs('auto', [RUNS], { tools: readToolDefinitions(TOOLS), keepFailed: true });
  const picked = importAgentLogs('auto', [RUNS], {
    tools: readToolDefinitions(TOOLS),
    where: ['reward=1'],
    group: 'task_id',
  });

  it('finds the messages under traj by content and says so', () => {
    expect(all.format).toBe('openai');
    expect(all.counts.messagePaths).toEqual({ '$.traj': 32 });
    expect(formatConversationCounts('x', picked.counts)).toMatch(/messages found\s+under \$\.traj \(24 runs\)/);
    for (const r of picked.records) expect(RecordSchema.parse(r)).toEqual(r);
  });

  it('selects runs with --where and counts them', () => {
    expect(picked.counts.where).toEqual({ conditions: ['reward=1'], selected: 24, of: 32 });
    expect(picked.records).toHaveLength(24);
    expect(formatConversationCounts('x', picked.counts)).toMatch(
      /selected\s+24 of 32 runs by --where reward=1 \(8 left out\)/,
    );
    const failedOnly = importAgentLogs('auto', [RUNS], { where: ['reward!=1', 'info.mode=fail'], keepFailed: true });
    expect(failedOnly.counts.where).toMatchObject({ selected: 6 });
  });

  it("writes each run's task as its group and counts the groups", () => {
    expect(new Set(picked.records.map((r) => r.group))).toEqual(new Set(raw.map((r) => r.task_id)));
    expect(picked.counts.group).toEqual({ path: 'task_id', groups: 8, without: 0 });
    expect(formatConversationCounts('x', picked.counts)).toMatch(/groups\s+8 by --group task_id/);
  });

  it('keeps runs that end in a hand-off call, without a reference answer, and counts them', () => {
    const handOffs = picked.records.filter((r) => r.calls.at(-1)?.tool === 'transfer_to_human_agents');
    expect(handOffs).toHaveLength(6);
    expect(handOffs.every((r) => r.reference === '')).toBe(true);
    expect(picked.counts.references.endsInCall).toBe(6);
    expect(formatConversationCounts('x', picked.counts)).toContain(
      '6 runs ending in a tool call (hand-offs, final writes) kept without one',
    );
  });

  it('chooses as reference what the assistant said after the last tool result, passing over closing formulas', () => {
    const thanks = picked.records.filter((r) => r.group === 'api-bank/AddReminder-level-1-1');
    expect(thanks.map((r) => r.reference)).toEqual(Array(3).fill('Your reminder is all set.'));
    expect(picked.records.some((r) => /welcome|great day/i.test(r.reference))).toBe(false);
    expect(picked.counts.references).toMatchObject({ chosen: 18, passedOver: 6 });
    expect(formatConversationCounts('x', picked.counts)).toContain(
      "18 chosen as the assistant's content after the last tool result (6 closing formulas passed over)",
    );
  });

  it('reads "Error: …" tool outputs as failed calls; a selected run keeps them only in its turns', () => {
    expect(all.counts).toMatchObject({ failedCalls: 14, textErrors: 14 });
    expect(picked.counts).toMatchObject({ failedCalls: 8, textErrors: 8, failedLeftOut: 8 });
    expect(formatConversationCounts('x', picked.counts)).toMatch(
      /calls\s+86 \(failed: 8, of them errors returned as text: 8;/,
    );
    const retried = picked.records.find(
      (r) => r.group === 'api-bank/BookHotel-level-1-1' && r.turns?.some((t) => t.status === 'error'),
    )!;
    expect(retried.calls.every((c) => c.status === 'ok')).toBe(true);
    expect(retried.turns!.filter((t) => t.role === 'tool').map((t) => t.status)).toEqual(['error', 'ok']);
    // Without a selection, a run with a failed call is dropped as before; --keep-failed keeps the call as failed.
    const plain = importAgentLogs('openai', [RUNS], { messages: 'traj' });
    expect(plain.counts.dropped[DROP_FAILED]).toBe(14);
    const kept = all.records.find((r) => r.calls.some((c) => String(c.output).startsWith('Error: ')))!;
    expect(kept.calls.find((c) => String(c.output).startsWith('Error: '))!.status).toBe('error');
  });

  it("keeps a multi-turn dialogue's turns and joins its user turns readably", () => {
    const r = picked.records.find((x) => x.group === 'api-bank/AddAgenda-AddAlarm-GetUserToken-level-2-1')!;
    expect(r.query.split('\n--- next user turn ---\n')).toHaveLength(3);
    expect(r.turns!.filter((t) => t.role === 'user')).toHaveLength(3);
    expect(
      r.turns!.filter((t) => t.role === 'assistant' && t.calls).flatMap((t) => t.calls!.map((c) => c.tool)),
    ).toEqual(['GetUserToken', 'AddAgenda', 'AddAlarm']);
  });

  it('takes tool definitions from the --tools file over inferred ones', () => {
    expect(picked.counts).toMatchObject({ toolsDefined: 16, toolsFromFile: 16, toolsInferred: 0, missingToolCalls: 0 });
    expect(picked.tools.find((t) => t.name === 'transfer_to_human_agents')!.description).toMatch(/human/);
    const inferred = importAgentLogs('auto', [RUNS], { where: ['reward=1'] });
    expect(inferred.counts.toolsInferred).toBe(16);
    // A definitions file that lacks a tool: the calls naming it are counted (and dropped unless --keep-failed).
    const file = join(tmp(), 'tools.json');
    writeFileSync(
      file,
      JSON.stringify(
        (JSON.parse(readFileSync(TOOLS, 'utf8')) as Array<{ function: { name: string } }>).filter(
          (t) => t.function.name !== 'GetUserToken',
        ),
      ),
    );
    const lacking = importAgentLogs('auto', [RUNS], { tools: readToolDefinitions(file), where: ['reward=1'] });
    expect(lacking.counts.missingTools).toEqual(['GetUserToken']);
    expect(lacking.counts.missingToolCalls).toBeGreaterThan(0);
  });

  it('splits grouped records with no task in two parts', () => {
    const split = splitRecords(picked.records, { seed: 3, by: 'group' });
    const part = new Map<string, string>();
    for (const [name, list] of Object.entries(split))
      for (const r of list) (expect(part.get(r.group!) ?? name).toBe(name), part.set(r.group!, name));
  });
});

describe('finding the conversation wherever it is', () => {
  const run = (extra: Record<string, unknown>) => ({
    ...extra,
    // one user turn, one call, one answer
  });
  const msgs = [
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: '{"temp_c":18}' },
    { role: 'assistant', content: 'It is 18 °C in Paris.' },
  ];

  it('reads JSONL, a JSON object of runs, and a path given with --messages', () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'a.jsonl'),
      `${JSON.stringify(run({ id: 'a', inputs: { messages: msgs } }))}\n${JSON.stringify(run({ id: 'b', inputs: { messages: msgs } }))}\n`,
    );
    const a = importAgentLogs('auto', [join(dir, 'a.jsonl')]);
    expect(a.records.map((r) => r.reference)).toEqual(['It is 18 °C in Paris.', 'It is 18 °C in Paris.']);
    expect(a.counts.messagePaths).toEqual({ '$.inputs.messages': 2 });
    writeFileSync(
      join(dir, 'b.json'),
      JSON.stringify({ first: { score: 1, conversation: msgs }, second: { score: 0, conversation: msgs } }),
    );
    const b = importAgentLogs('openai', [join(dir, 'b.json')], { where: ['score>0'] });
    expect(b.records.map((r) => r.meta?.path)).toEqual(['$.first']);
    writeFileSync(
      join(dir, 'list.json'),
      JSON.stringify({
        exported: '2026-12-01',
        runs: [
          { task: 1, traj: msgs },
          { task: 2, traj: msgs },
        ],
      }),
    );
    const list = importAgentLogs('auto', [join(dir, 'list.json')], { group: 'task' });
    expect(list.records.map((r) => [r.meta?.path, r.group])).toEqual([
      ['$.runs[0]', '1'],
      ['$.runs[1]', '2'],
    ]);
    writeFileSync(
      join(dir, 'c.json'),
      JSON.stringify([{ log: { chat: msgs, other: [{ role: 'system', content: 'x' }] } }]),
    );
    expect(importAgentLogs('openai', [join(dir, 'c.json')], { messages: 'log.chat' }).counts.messagePaths).toEqual({
      '$.log.chat': 1,
    });
  });

  it('finds Anthropic and AI SDK conversations under other keys too', () => {
    const dir = tmp();
    const anthropic = [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Error: city service down' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: '18 °C' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'It is 18 °C in Paris.' }] },
    ];
    writeFileSync(join(dir, 'a.jsonl'), `${JSON.stringify({ ok: true, conversation: anthropic })}\n`);
    const a = importAgentLogs('auto', [join(dir, 'a.jsonl')], { where: ['ok=true'] });
    expect(a.format).toBe('anthropic');
    expect(a.counts).toMatchObject({ messagePaths: { '$.conversation': 1 }, textErrors: 1, failedLeftOut: 1 });
    expect(a.records[0]).toMatchObject({
      reference: 'It is 18 °C in Paris.',
      calls: [{ tool: 'weather', output: '18 °C', status: 'ok' }],
    });
    const aiSdk = [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Paris' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'weather',
            output: { type: 'json', value: { error: 'quota exceeded' } },
          },
        ],
      },
    ];
    writeFileSync(join(dir, 'b.json'), JSON.stringify([{ run: { history: aiSdk } }]));
    const b = importAgentLogs('ai-sdk', [join(dir, 'b.json')], { keepFailed: true });
    expect(b.counts).toMatchObject({ messagePaths: { '$.run.history': 1 }, textErrors: 1 });
    expect(b.records[0]).toMatchObject({ reference: '', calls: [{ status: 'error' }] });
  });

  it('names the keys it saw when no message array is found', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'd.json'), JSON.stringify([{ task_id: 1, reward: 1, steps_taken: 3, history: 'none' }]));
    expect(() => importAgentLogs('openai', [join(dir, 'd.json')])).toThrow(
      /\(\$\[0\]\): no array of chat messages .* keys seen: task_id \(a number\), reward \(a number\), steps_taken \(a number\), history \(a string\)\. Name the key .* --messages/,
    );
    expect(() => importAgentLogs('auto', [join(dir, 'd.json')])).toThrow(
      /keys seen in the items: task_id, reward, steps_taken, history/,
    );
    writeFileSync(join(dir, 'e.json'), JSON.stringify([{ traj: msgs }]));
    expect(() => importAgentLogs('openai', [join(dir, 'e.json')], { messages: 'trajectory' })).toThrow(
      /\(\$\[0\]\.trajectory\): --messages trajectory: expected an array of chat messages, found nothing; keys seen: traj \(an array\)/,
    );
  });
});

describe('dialogue rules', () => {
  it('drops framework stop tokens from user turns and marks turns', () => {
    expect(queryOf(['Cancel my order.', 'Yes, go ahead ###STOP###', '###STOP###'])).toBe(
      'Cancel my order.\n--- next user turn ---\nYes, go ahead',
    );
    expect(queryOf(['Hello <|endoftext|>'])).toBe('Hello');
  });

  it('tells closing formulas from content', () => {
    for (const t of [
      "You're welcome! Have a great day!",
      'Is there anything else I can help you with?',
      'Thanks, bye!',
    ])
      expect(hasContent(t)).toBe(false);
    for (const t of ['Your order #W123 has been cancelled.', 'Done.', 'It is 18 °C.']) expect(hasContent(t)).toBe(true);
    const turns = [
      { role: 'user' as const, text: 'q' },
      { role: 'assistant' as const, text: '', calls: [1] },
      { role: 'tool' as const, call: 1 },
      { role: 'assistant' as const, text: 'Your refund is on its way.', calls: [] },
      { role: 'user' as const, text: 'thanks' },
      { role: 'assistant' as const, text: 'You are welcome!', calls: [] },
    ];
    expect(referenceOf(turns)).toEqual({ answer: 'Your refund is on its way.', how: 'chosen', passedOver: 1 });
    expect(referenceOf(turns.slice(0, 3))).toEqual({ how: 'ends-in-call', passedOver: 0 });
    expect(referenceOf([...turns.slice(0, 3), turns[5]!])).toEqual({ how: 'closing-only', passedOver: 1 });
  });

  it('reads errors by their content, and a configured pattern', () => {
    for (const o of [
      'Error: user not found',
      'error: bad id',
      'Exception: boom',
      { error: 'not found' },
      { error: { code: 4 }, message: 'x' },
      '{"error": "quota"}',
    ])
      expect(isErrorOutput(o)).toBe(true);
    for (const o of [
      'success',
      'No errors found',
      { error: null, data: 1 },
      { result: 'ok', error: 'x', items: [] },
      42,
    ])
      expect(isErrorOutput(o)).toBe(false);
    expect(isErrorOutput('FAILED: timeout', /^failed/i)).toBe(true);
  });
});

describe('readToolDefinitions', () => {
  const dir = tmp();
  const write = (name: string, v: unknown) => {
    writeFileSync(join(dir, name), JSON.stringify(v));
    return join(dir, name);
  };
  const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

  it('reads OpenAI, Anthropic, MCP tools/list and bare lists', () => {
    const cases = [
      [{ type: 'function', function: { name: 'weather', description: 'd', parameters: schema } }],
      [{ name: 'weather', description: 'd', input_schema: schema }],
      { tools: [{ name: 'weather', description: 'd', inputSchema: schema }] },
      { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'weather', description: 'd', inputSchema: schema }] } },
      { weather: { description: 'd', parameters: schema } },
    ];
    cases.forEach((c, i) =>
      expect(readToolDefinitions(write(`t${i}.json`, c))).toEqual([
        { name: 'weather', description: 'd', inputSchema: schema },
      ]),
    );
  });

  it('names the file and the JSON path of a bad definition', () => {
    expect(() =>
      readToolDefinitions(write('bad.json', [{ type: 'function', function: { description: 'no name' } }])),
    ).toThrow(/bad\.json \(\$\[0\]\.function\): the tool has no name/);
    expect(() => readToolDefinitions(write('bad2.json', 'tools'))).toThrow(/expected a list of tool definitions/);
  });
});
