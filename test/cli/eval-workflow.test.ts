import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestLlmServer } from '../support/llm-server.js';
import type { TaskRecord } from '../../src/records/schema.js';
import { readRecordsFile } from '../../src/records/read-records.js';
import { cli } from '../support/cli-io.js';

const FIX = join(import.meta.dirname, '../fixtures/records');
const EVAL = join(FIX, 'eval');
const base = [
  'eval',
  join(EVAL, 'workflow.json'),
  '--records',
  join(EVAL, 'records.jsonl'),
  '--tools',
  join(EVAL, 'tools.config.json'),
];

describe('flowscout eval <workflow> (workflow mode)', () => {
  it('runs the workflow with an LLM policy over replayed tools and reaches TC = 1 when the model calls the reference tools', async () => {
    const { records } = await readRecordsFile(join(EVAL, 'records.jsonl'));
    const recordIn = (body: unknown): TaskRecord => records.find((r) => JSON.stringify(body).includes(r.query))!;
    // The scripted model plans each record's reference calls and answers with its reference.
    const server = await startTestLlmServer({
      script: (req) => {
        const rec = recordIn(req.body);
        if (req.body.response_format) return { json: { calls: rec.calls.map(({ tool, args }) => ({ tool, args })) } };
        return { text: rec.reference };
      },
    });
    try {
      const res = await cli([...base, '--model', server.spec('planner'), '--json']);
      expect(res.err).toBe('');
      const json = JSON.parse(res.out) as {
        tc: number;
        es: number;
        policy: string;
        policyKind: string;
        toolStats: { replayHits: number; replayMisses: number };
        records: Array<{ tc: number }>;
      };
      expect(json.policy).toBe(`LLM policy (${server.spec('planner')})`);
      expect(json.policyKind).toBe('llm');
      expect(json.records.map((r) => r.tc)).toEqual([1, 1, 1]);
      expect(json.tc).toBe(1);
      expect(json.toolStats).toMatchObject({ replayHits: 6, replayMisses: 0 });
      expect(json.es).toBeGreaterThan(0.8);
    } finally {
      await server.close();
    }
  });

  it('defaults to the offline policy, labels it, and with --repeat 2 reports the CV over two runs per record', async () => {
    const res = await cli([...base, '--repeat', '2']);
    expect(res.err).toBe('');
    expect(res.status).toBe(0);
    expect(res.out).toContain('on 3 records × 2 runs');
    expect(res.out).toContain('policy: offline policy (no LLM) — offline, no LLM');
    expect(res.out).toContain('judge: offline lexical judge — offline, not an LLM judge');
    expect(res.out).toMatch(/CV of ES\s+0\.000\s+mean over 3 records run more than once/);
    expect(res.out).toMatch(/tool calls\s+\d+/);
  });

  it('says which parameters lost the most reference arguments, per source, in text and in --json', async () => {
    const text = await cli(base);
    expect(text.status).toBe(0);
    const res = await cli([...base, '--json']);
    expect(res.status).toBe(0);
    type Counts = { args: number; called: number; right: number };
    const json = JSON.parse(res.out) as {
      argumentSources: Record<string, Counts>;
      parameterSources: Array<Counts & { tool: string; param: string; source: string }>;
    };
    const rows = json.parameterSources;
    // Every parameter of the reference calls is there, those that lost the most first, and per source
    // they add up to the evaluation's argument counts.
    expect(rows.length).toBeGreaterThan(1);
    const lost = rows.map((r) => r.args - r.right);
    expect(lost).toEqual([...lost].sort((a, b) => b - a));
    for (const source of ['request', 'upstream', 'neither']) {
      const mine = rows.filter((r) => r.source === source);
      expect({
        args: mine.reduce((n, r) => n + r.args, 0),
        called: mine.reduce((n, r) => n + r.called, 0),
        right: mine.reduce((n, r) => n + r.right, 0),
      }).toEqual(json.argumentSources[source]);
    }
    // The text names the parameter that lost the most, with its counts.
    const top = rows[0]!;
    expect(text.out).toMatch(
      new RegExp(
        `lost most\\s+${top.tool}\\.${top.param} \\([^:]+: ${top.right} of ${top.args} right, ${top.called} called\\)`,
      ),
    );
  });

  it('explains wrong combinations and bad inputs', async () => {
    const both = await cli([...base, '--predictions', join(EVAL, 'predictions-equal.jsonl')]);
    expect(both.err).toContain('give a workflow to run or --predictions to score, not both');
    const noTools = await cli(['eval', join(EVAL, 'workflow.json'), '--records', join(EVAL, 'records.jsonl')]);
    expect(noTools.err).toContain('running a workflow needs its tools');
    const descriptors = await cli([
      'eval',
      join(EVAL, 'workflow.json'),
      '--records',
      join(EVAL, 'records.jsonl'),
      '--tools',
      join(EVAL, 'tools.json'),
    ]);
    expect(descriptors.err).toContain('lists tool descriptors; running a workflow needs a tool config');
    const leak = await cli([...base, '--learn-from', join(EVAL, 'records.jsonl')]);
    expect(leak.err).toContain('--learn-from is no longer an option: policies learn from no records');
    const repeatWithPredictions = await cli([
      'eval',
      '--predictions',
      join(EVAL, 'predictions-equal.jsonl'),
      '--records',
      join(EVAL, 'records.jsonl'),
      '--repeat',
      '2',
    ]);
    expect(repeatWithPredictions.err).toContain('--repeat only applies when a workflow is run');
    const invalid = await cli([
      'eval',
      join(EVAL, 'tools.config.json'),
      '--records',
      join(EVAL, 'records.jsonl'),
      '--tools',
      join(EVAL, 'tools.config.json'),
    ]);
    expect(invalid.status).toBe(2);
    expect(invalid.err).toContain('INVALID_WORKFLOW');
  });
});
