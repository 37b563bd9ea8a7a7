import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../graph/schema.js';
import { planToolAnswer } from '../../../test/support/workflows.js';
import { isDiskFull } from '../../errors/index.js';
import { createWorkflowService } from '../../serve/workflow-service.js';
import { openStore } from '../../store/open-store.js';
import { createScriptedPolicy } from '../../testing/scripted-policy.js';
import { createToolRegistry } from '../../tools/registry.js';
import { servedRunRecorder } from './serve-store.js';

/** `serve --db` on a full disk: one line that says so and what to do, answers still go out, recording resumes. */

/** SQLite's own error of a full database: a database capped at its current size, written to. */
function sqliteFullError(): unknown {
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE t (x BLOB)');
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    db.prepare('INSERT INTO t VALUES (?)').run(Buffer.alloc(1_000_000));
  } catch (e) {
    return e;
  } finally {
    db.close();
  }
  throw new Error('the capped database took the write');
}

const workflow: Workflow = planToolAnswer({
  name: 'lookup',
  plan: { prompt: 'plan {{query}}' },
  tool: { id: 'look', task: 'look it up', tools: ['lookup'] },
  answer: { prompt: 'answer {{query}} from {{inputs}}' },
});

describe('serve --db on a full disk', () => {
  it('says once that the disk is full and what to do, answers every request, and records again once there is space', async () => {
    const full = sqliteFullError();
    expect((full as { code?: string }).code).toBe('SQLITE_FULL');
    expect(isDiskFull(full)).toBe(true);
    expect(isDiskFull(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toBe(
      true,
    );
    expect(isDiskFull(new Error('SQLITE_BUSY'))).toBe(false);

    const store = openStore(join(mkdtempSync(join(tmpdir(), 'flowscout-serve-full-')), 'served.db'));
    let diskFull = true;
    const lines: string[] = [];
    const errors: string[] = [];
    const onRun = servedRunRecorder(
      {
        file: store.file,
        recordServedRun: (run) => {
          if (diskFull) throw full;
          return store.recordServedRun(run);
        },
      },
      { name: workflow.name, hash: 'h' },
      (line) => lines.push(line),
    );
    const service = createWorkflowService({
      workflow,
      policy: createScriptedPolicy({ llm: () => 'the answer', tool: () => [{ tool: 'lookup', args: {} }] }),
      tools: createToolRegistry([
        {
          name: 'lookup',
          description: 'Looks it up.',
          inputSchema: { type: 'object', properties: {} },
          effect: { effect: 'read', from: 'test' },
          execute: async () => ({ found: true }),
        },
      ]),
      onRun,
      onError: (m) => errors.push(m),
    });
    for (let i = 0; i < 3; i++) {
      const trace = await service.run({ query: `question ${i}`, transport: 'http' });
      expect(trace.answer).toBe('the answer');
    }
    expect(errors).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the disk holding the store ${store.file} is full`);
    expect(lines[0]).toContain('requests are still answered');
    expect(lines[0]).not.toContain('--resume');

    diskFull = false;
    await service.run({ query: 'question 3', transport: 'http' });
    await service.run({ query: 'question 4', transport: 'http' });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      `recording served runs in ${store.file} again; 3 runs were answered but not recorded while the disk was full`,
    );
    expect(store.listServedRuns().map((r) => r.query)).toEqual(['question 4', 'question 3']);
    store.close();
  });

  it('reports any other failure to write a run with each request, as before', async () => {
    const lines: string[] = [];
    const onRun = servedRunRecorder(
      {
        file: 'served.db',
        recordServedRun: () => {
          throw new Error('the store was closed');
        },
      },
      { name: 'w', hash: 'h' },
      (line) => lines.push(line),
    );
    expect(() =>
      onRun({ transport: 'http', status: 'ok', trace: { calls: [], observations: [], totals: {} } as never }),
    ).toThrow('the store was closed');
    expect(lines).toEqual([]);
  });
});
