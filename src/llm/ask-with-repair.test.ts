import { jsonSchema } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { askWithRepair } from './ask-with-repair.js';
import { createLlmClient } from './client.js';

/**
 * The ask-and-repair loop against the AI SDK's model contract (MockLanguageModelV3): assertions on the
 * structured requests the model receives (the JSON response format, the prompt messages), not on
 * prompt wording.
 */
const answer = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage: {
    inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 5, text: 5, reasoning: 0 },
  },
  warnings: [],
});

const schema = jsonSchema<unknown>({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } as never);

function clientOver(texts: string[]) {
  const model = new MockLanguageModelV3({ doGenerate: texts.map(answer) });
  return { model, client: createLlmClient({ model, spec: 'mock:model', env: {} }) };
}

const userText = (call: { prompt: Array<{ role: string; content: unknown }> }) =>
  call.prompt
    .filter((m) => m.role === 'user')
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .map((p: { text?: string }) => p.text ?? '')
    .join('\n');

describe('askWithRepair', () => {
  it('asks once when the answer passes the check, with the JSON schema as the response format', async () => {
    const { model, client } = clientOver(['{"n": 3}']);
    const r = await askWithRepair(client, {
      request: { schema, name: 'count', system: 'Count.', prompt: 'How many?' },
      check: (v) => ({ ok: true, value: (v as { n: number }).n }),
      repair: () => ({ prompt: 'unused' }),
    });
    expect(r).toMatchObject({ kind: 'ok', value: 3, round: 1, model: 'mock:model' });
    expect(model.doGenerateCalls).toHaveLength(1);
    const call = model.doGenerateCalls[0]!;
    expect(call.responseFormat).toMatchObject({
      type: 'json',
      name: 'count',
      schema: { type: 'object', required: ['n'] },
    });
    expect(call.prompt[0]).toMatchObject({ role: 'system', content: 'Count.' });
  });

  it("repairs once with the caller's prompt naming the problems, sums usage over both requests, and reports what the model answered", async () => {
    const { model, client } = clientOver(['{"n": -1}', '{"n": 2}']);
    const r = await askWithRepair(client, {
      request: { schema, name: 'count', prompt: 'How many?' },
      check: (v) =>
        (v as { n: number }).n >= 0
          ? { ok: true, value: (v as { n: number }).n }
          : { ok: false, problems: ['n must not be negative'] },
      repair: ({ text, problems }) => ({ prompt: `How many? Your answer ${text} was wrong: ${problems.join('; ')}` }),
    });
    expect(r).toMatchObject({ kind: 'ok', value: 2, round: 2, answers: [{ n: -1 }, { n: 2 }] });
    expect(r.usage).toMatchObject({ inputTokens: 20, outputTokens: 10, llmCalls: 2 });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(userText(model.doGenerateCalls[1]!)).toContain('n must not be negative');
    expect(userText(model.doGenerateCalls[1]!)).toContain('{"n": -1}');
  });

  it('gives up after the repair round with the last problems, and treats an unparsable answer as a problem to repair', async () => {
    const { model, client } = clientOver(['not json at all', '{"n": -5}']);
    const seen: string[][] = [];
    const r = await askWithRepair(client, {
      request: { schema, prompt: 'How many?' },
      check: (v) =>
        (v as { n: number }).n >= 0 ? { ok: true, value: 0 } : { ok: false, problems: ['n must not be negative'] },
      describeUnparsable: (p) => `unusable: ${p}`,
      repair: ({ problems }) => {
        seen.push([...problems]);
        return { prompt: 'again' };
      },
    });
    expect(r).toMatchObject({
      kind: 'invalid',
      problems: ['n must not be negative'],
      answers: ['not json at all', { n: -5 }],
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]![0]).toMatch(/^unusable: /);
    expect(model.doGenerateCalls).toHaveLength(2);
  });
});
