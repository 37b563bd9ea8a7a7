import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../src/graph/schema.js';
import { cli } from '../support/cli-io.js';

/**
 * A search on a bundled domain learns into its best workflow and the file stays small: on the
 * Travel records (116 tools), a real offline search's best workflow carries at least 10 learned
 * bindings or tool hints on its tool nodes and is under 150 KB of JSON. The same on three seeds with
 * ten iterations: `npx tsx benchmarks/learned-workflow-size.ts`.
 */
describe('the best workflow of a search on Travel', () => {
  it('carries at least 10 learned bindings or hints on its tool nodes in under 150 KB', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowscout-learned-size-'));
    const data = join(dir, 'data');
    expect((await cli(['import', 'traject', '--domain', 'Travel', '--out', data])).status).toBe(0);
    const out = join(dir, 'out');
    const r = await cli([
      'search',
      '--records',
      join(data, 'records.jsonl'),
      '--tools',
      join(data, 'tools.config.json'),
      '--seed',
      '0',
      '--iterations',
      '3',
      '--patience',
      '3',
      '--concurrency',
      '2',
      '--out',
      out,
      '--db',
      join(dir, 's.db'),
    ]);
    expect(r.status, r.err).toBe(0);
    const file = join(out, 'best.workflow.json');
    const best = JSON.parse(readFileSync(file, 'utf8')) as Workflow;
    const tools = best.nodes.flatMap((n) => (n.kind === 'tool' ? [n] : []));
    const learned = tools.reduce((k, n) => k + (n.bind?.length ?? 0) + (n.hints?.length ?? 0), 0);
    expect(learned).toBeGreaterThanOrEqual(10);
    // The hints say something about parameters, not only which tools a step uses.
    expect(tools.some((n) => n.hints?.some((h) => Object.keys(h.params ?? {}).length > 0))).toBe(true);
    expect(statSync(file).size).toBeLessThan(150_000);
  }, 120_000);
});
