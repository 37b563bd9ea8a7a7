import { describe, expect, it } from 'vitest';
import { clarity, createLexicalJudge, lexicalScore } from './lexical-judge.js';

const query = 'What is the current weather in Paris and the exchange rate of EUR/USD?';
const reference =
  'In Paris it is 18.34 °C and sunny with 40% humidity. The EUR/USD rate is 1.0842, quoted by Alpha Vantage.';

describe('createLexicalJudge', () => {
  it('is an offline judge labelled as such', async () => {
    const judge = createLexicalJudge();
    expect(judge).toMatchObject({ id: 'lexical', kind: 'offline', label: 'offline lexical judge' });
    const s = await judge.score({ query, reference, answer: reference });
    expect(s.es).toBeCloseTo((s.correctness + s.completeness + s.relevance + s.clarity) / 4, 12);
  });

  it('gives the reference itself full correctness and completeness', () => {
    const s = lexicalScore({ query, reference, answer: reference });
    expect(s.correctness).toBe(1);
    expect(s.completeness).toBe(1);
    expect(s.clarity).toBe(1);
  });

  it('gives an empty answer 0 everywhere', () => {
    expect(lexicalScore({ query, reference, answer: '  ' })).toMatchObject({
      correctness: 0,
      completeness: 0,
      relevance: 0,
      clarity: 0,
      es: 0,
    });
  });

  it('is deterministic', () => {
    const a = lexicalScore({ query, reference, answer: 'Paris: 18 °C, sunny.' });
    expect(lexicalScore({ query, reference, answer: 'Paris: 18 °C, sunny.' })).toEqual(a);
  });
});

describe('each dimension moves the right way', () => {
  it('correctness: wrong numbers and names score lower than right ones, rounding is accepted', () => {
    const right = lexicalScore({
      query,
      reference,
      answer: 'Paris is at 18.3 °C, sunny, 40% humidity; EUR/USD is 1.0842 (Alpha Vantage).',
    });
    const wrong = lexicalScore({
      query,
      reference,
      answer: 'Paris is at 25 °C, sunny, 70% humidity; GBP/USD is 1.27 (Yahoo Finance).',
    });
    expect(right.correctness).toBe(1);
    expect(wrong.correctness).toBeLessThan(0.5);
    expect(wrong.correctness).toBeLessThan(right.correctness);
  });

  it('completeness: covering half of the reference scores between none and all', () => {
    const half = lexicalScore({ query, reference, answer: 'In Paris it is sunny with 40% humidity.' });
    const all = lexicalScore({ query, reference, answer: reference });
    const none = lexicalScore({ query, reference, answer: 'I could not find anything.' });
    expect(half.completeness).toBeGreaterThan(none.completeness);
    expect(half.completeness).toBeLessThan(all.completeness);
  });

  it('relevance: an answer about the query beats an off-topic one', () => {
    const onTopic = lexicalScore({
      query,
      reference,
      answer: 'The current weather in Paris is sunny; the EUR/USD exchange rate is 1.08.',
    });
    const offTopic = lexicalScore({ query, reference, answer: 'Bananas are a good source of potassium.' });
    expect(onTopic.relevance).toBeGreaterThan(0.6);
    expect(offTopic.relevance).toBe(0);
  });

  it('clarity: raw dumps, truncation and run-on sentences are penalised', () => {
    expect(clarity('The weather in Paris is sunny and warm today.').score).toBe(1);
    expect(clarity("{'temp_c': 18.34, 'condition': {'text': 'Sunny'}, 'is_day': True}").score).toBeLessThanOrEqual(0.6);
    expect(clarity('The weather in Paris is sunny and the forecast says...').score).toBeCloseTo(0.8, 12);
    const runOn = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    expect(clarity(runOn).score).toBeLessThan(0.7);
    expect(clarity('Sunny.').score).toBeCloseTo(0.7, 12);
  });

  it('a reference without numbers or names falls back to completeness for correctness', () => {
    const s = lexicalScore({ query: 'how is the weather', reference: 'it is sunny and warm', answer: 'sunny today' });
    expect(s.correctness).toBe(s.completeness);
  });
});
