import { afterEach, describe, expect, it } from 'vitest';
import { scoreLogprobs, startTestLlmServer, type Script, type ScriptedReply, type TestLlmServer } from '../../test/support/llm-server.js';
import { isFlowScoutError } from '../errors/index.js';
import { createLlmClient } from '../llm/client.js';
import { resolveModel } from '../llm/resolve-model.js';
import { createLlmJudge, gevalPrompt, jointPrompt, parseJointScores, parseScore } from './llm-judge.js';

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const REQ = { query: 'What is the weather in Paris?', reference: 'It is 21 °C and sunny in Paris.', answer: 'Paris: 21 °C, sunny.' };

/** Replies chosen by the dimension named in the prompt, so concurrent calls get the right one. */
function byDimension(replies: Record<string, ScriptedReply | (() => ScriptedReply)>): Script {
  return (req) => {
    const prompt = (req.body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');
    const dim = ['Correctness', 'Completeness', 'Relevance', 'Clarity'].find((d) => prompt.trimEnd().endsWith(`${d}:`))!;
    const r = replies[dim]!;
    return typeof r === 'function' ? r() : r;
  };
}

async function judgeWith(script: Script, spec: 'compat' | 'openai' = 'compat', mode: 'per-dimension' | 'joint' = 'per-dimension') {
  server = await startTestLlmServer({ script });
  const model =
    spec === 'openai'
      ? await resolveModel('openai:gpt-4o-mini', { env: { OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: server.baseURL } })
      : await resolveModel(server.spec(), { env: {} });
  return createLlmJudge({ client: createLlmClient({ model, sleep: async () => {} }), mode });
}

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
    const judge = await judgeWith(
      byDimension({
        Correctness: { text: '5', logprobs: scoreLogprobs({ 5: 0.5, 4: 0.5 }) },
        Completeness: { text: '4', logprobs: scoreLogprobs({ 4: 1 }) },
        Relevance: { text: '5', logprobs: scoreLogprobs({ 5: 1 }) },
        Clarity: { text: '3', logprobs: scoreLogprobs({ 3: 0.6, 2: 0.4 }) },
      }),
      'openai',
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
    for (const r of server!.requests) expect(r.body).toMatchObject({ logprobs: true, top_logprobs: 5 });
  });

  it('weights by log-probabilities from an OpenAI-compatible server too', async () => {
    const judge = await judgeWith(() => ({ text: '2', logprobs: scoreLogprobs({ 2: 0.5, 3: 0.5 }) }));
    const s = await judge.score(REQ);
    expect(s.es).toBeCloseTo((2.5 - 1) / 4);
  });

  it('parses the integer when the provider returns no log-probabilities', async () => {
    const judge = await judgeWith(byDimension({ Correctness: { text: '5' }, Completeness: { text: 'Score: 3' }, Relevance: { text: '4' }, Clarity: { text: '1' } }));
    const s = await judge.score(REQ);
    expect(s).toMatchObject({ correctness: 1, completeness: 0.5, relevance: 0.75, clarity: 0 });
    expect(s.es).toBeCloseTo(0.5625);
    expect(s.rationale).not.toContain('probability-weighted');
  });

  it('retries an unparsable answer once', async () => {
    let correctnessCalls = 0;
    const judge = await judgeWith(
      byDimension({ Correctness: () => ({ text: correctnessCalls++ === 0 ? 'excellent!' : '4' }), Completeness: { text: '4' }, Relevance: { text: '4' }, Clarity: { text: '4' } }),
    );
    const s = await judge.score(REQ);
    expect(s.es).toBeCloseTo(0.75);
    expect(s.usage?.llmCalls).toBe(5);
  });

  it('fails with MODEL_ERROR the caller can record when the answer stays unparsable', async () => {
    const judge = await judgeWith(byDimension({ Correctness: { text: 'great' }, Completeness: { text: '4' }, Relevance: { text: '4' }, Clarity: { text: '4' } }));
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
    const judge = await judgeWith([]);
    expect((await judge.score({ ...REQ, answer: '  ' })).es).toBe(0);
    expect(server!.requests).toHaveLength(0);
  });

  it('joint mode: one request with the four rubrics, scored from its JSON object, retried once when malformed', async () => {
    const p = jointPrompt(REQ);
    for (const d of ['Correctness (1–5)', 'Completeness (1–5)', 'Relevance (1–5)', 'Clarity (1–5)']) expect(p).toContain(d);
    expect(p.split('Reference answer:').length).toBe(2);
    expect(parseJointScores('{"correctness": 5, "completeness": 4, "relevance": 3, "clarity": 2}')).toEqual({ correctness: 5, completeness: 4, relevance: 3, clarity: 2 });
    expect(parseJointScores('{"correctness": 6, "completeness": 4, "relevance": 3, "clarity": 2}')).toBeUndefined();
    expect(parseJointScores('{"correctness": 5}')).toBeUndefined();

    let calls = 0;
    const judge = await judgeWith(() => (++calls === 1 ? { text: 'looks good' } : { text: 'Scores: {"correctness": 5, "completeness": 3, "relevance": 5, "clarity": 1}' }), 'compat', 'joint');
    const score = await judge.score(REQ);
    expect(server!.requests).toHaveLength(2);
    expect(score).toMatchObject({ correctness: 1, completeness: 0.5, relevance: 1, clarity: 0 });
    expect(score.es).toBeCloseTo(0.625);
    expect(score.usage?.llmCalls).toBe(2);
    expect(judge.label).toContain('joint');
    // Its scores are not the per-dimension judge's: the memo keys differ.
    await server!.close();
    server = undefined;
    const perDimension = await judgeWith(() => ({ text: '4' }));
    expect(perDimension.id).not.toBe(judge.id);
    expect(perDimension.rubric).not.toBe(judge.rubric);
  });

  it('joint mode: no JSON object of four scores after the retry is a MODEL_ERROR naming the mode to switch to', async () => {
    const judge = await judgeWith(() => ({ text: '{"correctness": 4}' }), 'compat', 'joint');
    const err = await judge.score(REQ).catch((e: unknown) => e);
    expect(isFlowScoutError(err) && err.code === 'MODEL_ERROR').toBe(true);
    expect(String((err as Error & { hint?: string }).hint)).toContain('--judge-mode per-dimension');
  });
});
