import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BenchResults } from '../../src/bench/experiments/results.js';
import { runCli } from '../../src/cli/program.js';
import { captureIO as capture } from '../support/cli-io.js';
import {
  startTestLlmServer,
  type RecordedRequest,
  type ScriptedReply,
  type TestLlmServer,
} from '../support/llm-server.js';

/**
 * RQ4's backbone swap (the paper's Table V) through the real AI SDK client: an offline bench on a small
 * Travel sample with `--models` naming two models of the local test server. FlowScout's best workflow
 * runs on the test queries under each model's LLM policy; each row names its model and policy, and the
 * table is not labelled offline.
 */

/** Plans the first offered tool with the query's first capitalised word; text nodes get a sentence. */
function script(): (req: RecordedRequest) => ScriptedReply {
  return (req) => {
    const rf = req.body?.response_format?.json_schema;
    const prompt = (req.body?.messages ?? []).map((m: { content: unknown }) => String(m.content)).join('\n');
    if (rf?.name === 'tool_calls') {
      const tools: string[] = rf.schema?.properties?.calls?.items?.properties?.tool?.enum ?? [];
      return { json: { calls: tools.length ? [{ tool: tools[0], args: {} }] : [] } };
    }
    // JSON nodes: the first allowed value of an enumerated property (G0's router: its first route), else true.
    if (rf)
      return {
        json: Object.fromEntries(
          Object.entries(rf.schema?.properties ?? {}).map(([p, s]) => [
            p,
            (s as { enum?: unknown[] }).enum?.[0] ?? true,
          ]),
        ),
      };
    return {
      text: `${req.body.model} answers: ${/[A-Z][a-z]+/.exec(prompt.split('\n').slice(1).join(' '))?.[0] ?? 'nothing'}.`,
    };
  };
}

let server: TestLlmServer;
let results: BenchResults;
let report: string;
const dir = mkdtempSync(join(tmpdir(), 'flowscout-backbone-'));

beforeAll(async () => {
  vi.stubEnv('FLOWSCOUT_MODEL', '');
  server = await startTestLlmServer({ script: script() });
  const io = capture();
  const out = join(dir, 'report');
  const status = await runCli(
    [
      'bench',
      '--domains',
      'Travel',
      '--max-records',
      '24',
      '--iterations',
      '1',
      '--runs',
      '1',
      '--max-test',
      '3',
      '--seed',
      '3',
      '--models',
      `${server.spec('alpha')},${server.spec('beta')}`,
      '--out',
      out,
    ],
    io,
  );
  expect(status, io.text()).toBe(0);
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as BenchResults;
  report = readFileSync(join(out, 'report.md'), 'utf8');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

describe('bench --models (Table V) against the test LLM server', () => {
  it('runs the best workflow under each model and reports one row per model with its policy', () => {
    expect(results.backbone.rows.map((r) => [r.domain, r.model, r.policy])).toEqual([
      ['Travel', server.spec('alpha'), `LLM policy (${server.spec('alpha')})`],
      ['Travel', server.spec('beta'), `LLM policy (${server.spec('beta')})`],
    ]);
    for (const r of results.backbone.rows) expect(r.es).toBeGreaterThan(0);
    const models = new Set(server.requests.map((r) => r.body?.model));
    expect(models).toEqual(new Set(['alpha', 'beta']));
    // The script plans the same calls whatever the model (the first offered tool, no arguments), so
    // both models received the same tool-plan requests and their runs made the same calls: equal TC.
    const plans = (model: string) =>
      server.requests.filter(
        (r) => r.body?.model === model && r.body?.response_format?.json_schema?.name === 'tool_calls',
      ).length;
    expect(plans('alpha')).toBeGreaterThan(0);
    expect(plans('beta')).toBe(plans('alpha'));
    const [alpha, beta] = results.backbone.rows;
    expect(beta!.tc).toBe(alpha!.tc);
    expect(results.backbone.note).toContain('run once on the test queries under each model');
  });

  it('labels Table V by its backbones, not as offline, while the offline tables stay labelled offline', () => {
    const section = report.slice(
      report.indexOf('### LLM backbones (Table V)'),
      report.indexOf('### Tool-set swap (Table IV)'),
    );
    expect(section).toContain(
      "_policy: each row's backbone (the policy column) · judge: offline lexical judge · seed 3 · the workflow: FlowScout's best, searched with offline policy (no LLM)_",
    );
    expect(section).not.toContain('OFFLINE');
    expect(section).toContain(`| Travel | ${server.spec('alpha')} | LLM policy (${server.spec('alpha')}) |`);
    const table2 = report.slice(report.indexOf('## RQ1'), report.indexOf('### Significance'));
    expect(table2).toContain('_OFFLINE · policy: offline policy (no LLM)');
  });
});
