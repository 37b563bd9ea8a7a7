import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';
import { promptText, startTestLlmServer } from '../support/llm-server.js';
import { scriptedModel } from '../support/scripted-model.js';
import type { ToolDescriptor } from '../../src/contracts/tools.js';
import { applyEditPlan } from '../../src/graph/edits/apply-edit-plan.js';
import type { Edit } from '../../src/graph/edits/edit-schema.js';
import type { ToolNode, Workflow } from '../../src/graph/schema.js';
import { readRecordsFile } from '../../src/records/read-records.js';

const dir = mkdtempSync(join(tmpdir(), 'flowscout-dry-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `search --dry-run` tells a model user what a search will send before it sends anything, and a
 * budget set from it holds: the same search run against the test server (a scripted model that picks
 * the reference calls among the tools it is offered; the server counts 4 characters a token) sends
 * no more requests and tokens than projected, and not less than half. The projection counts the
 * requests the LLM policy and judge build (src/search/project-cost.test.ts shows on the mock model
 * that they are the very requests a run sends), answered as the offline policy would; it cannot
 * foresee what a model that decides better saves: the bindings and hints the search learns let
 * later candidates' steps skip the model, and answers that stay the same reuse the judge's scores.
 * `runs show` then lists the requests per node.
 */
describe('flowscout search --dry-run', () => {
  it('prints the projection without sending a request, and the real run sends no more than projected', async () => {
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
      // Both judge modes are projected: the joint judge (the default) sends one request a record, the
      // per-dimension judge four.
      expect(p.judgeModes.joint.total).toMatchObject({
        requests: p.total.requests,
        inputTokens: p.total.inputTokens,
      });
      expect(p.judgeModes['per-dimension'].total.requests).toBeGreaterThan(p.total.requests);
      expect(p.judgeModes['per-dimension'].total.inputTokens).toBeGreaterThan(p.total.inputTokens);
      const text = await cli([...args, '--dry-run']);
      expect(text.out).toMatch(/projected: \d+ model requests, \d+ input and \d+ output tokens/);
      expect(text.out).toMatch(
        /by judge mode \(--judge-mode\): per-dimension: \d+ requests.*; joint \(this run\): \d+ requests/,
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
      // The real run stays within the projection in what budgets count (requests and tokens, so a
      // `--budget-calls` or `--budget-tokens` set from it holds) and uses at least half of it: with
      // the scripted model the search binds parameters early, so later candidates' steps ask no
      // model, and most candidates' answers are judged before (see the file comment). Input tokens
      // alone follow what the model decides (the scripted model picks the reference calls, the
      // projection answers as the offline policy would, and each call's result is read back), so
      // they are held to within 5 % of the projection.
      expect(ratio.requests).toBeGreaterThanOrEqual(1);
      expect(ratio.tokens).toBeGreaterThanOrEqual(1);
      expect(ratio.inputTokens).toBeGreaterThanOrEqual(0.95);
      for (const r of Object.values(ratio)) expect(r).toBeLessThan(2);

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
      expect(Number(reuse![2])).toBe(Number(reuse![1]));
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

  it('projects fewer requests a query for the best workflow of a search that keeps bound parameters than for G0', async () => {
    // G0 as a search mines it from D_opt of 30 Weather records (`--strategy none` writes it as the
    // best workflow); its most asked step narrowed to one tool with every parameter bound to the value
    // the records pass most; then a real search from there, whose best workflow is projected.
    const domain = join(dir, 'bound');
    expect((await cli(['import', 'traject', '--domain', 'Weather', '--out', domain])).status).toBe(0);
    const records = join(domain, 'first-30.jsonl');
    const lines = readFileSync(join(domain, 'records.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim());
    writeFileSync(records, `${lines.slice(0, 30).join('\n')}\n`);
    const tools = join(domain, 'tools.config.json');
    const common = ['--records', records, '--tools', tools, '--seed', '0'];
    const searched = async (name: string, extra: string[]) => {
      const out = join(dir, name);
      const r = await cli(['search', ...common, '--db', join(dir, `${name}.db`), '--out', out, ...extra]);
      expect(r.status, r.err).toBe(0);
      return JSON.parse(readFileSync(join(out, 'best.workflow.json'), 'utf8')) as Workflow;
    };
    const projected = async (extra: string[]) => {
      const r = await cli([
        'search',
        ...common,
        '--model',
        'openai:gpt-4o-mini',
        '--db',
        join(dir, 'projection.db'),
        '--dry-run',
        '--json',
        ...extra,
      ]);
      expect(r.status, r.err).toBe(0);
      return (
        JSON.parse(r.out) as {
          projection: { perQuery: { requests: number }; perNode: Record<string, { requests: number }> };
        }
      ).projection;
    };
    const g0 = await searched('g0', ['--strategy', 'none']);
    const atG0 = await projected([]);
    const descriptors = JSON.parse(readFileSync(join(domain, 'tools.json'), 'utf8')) as ToolDescriptor[];
    const paramsOf = (tool: string) =>
      Object.keys(
        (descriptors.find((d) => d.name === tool)!.inputSchema as { properties?: Record<string, unknown> })
          .properties ?? {},
      );
    // The step G0 asks the model at most, narrowed to the first tool the miner saw there that takes parameters.
    const step = g0.nodes
      .filter((n): n is ToolNode => n.kind === 'tool' && (atG0.perNode[n.id]?.requests ?? 0) > 0)
      .sort((a, b) => atG0.perNode[b.id]!.requests - atG0.perNode[a.id]!.requests)
      .find((n) => [...(n.tools ?? []), ...(n.mined ?? [])].some((t) => paramsOf(t).length > 0))!;
    expect(step).toBeDefined();
    const tool = [...(step.tools ?? []), ...(step.mined ?? [])].find((t) => paramsOf(t).length > 0)!;
    const { records: recs } = await readRecordsFile(records);
    const usual = (param: string): string | number | boolean => {
      const seen = new Map<string, { value: string | number | boolean; n: number }>();
      for (const c of recs.flatMap((r) => r.calls).filter((c) => c.tool === tool)) {
        const v = c.args[param];
        if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') continue;
        const k = JSON.stringify(v);
        seen.set(k, { value: v, n: (seen.get(k)?.n ?? 0) + 1 });
      }
      return [...seen.values()].sort((a, b) => b.n - a.n)[0]?.value ?? 'x';
    };
    // Narrowed to the tool and made one call (so it is asked for a part of the request), then bound.
    const narrow = [
      { op: 'set_tool_hint' as const, id: step.id, tools: [tool] },
      { op: 'set_calls' as const, id: step.id, calls: 'one' as const },
    ];
    const bindings = paramsOf(tool).map((param) => ({
      op: 'set_binding' as const,
      id: step.id,
      tool,
      param,
      source: { from: 'const' as const, value: usual(param) },
    }));
    const write = (name: string, edits: Edit[]) => {
      const applied = applyEditPlan(g0, { edits }, { tools: descriptors });
      if (!applied.ok) throw new Error(applied.error.message);
      writeFileSync(join(dir, name), JSON.stringify(applied.workflow));
      return join(dir, name);
    };
    const narrowed = await projected(['--from', write('narrowed.workflow.json', narrow)]);
    const best = await searched('from-bound', [
      '--from',
      write('bound.workflow.json', [...narrow, ...bindings]),
      '--iterations',
      '2',
      '--patience',
      '2',
    ]);
    writeFileSync(join(dir, 'best.workflow.json'), JSON.stringify(best));
    // The best workflow still binds every parameter of the step (what the projection reads).
    const kept = best.nodes.find((n): n is ToolNode => n.id === step.id && n.kind === 'tool')!;
    expect(new Set((kept.bind ?? []).filter((b) => b.tool === tool).map((b) => b.param))).toEqual(
      new Set(paramsOf(tool)),
    );
    const atBest = await projected(['--from', join(dir, 'best.workflow.json')]);
    // Unbound, the narrowed step is still asked; bound, it asks no model, and every query that
    // reached it sends one plan request fewer than G0 and than the same workflow unbound.
    expect(narrowed.perNode[step.id]?.requests ?? 0).toBeGreaterThan(0);
    expect(atBest.perNode[step.id]?.requests ?? 0).toBe(0);
    expect(atBest.perQuery.requests).toBeLessThan(atG0.perQuery.requests);
    expect(atBest.perQuery.requests).toBeLessThan(narrowed.perQuery.requests);
  });
});
