import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateWorkflow, type Workflow } from '../../src/graph/index.js';
import { cli } from '../support/cli-io.js';

const FIX = join(import.meta.dirname, '../fixtures/mining');

describe('flowscout mine', () => {
  it('prints the PM4Py tree of records (IM by default)', async () => {
    const res = await cli(['mine', join(FIX, 'records.jsonl')]);
    expect(res).toEqual({
      status: 0,
      err: '',
      out: "->( *( 'geocode', tau ), X( 'current_weather', 'air_quality', ->( 'forecast', X( tau, 'sunrise' ) ) ) )\n",
    });
  });

  it('mines XES, CSV and JSONL event logs', async () => {
    expect((await cli(['mine', join(FIX, 'small.xes.gz')])).out).toBe(
      "->( 'search & find', X( tau, 'fetch' ), 'summarize' )\n",
    );
    expect((await cli(['mine', join(FIX, 'small.csv'), '--timestamp-column', 'Timestamp'])).out).toBe(
      "+( 'search, then read', 'summarize' )\n",
    );
    // case "a" answers before it searches (timestamps), so answer runs in parallel with the rest.
    expect((await cli(['mine', join(FIX, 'events.jsonl'), '--noise', '0.2'])).out).toBe(
      "+( ->( 'search', X( tau, 'fetch' ) ), 'answer' )\n",
    );
  });

  it('keeps the choice between a forecast-then-sunrise sequence and single lookups as a branch; --no-branches merges it', async () => {
    const res = await cli(['mine', join(FIX, 'records.jsonl'), '--format', 'workflow', '--no-routes']);
    expect(res.status).toBe(0);
    const w = JSON.parse(res.out) as Workflow;
    expect(validateWorkflow(w, JSON.parse(readFileSync(join(FIX, 'tools.json'), 'utf8')))).toEqual([]);
    const branch = w.nodes.find((n) => n.id === 'branch_1');
    expect(branch && branch.kind === 'llm' && branch.choices?.options.map((o) => o.tools)).toEqual([
      ['forecast', 'sunrise'],
      ['current_weather'],
      ['air_quality'],
    ]);
    // With --no-branches the same tree gives merged steps and no guarded edge.
    const merged = JSON.parse(
      (await cli(['mine', join(FIX, 'records.jsonl'), '--format', 'workflow', '--no-routes', '--no-branches'])).out,
    );
    expect((merged as Workflow).edges.some((e) => e.when)).toBe(false);
  });

  it('prints G0 as JSON using the tools.json beside the records, valid for those tools', async () => {
    const res = await cli(['mine', join(FIX, 'records.jsonl'), '--format', 'workflow', '--no-routes', '--no-branches']);
    expect(res.status).toBe(0);
    const w = JSON.parse(res.out) as Workflow;
    const tools = JSON.parse(readFileSync(join(FIX, 'tools.json'), 'utf8'));
    expect(validateWorkflow(w, tools)).toEqual([]);
    expect(w.name).toBe('Demo G0');
    expect(
      w.nodes
        .filter((n) => n.kind === 'tool')
        .map((n) => (n.kind === 'tool' ? [n.mined, n.retry ?? n.calls ?? 'one'] : [])),
    ).toEqual([
      [['geocode'], { attempts: 3, on: 'error' }],
      [['forecast', 'air_quality', 'current_weather'], 'one'],
      [['sunrise'], 'many'], // one run in four: optional, an open position that may make no call
    ]);
    expect(w.nodes.map((n) => n.id)).toEqual(['plan', 'step_1', 'step_2', 'step_3', 'synthesize']);
    expect(w.meta).toMatchObject({
      processTree:
        "->( *( 'geocode', tau ), X( 'current_weather', 'air_quality', ->( 'forecast', X( tau, 'sunrise' ) ) ) )",
      cases: 4,
    });
    // Routes are on by default, but a route is a family of variants with several runs: these four runs are
    // four variants of one run each, so no router is mined and G0 is the skeleton alone (nothing memorized).
    const routed = JSON.parse(
      (await cli(['mine', join(FIX, 'records.jsonl'), '--format', 'workflow', '--no-branches'])).out,
    ) as Workflow;
    expect(validateWorkflow(routed, tools)).toEqual([]);
    expect(routed.nodes.map((n) => n.id)).toEqual(['plan', 'step_1', 'step_2', 'step_3', 'synthesize']);
    expect((routed.meta?.routes as unknown[] | undefined) ?? []).toHaveLength(0);
  });

  it('json: the tree, the DFG and the variants; mermaid: the tree as a flowchart', async () => {
    const doc = JSON.parse((await cli(['mine', join(FIX, 'records.jsonl'), '--format', 'json'])).out);
    expect(doc).toMatchObject({ miner: 'IM', cases: 4, tree: expect.stringContaining("'geocode'") });
    expect(doc.dfg.start).toEqual([{ name: 'geocode', count: 4 }]);
    expect(doc.variants).toHaveLength(4);
    expect((await cli(['mine', join(FIX, 'records.jsonl'), '--format', 'mermaid'])).out).toMatch(/^flowchart TD\n/);
  });

  it('explains bad input: format, noise, missing tools, missing file; refuses to overwrite', async () => {
    expect(await cli(['mine', join(FIX, 'records.jsonl'), '--format', 'bpmn'])).toMatchObject({
      status: 2,
      err: expect.stringContaining("unknown format 'bpmn'"),
    });
    expect(await cli(['mine', join(FIX, 'records.jsonl'), '--noise', '1.5'])).toMatchObject({
      status: 2,
      err: expect.stringContaining('--noise must be a number between 0 and 1'),
    });
    const dir = mkdtempSync(join(tmpdir(), 'fs-mine-'));
    copyFileSync(join(FIX, 'records.jsonl'), join(dir, 'records.jsonl'));
    expect(await cli(['mine', join(dir, 'records.jsonl'), '--format', 'workflow'])).toMatchObject({
      status: 2,
      err: expect.stringContaining('--format workflow needs the tool descriptors'),
    });
    expect(await cli(['mine', join(dir, 'nope.xes')])).toMatchObject({
      status: 2,
      err: expect.stringContaining('nope.xes'),
    });
    const out = join(dir, 'tree.txt');
    expect((await cli(['mine', join(FIX, 'events.jsonl'), '-o', out])).status).toBe(0);
    expect(await cli(['mine', join(FIX, 'events.jsonl'), '-o', out])).toMatchObject({
      status: 2,
      err: expect.stringContaining('already exists'),
    });
  });
});

describe('a directory where a file is expected', () => {
  it('is named as a directory by mine (records, XES, CSV) and by validate, not as an unknown path', async () => {
    const base = mkdtempSync(join(tmpdir(), 'flowscout-dir-as-file-'));
    for (const name of ['runs.jsonl', 'log.xes', 'log.csv', 'flow.json']) mkdirSync(join(base, name));
    for (const args of [
      ['mine', join(base, 'runs.jsonl')],
      ['mine', join(base, 'log.xes')],
      ['mine', join(base, 'log.csv')],
      ['validate', join(base, 'flow.json')],
    ]) {
      const res = await cli(args);
      expect(res.status).toBe(2);
      expect(res.err).toContain(`${args[1]} is a directory; a file is expected here`);
      expect(res.err).not.toContain('unknown path');
    }
  });
});
