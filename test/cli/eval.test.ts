import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';

const FIX = join(import.meta.dirname, '../fixtures/records');
const EVAL = join(FIX, 'eval');

const evalJson = async (args: string[]) => {
  const res = await cli(['eval', ...args, '--json']);
  expect(res.err).toBe('');
  expect(res.status).toBe(0);
  return JSON.parse(res.out) as {
    tc: number;
    es: number;
    judge: string;
    records: Array<{ id: string; tc: number }>;
    missingPredictions: string[];
    skipped: { records: number };
  };
};

describe('flowscout eval --predictions', () => {
  it('gives TC = 1 for predictions equal to the references, with the offline judge labelled', async () => {
    const res = await cli([
      'eval',
      '--predictions',
      join(EVAL, 'predictions-equal.jsonl'),
      '--records',
      join(EVAL, 'records.jsonl'),
      '--tools',
      join(EVAL, 'tools.json'),
    ]);
    expect(res.status).toBe(0);
    expect(res.out).toMatch(/TC\s+1\.000/);
    expect(res.out).toContain('judge: offline lexical judge — offline, not an LLM judge');
    expect(res.out).toMatch(/correctness\s+1\.000/);
    const json = await evalJson([
      '--predictions',
      join(EVAL, 'predictions-equal.jsonl'),
      '--records',
      join(EVAL, 'records.jsonl'),
    ]);
    expect(json.tc).toBe(1);
    expect(json.judge).toBe('offline lexical judge');
    expect(json.records.map((r) => r.tc)).toEqual([1, 1, 1]);
  });

  it('gives the hand-computed TC for shuffled calls: (2/3 + 1/2 + 1) / 3 = 13/18 with the tool schemas', async () => {
    const json = await evalJson([
      '--predictions',
      join(EVAL, 'predictions-shuffled.jsonl'),
      '--records',
      join(EVAL, 'records.jsonl'),
      '--tools',
      join(EVAL, 'tools.json'),
    ]);
    expect(json.records.map((r) => r.tc)).toEqual([2 / 3, 1 / 2, 1]);
    expect(json.tc).toBeCloseTo(13 / 18, 12);
  });

  it('without the schemas "2" ≠ 2, so e1 drops to 1/3 and the mean to 11/18', async () => {
    const json = await evalJson([
      '--predictions',
      join(EVAL, 'predictions-shuffled.jsonl'),
      '--records',
      join(EVAL, 'records.jsonl'),
    ]);
    expect(json.records[0]!.tc).toBeCloseTo(1 / 3, 12);
    expect(json.tc).toBeCloseTo(11 / 18, 12);
  });

  it('scores a record without a prediction as an empty trace and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-eval-'));
    const preds = join(dir, 'p.jsonl');
    writeFileSync(
      preds,
      `${JSON.stringify({ id: 'e3', calls: [{ tool: 'current_weather_for_weatherapi_com', args: { q: 'Rome' } }], answer: 'It is 25 °C and sunny in Rome.' })}\n`,
    );
    const res = await cli(['eval', '--predictions', preds, '--records', join(EVAL, 'records.jsonl')]);
    expect(res.status).toBe(0);
    expect(res.out).toContain('2 record(s) without a prediction, scored as empty traces: e1, e2');
    expect(res.out).toMatch(/TC\s+0\.333/);
  });

  it('rejects a records file with a broken line 7 and a record missing query, naming both lines', async () => {
    const res = await cli([
      'eval',
      '--predictions',
      join(EVAL, 'predictions-equal.jsonl'),
      '--records',
      join(FIX, 'bad-lines.jsonl'),
    ]);
    expect(res.status).toBe(2);
    expect(res.err).toContain('error [PARSE_ERROR]');
    expect(res.err).toMatch(/bad-lines\.jsonl:7: not valid JSON/);
    expect(res.err).toMatch(/bad-lines\.jsonl:12 \(\$\.query\): is required/);
    expect(res.err).toContain('--skip-invalid');
  });

  it('with --skip-invalid reports 2 skipped lines and scores the other 10 records', async () => {
    const res = await cli([
      'eval',
      '--predictions',
      join(EVAL, 'predictions-equal.jsonl'),
      '--records',
      join(FIX, 'bad-lines.jsonl'),
      '--skip-invalid',
    ]);
    expect(res.status).toBe(0);
    expect(res.out).toMatch(/records\s+10\n/);
    expect(res.out).toContain(`skipped invalid lines: 2 in ${join(FIX, 'bad-lines.jsonl')}, 0 in`);
    const json = await evalJson([
      '--predictions',
      join(EVAL, 'predictions-equal.jsonl'),
      '--records',
      join(FIX, 'bad-lines.jsonl'),
      '--skip-invalid',
    ]);
    expect(json.skipped.records).toBe(2);
  });

  it('names the line and field of a bad prediction', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-eval-'));
    const preds = join(dir, 'p.jsonl');
    writeFileSync(
      preds,
      [
        JSON.stringify({ id: 'e1', calls: [], answer: 'x' }),
        JSON.stringify({ id: 'e2', calls: [{ args: {} }], answer: 'y' }),
        JSON.stringify({ id: 'e3', calls: [] }),
      ].join('\n'),
    );
    const res = await cli(['eval', '--predictions', preds, '--records', join(EVAL, 'records.jsonl')]);
    expect(res.status).toBe(2);
    expect(res.err).toContain('p.jsonl:2 ($.calls[0].tool): is required (a string)');
    expect(res.err).toContain('p.jsonl:3 ($.answer): is required (a string)');
  });
});

