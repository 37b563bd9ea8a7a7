import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../records/schema.js';
import { createLexicalJudge } from './lexical-judge.js';
import { formatEvalReport } from './format-report.js';
import { schemasFromTools, scorePredictions } from './score.js';
import type { Judge, JudgeRequest } from './types.js';

const records: TaskRecord[] = [
  {
    id: 'r1',
    query: 'Weather in Paris?',
    reference: 'It is 18 °C in Paris.',
    calls: [
      { tool: 'geo', args: { q: 'Paris' } },
      { tool: 'weather', args: { city: 'Paris', days: 1 } },
    ],
  },
  {
    id: 'r2',
    query: 'Weather in Rome?',
    reference: 'It is 25 °C in Rome.',
    calls: [{ tool: 'weather', args: { city: 'Rome', days: 1 } }],
  },
];

/** A judge whose scores are read from the answer text ("score:0.4"), counting the calls it gets. */
function scriptedJudge(): Judge & { asked: string[] } {
  const asked: string[] = [];
  return {
    id: 'scripted',
    kind: 'offline',
    label: 'scripted test judge',
    asked,
    async score(req: JudgeRequest) {
      asked.push(req.answer);
      if (req.answer.includes('boom')) throw new Error('judge exploded');
      const s = Number(/score:([\d.]+)/.exec(req.answer)?.[1] ?? 1);
      return { correctness: s, completeness: s, relevance: s, clarity: s, es: s };
    },
  };
}

describe('scorePredictions', () => {
  it('gives TC = 1 and the judge ES for predictions equal to the references', async () => {
    const preds = records.map((r) => ({
      id: r.id,
      calls: r.calls.map(({ tool, args }) => ({ tool, args })),
      answer: r.reference,
    }));
    const report = await scorePredictions(records, preds, { judge: createLexicalJudge() });
    expect(report.tc).toBe(1);
    expect(report.judge).toBe('offline lexical judge');
    expect(report.judgeKind).toBe('offline');
    expect(report.records.map((r) => r.tc)).toEqual([1, 1]);
    expect(report.es).toBeGreaterThan(0.8);
    expect(report.missingPredictions).toEqual([]);
  });

  it('counts a missing prediction as an empty trace and lists unknown ids', async () => {
    const judge = scriptedJudge();
    const report = await scorePredictions(
      records,
      [
        { id: 'r2', calls: [{ tool: 'weather', args: { city: 'Rome', days: '1' } }], answer: 'score:0.5' },
        { id: 'zzz', calls: [], answer: 'x' },
      ],
      {
        judge,
        schemas: schemasFromTools([
          { name: 'weather', inputSchema: { type: 'object', properties: { days: { type: 'number' } } } },
        ]),
      },
    );
    expect(report.missingPredictions).toEqual(['r1']);
    expect(report.unknownPredictions).toEqual(['zzz']);
    expect(report.records[0]).toMatchObject({ id: 'r1', tc: 0, es: 0, missingPrediction: true, runs: 1 });
    expect(report.records[1]).toMatchObject({ id: 'r2', tc: 1, es: 0.5 });
    expect(report.tc).toBe(0.5);
    expect(report.es).toBe(0.25);
    expect(judge.asked).toEqual(['score:0.5']);
  });

  it('treats repeated ids as repeated runs: means per record and the CV of ES', async () => {
    const calls = [{ tool: 'weather', args: { city: 'Rome', days: 1 } }];
    const report = await scorePredictions(
      records.slice(1),
      [
        { id: 'r2', calls, answer: 'score:0.25' },
        { id: 'r2', calls: [], answer: 'score:0.75' },
      ],
      { judge: scriptedJudge() },
    );
    const r2 = report.records[0]!;
    expect(r2).toMatchObject({ runs: 2, tcRuns: [1, 0], esRuns: [0.25, 0.75], tc: 0.5, es: 0.5 });
    // population std 0.25 / mean 0.5
    expect(r2.cv).toBeCloseTo(0.5, 12);
    expect(report.cv).toBeCloseTo(0.5, 12);
  });

  it('keeps going when the judge fails, scoring that answer 0 and saying why', async () => {
    const report = await scorePredictions(
      records,
      [
        { id: 'r1', calls: [], answer: 'boom' },
        { id: 'r2', calls: [], answer: 'score:1' },
      ],
      { judge: scriptedJudge(), concurrency: 1 },
    );
    expect(report.judgeErrors).toBe(1);
    expect(report.records[0]).toMatchObject({ es: 0, judgeError: 'judge exploded' });
    expect(report.records[1]!.es).toBe(1);
  });

  it('returns the TC detail for feedback', async () => {
    const report = await scorePredictions(
      records.slice(0, 1),
      [{ id: 'r1', calls: [{ tool: 'weather', args: { city: 'Lyon', days: 1 } }], answer: 'score:1' }],
      { judge: scriptedJudge() },
    );
    expect(report.records[0]!.detail).toMatchObject({
      missing: [0, 1],
      extra: [0],
      wrongArgs: [{ reference: 1, predicted: 0, tool: 'weather', keys: ['city'] }],
    });
  });

  it('scores ES only on records with a reference answer and TC on all, and the report says on how many', async () => {
    const handOff: TaskRecord = {
      id: 'r3',
      query: 'Cancel my order, or get me a human.',
      reference: '',
      calls: [{ tool: 'transfer', args: { summary: 'cancel' } }],
    };
    const judge = scriptedJudge();
    const preds = [
      { id: 'r1', calls: records[0]!.calls, answer: 'score:0.6' },
      { id: 'r2', calls: [], answer: 'score:0.4' },
      { id: 'r3', calls: [{ tool: 'transfer', args: { summary: 'cancel' } }], answer: 'score:0.9 I transferred you' },
    ];
    const report = await scorePredictions([...records, handOff], preds, { judge });
    expect(judge.asked).toEqual(['score:0.6', 'score:0.4']);
    expect(report.esRecords).toBe(2);
    expect(report.es).toBeCloseTo(0.5);
    expect(report.records.find((r) => r.id === 'r3')).toMatchObject({ tc: 1, noReference: true });
    expect(report.tc).toBeCloseTo((1 + 0 + 1) / 3);
    expect(formatEvalReport(report)).toContain('ES on 2 of 3 records (1 without a reference answer: TC only)');
    const all = await scorePredictions(records, preds.slice(0, 2), { judge: scriptedJudge() });
    expect(all.esRecords).toBe(2);
    expect(formatEvalReport(all)).not.toContain('without a reference');
  });
});
