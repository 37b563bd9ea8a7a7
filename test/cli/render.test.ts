import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateWorkflow, workflowHash, type Workflow } from '../../src/graph/index.js';
import { cli } from '../support/cli-io.js';

const FIX = join(import.meta.dirname, '../fixtures/workflows');

describe('flowscout render', () => {
  it('prints a Mermaid flowchart by default', async () => {
    const res = await cli(['render', join(FIX, 'valid/parallel.json')]);
    expect(res.status).toBe(0);
    expect(res.err).toBe('');
    expect(res.out).toMatchInlineSnapshot(`
      "flowchart TD
        %% stock-parallel
        n0("plan<br/>llm: plan<br/>Plan the lookups for: {{query}}")
        n1[["quote<br/>tool: any<br/>Get the latest stock quote for the ticker in the request"]]
        n2[["news<br/>tool: any<br/>Get recent news about the company"]]
        n3("answer<br/>llm: synthesize<br/>Answer {{query}} from: {{inputs}}")
        n0 --> n1
        n0 --> n2
        n1 --> n3
        n2 --> n3
        classDef llm fill:#eef3ff,stroke:#3b5bdb
        classDef tool fill:#fff4e6,stroke:#e8590c
        class n0,n3 llm
        class n1,n2 tool
      "
    `);
  });

  it('--format json prints the canonical pretty JSON: sorted, still valid, same hash', async () => {
    const file = join(FIX, 'valid/conditional-branch.json');
    const res = await cli(['render', file, '--format', 'json']);
    expect(res.status).toBe(0);
    const doc = JSON.parse(res.out) as Workflow;
    expect(doc.nodes.map((n) => n.id)).toEqual(['answer', 'current', 'forecast', 'needs_forecast', 'plan']);
    expect(doc.edges.map((e) => `${e.from}>${e.to}`)).toEqual([
      'current>answer',
      'current>needs_forecast',
      'forecast>answer',
      'needs_forecast>answer',
      'needs_forecast>forecast',
      'plan>current',
    ]);
    expect(doc.name).toBe('weather-with-optional-forecast');
    expect(validateWorkflow(doc)).toEqual([]);
    expect(workflowHash(doc)).toBe(workflowHash(JSON.parse(readFileSync(file, 'utf8'))));
    expect(res.out).toMatch(/^\{\n {2}"version": 1,\n {2}"name": /);
  });

  it('-o writes a file and refuses to overwrite it without --force', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'fs-render-')), 'flow.mmd');
    const first = await cli(['render', join(FIX, 'valid/linear.json'), '-o', out]);
    expect([first.status, first.out]).toEqual([0, `wrote ${out} (mermaid)\n`]);
    expect(readFileSync(out, 'utf8')).toMatch(/^flowchart TD\n/);
    const again = await cli(['render', join(FIX, 'valid/retry.json'), '-o', out]);
    expect(again.status).toBe(2);
    expect(again.err).toContain('FILE_EXISTS');
    expect(readFileSync(out, 'utf8')).toContain('weather-linear');
    const forced = await cli(['render', join(FIX, 'valid/retry.json'), '-o', out, '--force']);
    expect(forced.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('flight-search-with-retry');
  });

  it('draws a workflow that breaks graph rules, with a warning', async () => {
    const file = join(FIX, 'invalid/cycle.json');
    const res = await cli(['render', file]);
    expect(res.status).toBe(0);
    expect(res.err).toBe(
      `warning: ${file} is not a valid workflow (1 problem); rendering it anyway. Run \`flowscout validate ${file}\` for details.\n`,
    );
    expect(res.out).toContain('n2 -.-> n1');
  });

  it('refuses a document that does not match the schema, and an unknown format', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-render-'));
    writeFileSync(
      join(dir, 'w.json'),
      JSON.stringify({ version: 1, name: 'x', nodes: [{ id: 'a', kind: 'agent' }], edges: [] }),
    );
    const bad = await cli(['render', join(dir, 'w.json')]);
    expect(bad.status).toBe(2);
    expect(bad.err).toContain('error [INVALID_WORKFLOW]');
    expect(bad.err).toContain('$.nodes[0].kind: "kind" "agent" is not valid; use "llm" or "tool"');
    const fmt = await cli(['render', join(FIX, 'valid/linear.json'), '--format', 'svg']);
    expect(fmt.status).toBe(2);
    expect(fmt.err).toContain("unknown format 'svg'");
  });
});
