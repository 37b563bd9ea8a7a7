import { afterEach, describe, expect, it } from 'vitest';
import { scoreLogprobs, startTestLlmServer, type TestLlmServer } from '../../test/support/llm-server.js';
import { mockModel, roles, userText, type MockCall, type MockReply } from '../../test/support/mock-model.js';
import { isFlowScoutError } from '../errors/index.js';
import { createLlmClient } from '../llm/client.js';
import { resolveModel } from '../llm/resolve-model.js';
import { ES_DIMENSIONS, type EsDimension } from './types.js';
import { createLlmJudge, gevalPrompt, jointPrompt, parseJointScores, parseScore } from './llm-judge.js';

const REQ = {
  query: 'What is the weather in Paris?',
  reference: 'It is 21 °C and sunny in Paris.',
  answer: 'Paris: 21 °C, sunny.',
};

/** A score digit's token log-probabilities in the providers' shape (`top_logprobs`), e.g. `{4: 0.7, 5: 0.3}`. */
const digit = (probs: Record<number, number>) =>
  scoreLogprobs(probs).map((t) => ({ token: t.token, logprob: t.logprob, top_logprobs: t.top }));

/** Which dimension a request asks about: its prompt is the judge's own G-Eval prompt for that dimension (so concurrent calls get the right reply). */
function dimensionOf(call: MockCall): EsDimension {
  const d = ES_DIMENSIONS.find((dim) => userText(call) === gevalPrompt(dim, REQ));
  if (!d) throw new Error('the request is not a G-Eval prompt for REQ');
  return d;
}

function byDimension(replies: Record<EsDimension, MockReply | (() => MockReply)>) {
  return (call: MockCall): MockReply => {
    const r = replies[dimensionOf(call)];
    return typeof r === 'function' ? r() : r;
  };
}

/**
 * The judge over a mock model at the AI SDK contract. `provider` is the provider the client sees:
 * OpenAI and OpenAI-compatible models support log-probabilities, a plain mock does not.
 */
