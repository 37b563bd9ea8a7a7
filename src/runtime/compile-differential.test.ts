import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateWorkflow } from '../graph/validate.js';
import { createToolRegistry } from '../tools/registry.js';
import { createRandom } from '../util/random.js';
import {
  generateWorkflow,
  HOSTILE,
  pick,
  scriptedPolicy as policy,
  scriptedTools as tools,
} from '../../test/support/generated-workflows.js';
import { compileWorkflow } from './compile.js';
import { executeWorkflow } from './execute.js';
import type { RunContext } from './run-state.js';
import type { Trace } from './trace.js';

function stripTimings(t: Trace): unknown {
  return JSON.parse(JSON.stringify(t, (k, v: unknown) => (k === 'durationMs' || k === 'startedAtMs' ? undefined : v)));
}

const runtimeImport = pathToFileURL(fileURLToPath(new URL('./compiled-support.ts', import.meta.url))).href;

describe('compiled modules against the interpreter', () => {
  it('produce identical traces over 60 generated workflows with hostile strings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowscout-compiled-'));
    const r = createRandom('differential-v1');
    const seen = { skipped: 0, errors: 0, retries: 0, many: 0, calls: 0 };
    for (let n = 0; n < 60; n++) {
      const workflow = generateWorkflow(r, n);
      expect(validateWorkflow(workflow)).toEqual([]);
      const file = join(dir, `workflow-${n}.ts`);
      writeFileSync(file, compileWorkflow(workflow, { runtimeImport }));
      const mod = (await import(pathToFileURL(file).href)) as { run: (q: string, c: RunContext) => Promise<Trace> };
      for (const query of [`query ${n}`, pick(r, HOSTILE)]) {
        const registry = createToolRegistry(tools);
        const opts = { policy, tools: registry, concurrency: 1 + r.int(4) };
        const interpreted = await executeWorkflow(workflow, { query, recordId: `r${n}` }, opts);
        const compiled = await mod.run(query, { ...opts, recordId: `r${n}` });
        expect(interpreted.workflowHash).toMatch(/^[0-9a-f]{64}$/);
        expect(stripTimings(compiled)).toEqual(stripTimings(interpreted));
        seen.skipped += interpreted.totals.skipped;
        seen.errors += interpreted.observations.filter((o) => o.status === 'error').length;
        seen.retries += interpreted.observations.filter((o) => o.attempts > 1).length;
        seen.many += interpreted.observations.filter(
          (o) => (o.calls?.filter((c) => c.attempt === o.attempts).length ?? 0) > 1,
        ).length;
        seen.calls += interpreted.calls.length;
      }
    }
    // The generator must exercise the rules, or the comparison proves little.
    expect(seen.skipped).toBeGreaterThan(20);
    expect(seen.errors).toBeGreaterThan(10);
    expect(seen.retries).toBeGreaterThan(5);
    expect(seen.many).toBeGreaterThan(5);
    expect(seen.calls).toBeGreaterThan(100);
  });
});
