import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../../test/support/cli-io.js';
import { promptText, startTestLlmServer } from '../../../test/support/llm-server.js';
import { scriptedModel } from '../../../test/support/scripted-model.js';
import { readRecordsFile } from '../../records/read-records.js';

const dir = mkdtempSync(join(tmpdir(), 'flowscout-dry-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `search --dry-run` tells a model user what a search will send before it sends anything, and the
 * projection holds: the same search run against the test server (a scripted model that picks the
 * reference calls among the tools it is offered; the server counts 4 characters a token) sends
 * within 25% of the projected tokens, and at most a third more requests than projected (fewer when
 * edits leave answers unchanged). `runs show` then lists the requests per node.
 */
describe('flowscout search --dry-run', () => {
  it('prints the projection without sending a request, and the real run lands within 25% of its tokens', async () => {
    expect((await cli(['import', 'traject', '--domain', 'Weather', '--out', join(dir, 'weather')])).status).toBe(0);
    // 30 records keep the run short: D_opt 15, D_val 6, D_test 9. The search starts from the skeleton
    // (no router): the scripted model routes every record to its own calls, so from the routed G0 the
    // optimizer would find nothing to edit and the two iterations would cost nothing.
    const lines = readFileSync(join(dir, 'weather', 'records.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .slice(0, 30);
    writeFileSync(join(dir, 'records.jsonl'), `${lines.join('\n')}\n`);
    const { records } = await readRecordsFile(join(dir, 'weather', 'records.jsonl'));
    const server = await startTestLlmServer({ script: scriptedModel(records), usage: 'estimate' });
    try {
      const args = [
        'search',
        '--records',
        join(dir, 'records.jsonl'),
        '--tools',
        join(dir, 'weather', 'tools.config.json'),
        '--model',
        server.spec(),
        '--optimizer-model',
        'offline',
        '--iterations',
        '2',
        '--patience',
        '9',
        '--db',
        join(dir, 'store.db'),
        '--start',
        'skeleton',
      ];
      const dry = await cli([...args, '--dry-run', '--json']);
      expect(dry.status, dry.err).toBe(0);
      expect(server.requests).toHaveLength(0);
      const p = JSON.parse(dry.out).projection as {
        total: { requests: number; inputTokens: number; outputTokens: number };
        judgeModes: Record<'per-dimension' | 'joint', { total: { requests: number; inputTokens: number } }>;
      };
      // Both judge modes are projected: the joint judge sends one request a record instead of four.
      expect(p.judgeModes['per-dimension'].total).toMatchObject({
        requests: p.total.requests,
        inputTokens: p.total.inputTokens,
      });
      expect(p.judgeModes.joint.total.requests).toBeLessThan(p.total.requests);
      expect(p.judgeModes.joint.total.inputTokens).toBeLessThan(p.total.inputTokens);
      const text = await cli([...args, '--dry-run']);
      expect(text.out).toMatch(/projected: \d+ model requests, \d+ input and \d+ output tokens/);
      expect(text.out).toMatch(
        /by judge mode \(--judge-mode\): per-dimension \(this run\): \d+ requests.*; joint: \d+ requests/,
      );
      expect(server.requests).toHaveLength(0);

      const real = await cli([...args, '--out', join(dir, 'out')]);
      expect(real.status, real.err).toBe(0);
      expect(real.out).toContain(`projected: ${p.total.requests} model requests`);
      // The start-up check (one tiny request per model, before anything is spent) is not part of the
      // projection, nor of any node; it is the only request of its kind.
      const checks = server.requests.filter((r) => promptText(r.body).includes('Reply with the single word OK.'));
      expect(checks).toHaveLength(1);
      const sent = server.requests.filter((r) => !checks.includes(r));
      const counted = {
        requests: sent.length,
        inputTokens: sent.reduce((n, r) => n + (r.usage?.prompt_tokens ?? 0), 0),
        tokens: sent.reduce((n, r) => n + (r.usage?.prompt_tokens ?? 0) + (r.usage?.completion_tokens ?? 0), 0),
      };
      const ratio = {
        requests: p.total.requests / counted.requests,
        inputTokens: p.total.inputTokens / counted.inputTokens,
        tokens: (p.total.inputTokens + p.total.outputTokens) / counted.tokens,
      };
      console.log(
        `projected ${JSON.stringify(p.total)}; counted ${JSON.stringify(counted)}; ratios ${JSON.stringify(ratio)}`,
      );
      for (const r of Object.values(ratio)) expect(r).toBeGreaterThan(0.75);
      // Tokens land within 25%. Requests may land lower: when an edit leaves a record's answer as it
      // was (here the scripted model ignores the hints an edit adds), the judge reuses its four scores,
      // which the projection does not foresee; it errs on the side of spending less than it said.
      expect(ratio.inputTokens).toBeLessThan(1.25);
      expect(ratio.tokens).toBeLessThan(1.25);
      expect(ratio.requests).toBeLessThan(1.5);

      // `runs show` says which node sent what: the per-node requests add up to every request sent.
      const runId = /search (run-\S+):/.exec(real.out)![1]!;
      const shown = await cli(['runs', 'show', runId, '--db', join(dir, 'store.db')]);
      expect(shown.status, shown.err).toBe(0);
      expect(shown.out).toContain('model use per node');
      const rows = [...shown.out.matchAll(/^ {2}(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/gm)].map((m) => ({
        node: m[1]!,
        requests: Number(m[2]),
      }));
      expect(rows.map((r) => r.node)).toEqual(expect.arrayContaining(['synthesize', '(judge)']));
      expect(rows.reduce((n, r) => n + r.requests, 0)).toBe(counted.requests);
      // ... and what the judge memo saved: the scripted model answers a record the same way in every
      // candidate, so most of the candidates' answers were judged before.
      const reuse = /(\d+) judge scores reused \((\d+) judge requests, (\d+) tokens not sent\)/.exec(shown.out);
      expect(reuse, shown.out).not.toBeNull();
      expect(Number(reuse![1])).toBeGreaterThan(0);
      expect(Number(reuse![2])).toBe(4 * Number(reuse![1]));
      expect(shown.out).toMatch(/work: \d+ workflow executions/);
    } finally {
      await server.close();
    }
  });

  it('--from projects what a given workflow sends: a step whose one tool has every parameter bound asks no model', async () => {
    // The first test imported the Weather domain into `dir`.
    const tools = JSON.parse(readFileSync(join(dir, 'weather', 'tools.json'), 'utf8')) as Array<{
      name: string;
      inputSchema: { properties?: Record<string, unknown> };
    }>;
    const countries = tools.find((t) => Object.keys(t.inputSchema.properties ?? {}).length === 0)!.name;
    const step = (extra: Record<string, unknown>) => ({
      id: 'look',
      kind: 'tool',
      task: 'List the countries',
      ...extra,
    });
    const workflow = (tool: Record<string, unknown>) => ({
      version: 1,
      name: 'countries',
      nodes: [
        { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
        step(tool),
        {
          id: 'answer',
          kind: 'llm',
          role: 'synthesize',
          prompt: 'Answer {{query}} from {{inputs}}',
          output: { type: 'text' },
        },
      ],
      edges: [
        { from: 'plan', to: 'look', kind: 'data' },
        { from: 'look', to: 'answer', kind: 'data' },
      ],
    });
    writeFileSync(join(dir, 'open.workflow.json'), JSON.stringify(workflow({})));
    writeFileSync(join(dir, 'bound.workflow.json'), JSON.stringify(workflow({ tools: [countries] })));
    const perQuery = async (file: string) => {
      const r = await cli([
        'search',
        '--records',
        join(dir, 'records.jsonl'),
        '--tools',
        join(dir, 'weather', 'tools.config.json'),
        '--model',
        'openai:gpt-4o-mini',
        '--db',
        join(dir, 'from.db'),
        '--from',
        file,
        '--dry-run',
        '--json',
      ]);
      expect(r.status, r.err).toBe(0);
      return (JSON.parse(r.out) as { projection: { perQuery: { requests: number } } }).projection.perQuery.requests;
    };
    const open = await perQuery(join(dir, 'open.workflow.json'));
    const bound = await perQuery(join(dir, 'bound.workflow.json'));
    expect(open).toBe(3);
    expect(bound).toBe(2);
  });
});