function judgeWith(
  script: MockReply[] | ((call: MockCall) => MockReply),
  provider: 'openai.chat' | 'openaiCompatible.chat' | 'mock-provider' = 'mock-provider',
  mode: 'per-dimension' | 'joint' = 'per-dimension',
) {
  const model = mockModel(script, { provider, modelId: 'gpt-4o-mini' });
  const spec = provider === 'openai.chat' ? 'openai:gpt-4o-mini' : 'mock:judge';
  return {
    judge: createLlmJudge({ client: createLlmClient({ model, spec, env: {}, sleep: async () => {} }), mode }),
    calls: model.doGenerateCalls,
  };
}

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('LLM judge (G-Eval)', () => {
  it('writes one G-Eval prompt per dimension with criterion, steps, query and reference', () => {
    const p = gevalPrompt('completeness', REQ);
    expect(p).toContain('Completeness (1–5)');
    expect(p).toMatch(/Evaluation steps:\n1\. /);
    expect(p).toContain('Reference answer:\nIt is 21 °C and sunny in Paris.');
    expect(p.trimEnd().endsWith('Completeness:')).toBe(true);
    expect(parseScore('Score: 4')).toBe(4);
    expect(parseScore('10')).toBeUndefined();
    expect(parseScore('4.5')).toBeUndefined();
    expect(parseScore('I would say 2.')).toBe(2);
  });

  it('weights the score by token log-probabilities (OpenAI provider)', async () => {
    const { judge, calls } = judgeWith(
      byDimension({
        correctness: { text: '5', logprobs: digit({ 5: 0.5, 4: 0.5 }) },
        completeness: { text: '4', logprobs: digit({ 4: 1 }) },
        relevance: { text: '5', logprobs: digit({ 5: 1 }) },
        clarity: { text: '3', logprobs: digit({ 3: 0.6, 2: 0.4 }) },
      }),
      'openai.chat',
    );
    expect(judge.label).toBe('LLM judge (openai:gpt-4o-mini)');
    expect(judge.kind).toBe('llm');
    const s = await judge.score(REQ);
    expect(s.correctness).toBeCloseTo((4.5 - 1) / 4);
    expect(s.completeness).toBeCloseTo(0.75);
    expect(s.relevance).toBeCloseTo(1);
    expect(s.clarity).toBeCloseTo((2.6 - 1) / 4);
    expect(s.es).toBeCloseTo((0.875 + 0.75 + 1 + 0.4) / 4);
    expect(s.rationale).toContain('correctness 4.50 (probability-weighted)');
    expect(s.usage).toMatchObject({ llmCalls: 4, inputTokens: 40, outputTokens: 20 });
    // One text request per dimension (system + user), each asking the provider for the top 5 alternatives.
    expect(calls.map(dimensionOf).sort()).toEqual([...ES_DIMENSIONS].sort());
    for (const call of calls) {
      expect(call.providerOptions).toMatchObject({ openai: { logprobs: 5 } });
      expect(roles(call)).toEqual(['system', 'user']);
      expect(call.responseFormat ?? { type: 'text' }).toMatchObject({ type: 'text' });
    }
  });

  it('end to end through the OpenAI provider over HTTP: the request body asks for the top 5 alternatives and the weighted score comes back', async () => {
    server = await startTestLlmServer({ script: () => ({ text: '5', logprobs: scoreLogprobs({ 5: 0.5, 4: 0.5 }) }) });
    const model = await resolveModel('openai:gpt-4o-mini', {
      env: { OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: server.baseURL },
    });
    const judge = createLlmJudge({ client: createLlmClient({ model, sleep: async () => {} }), mode: 'per-dimension' });
    const s = await judge.score(REQ);
    expect(s.es).toBeCloseTo((4.5 - 1) / 4);
    expect(server.requests).toHaveLength(4);
    for (const r of server.requests) expect(r.body).toMatchObject({ logprobs: true, top_logprobs: 5 });
  });

  it('weights by log-probabilities from an OpenAI-compatible server too', async () => {
    const { judge, calls } = judgeWith(
      () => ({ text: '2', logprobs: digit({ 2: 0.5, 3: 0.5 }) }),
      'openaiCompatible.chat',
    );
    const s = await judge.score(REQ);
    expect(s.es).toBeCloseTo((2.5 - 1) / 4);
    for (const call of calls)
      expect(call.providerOptions).toMatchObject({ openaiCompatible: { logprobs: true, top_logprobs: 5 } });
  });

  it('parses the integer when the provider returns no log-probabilities', async () => {
    const { judge, calls } = judgeWith(
      byDimension({
        correctness: { text: '5' },
        completeness: { text: 'Score: 3' },
        relevance: { text: '4' },
        clarity: { text: '1' },
      }),
    );
    const s = await judge.score(REQ);
    expect(s).toMatchObject({ correctness: 1, completeness: 0.5, relevance: 0.75, clarity: 0 });
    expect(s.es).toBeCloseTo(0.5625);
    expect(s.rationale).not.toContain('probability-weighted');
    // A model without log-probabilities is not asked for them.
    for (const call of calls) expect(call.providerOptions ?? {}).toEqual({});
  });

  it('retries an unparsable answer once', async () => {
    let correctnessCalls = 0;
    const { judge, calls } = judgeWith(
      byDimension({
        correctness: () => ({ text: correctnessCalls++ === 0 ? 'excellent!' : '4' }),
        completeness: { text: '4' },
        relevance: { text: '4' },
        clarity: { text: '4' },
      }),
    );
    const s = await judge.score(REQ);
    expect(s.es).toBeCloseTo(0.75);
    expect(s.usage?.llmCalls).toBe(5);
    expect(calls.filter((c) => dimensionOf(c) === 'correctness')).toHaveLength(2);
  });

  it('fails with MODEL_ERROR the caller can record when the answer stays unparsable', async () => {
    const { judge } = judgeWith(
      byDimension({
        correctness: { text: 'great' },
        completeness: { text: '4' },
        relevance: { text: '4' },
        clarity: { text: '4' },
      }),
    );
    let err: unknown;
    try {
      await judge.score(REQ);
    } catch (e) {
      err = e;
    }
    expect(isFlowScoutError(err) && err.code).toBe('MODEL_ERROR');
    expect((err as Error).message).toMatch(/no score 1–5 for correctness after a retry \(answer: "great"\)/);
  });

  it('scores an empty answer 0 without calling the model', async () => {
    const { judge, calls } = judgeWith([]);
    expect((await judge.score({ ...REQ, answer: '  ' })).es).toBe(0);
    expect(calls).toHaveLength(0);
  });

  it('joint mode: one request with the four rubrics, scored from its JSON object, retried once when malformed', async () => {
    const p = jointPrompt(REQ);
    for (const d of ['Correctness (1–5)', 'Completeness (1–5)', 'Relevance (1–5)', 'Clarity (1–5)'])
      expect(p).toContain(d);
    expect(p.split('Reference answer:').length).toBe(2);
    expect(parseJointScores('{"correctness": 5, "completeness": 4, "relevance": 3, "clarity": 2}')).toEqual({
      correctness: 5,
      completeness: 4,
      relevance: 3,
      clarity: 2,
    });
    expect(parseJointScores('{"correctness": 6, "completeness": 4, "relevance": 3, "clarity": 2}')).toBeUndefined();
    expect(parseJointScores('{"correctness": 5}')).toBeUndefined();

    const { judge, calls } = judgeWith(
      [{ text: 'looks good' }, { text: 'Scores: {"correctness": 5, "completeness": 3, "relevance": 5, "clarity": 1}' }],
      'mock-provider',
      'joint',
    );
    const score = await judge.score(REQ);
    expect(calls).toHaveLength(2);
    // Both requests are the one joint prompt, as plain text (the scores are parsed from the answer).
    for (const call of calls) {
      expect(userText(call)).toBe(p);
      expect(roles(call)).toEqual(['system', 'user']);
    }
    expect(score).toMatchObject({ correctness: 1, completeness: 0.5, relevance: 1, clarity: 0 });
    expect(score.es).toBeCloseTo(0.625);
    expect(score.usage?.llmCalls).toBe(2);
    expect(judge.label).toContain('joint');
    // Its scores are not the per-dimension judge's: the memo keys differ.
    const { judge: perDimension } = judgeWith(() => ({ text: '4' }));
    expect(perDimension.id).not.toBe(judge.id);
    expect(perDimension.rubric).not.toBe(judge.rubric);
  });

  it('joint mode (the default) weights each score by the log-probabilities of its digit, over HTTP through the OpenAI provider', async () => {
    // The answer's tokens spell the JSON object; each score digit is a token with its alternatives.
    const text = '{"correctness": 5, "completeness": 4, "relevance": 5, "clarity": 3}';
    const pieces = [
      '{"correctness": ',
      '5',
      ', "completeness": ',
      '4',
      ', "relevance": ',
      '5',
      ', "clarity": ',
      '3',
      '}',
    ];
    const alternatives: Record<string, Record<number, number>> = {
      1: { 5: 0.5, 4: 0.5 },
      3: { 4: 1 },
      5: { 5: 1 },
      7: { 3: 0.6, 2: 0.4 },
    };
    const logprobs = pieces.map((token, i) =>
      alternatives[i]
        ? scoreLogprobs(alternatives[i]!).map((t) => ({ ...t, token }))[0]!
        : { token, logprob: 0, top: [] },
    );
    server = await startTestLlmServer({ script: () => ({ text, logprobs }) });
    const model = await resolveModel('openai:gpt-4o-mini', {
      env: { OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: server.baseURL },
    });
    const judge = createLlmJudge({ client: createLlmClient({ model, sleep: async () => {} }) });
    expect(judge.label).toBe('LLM judge (openai:gpt-4o-mini, joint)');
    const s = await judge.score(REQ);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body).toMatchObject({ logprobs: true, top_logprobs: 5 });
    expect(s.correctness).toBeCloseTo((4.5 - 1) / 4);
    expect(s.completeness).toBeCloseTo(0.75);
    expect(s.relevance).toBeCloseTo(1);
    expect(s.clarity).toBeCloseTo((2.6 - 1) / 4);
    expect(s.rationale).toContain('probability-weighted');
  });

  it('joint mode keeps the whole scores when the tokens do not spell the answer', async () => {
    const { judge } = judgeWith(
      () => ({
        text: '{"correctness": 5, "completeness": 4, "relevance": 5, "clarity": 3}',
        logprobs: digit({ 5: 0.5, 4: 0.5 }),
      }),
      'openai.chat',
      'joint',
    );
    const s = await judge.score(REQ);
    expect(s).toMatchObject({ correctness: 1, completeness: 0.75, relevance: 1, clarity: 0.5 });
    expect(s.rationale).not.toContain('probability-weighted');
  });

  it('joint mode: no JSON object of four scores after the retry is a MODEL_ERROR naming the mode to switch to', async () => {
    const { judge } = judgeWith(() => ({ text: '{"correctness": 4}' }), 'mock-provider', 'joint');
    const err = await judge.score(REQ).catch((e: unknown) => e);
    expect(isFlowScoutError(err) && err.code === 'MODEL_ERROR').toBe(true);
    expect(String((err as Error & { hint?: string }).hint)).toContain('--judge-mode per-dimension');
  });
});