describe('flowscout eval --judge-model', () => {
  it('scores ES with the LLM judge through an OpenAI-compatible server and labels it', async () => {
    const { startTestLlmServer } = await import('../support/llm-server.js');
    const four = JSON.stringify({ correctness: 4, completeness: 4, relevance: 4, clarity: 4 });
    const server = await startTestLlmServer({ script: () => ({ text: four }) });
    try {
      const res = await cli([
        'eval',
        '--predictions',
        join(EVAL, 'predictions-equal.jsonl'),
        '--records',
        join(EVAL, 'records.jsonl'),
        '--judge-model',
        server.spec('judge-test'),
        '--json',
      ]);
      expect(res.err).toBe('');
      const json = JSON.parse(res.out) as { es: number; judge: string; judgeKind: string; usage: { llmCalls: number } };
      expect(json.judge).toBe(`LLM judge (${server.spec('judge-test')}, joint)`);
      expect(json.judgeKind).toBe('llm');
      // every dimension answered 4 on the 1-5 scale → (4 - 1) / 4
      expect(json.es).toBeCloseTo(0.75, 12);
      // The joint judge (the default) asks once a record for the four dimensions.
      expect(server.requests).toHaveLength(3);
      expect(json.usage.llmCalls).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('survives a judge that gives no score: that answer scores 0 and the table says so', async () => {
    const { startTestLlmServer } = await import('../support/llm-server.js');
    const server = await startTestLlmServer({
      script: (req) => ({
        text: JSON.stringify(req.body).includes('Rome')
          ? 'great'
          : JSON.stringify({ correctness: 5, completeness: 5, relevance: 5, clarity: 5 }),
      }),
    });
    try {
      const res = await cli([
        'eval',
        '--predictions',
        join(EVAL, 'predictions-equal.jsonl'),
        '--records',
        join(EVAL, 'records.jsonl'),
        '--judge-model',
        server.spec('judge-test'),
      ]);
      expect(res.status).toBe(0);
      expect(res.out).toContain('1 answer(s) the judge failed on, scored 0');
      expect(res.out).toMatch(/ES\s+0\.667\s+judge: LLM judge/);
      expect(res.out).not.toContain('offline');
    } finally {
      await server.close();
    }
  });
});
