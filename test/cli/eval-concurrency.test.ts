import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestLlmServer, type ScriptedReply } from '../support/llm-server.js';
import { cli } from '../support/cli-io.js';

const EVAL = join(import.meta.dirname, '../fixtures/records/eval');
const dir = mkdtempSync(join(tmpdir(), 'flowscout-eval-concurrency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 12 records: the fixture's 3, four times over under new ids (the replay tools answer them all). */
function writeRecords(): string {
  const lines = readFileSync(join(EVAL, 'records.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  const out: string[] = [];
  for (let k = 0; k < 4; k++)
    for (const l of lines) out.push(JSON.stringify({ ...JSON.parse(l), id: `${JSON.parse(l).id}-${k}` }));
  writeFileSync(join(dir, 'records.jsonl'), `${out.join('\n')}\n`);
  copyFileSync(join(EVAL, 'tools.json'), join(dir, 'tools.json'));
  writeFileSync(
    join(dir, 'tools.config.json'),
    JSON.stringify({ version: 1, sources: [{ type: 'replay', records: 'records.jsonl', tools: 'tools.json' }] }),
  );
  return join(dir, 'records.jsonl');
}

/**
 * A model that holds every request until `target` requests are in flight at once (or a generous
 * wait passed), and records the most it ever saw in flight. What is counted is requests, not time.
 */
async function countingServer(target: number) {
  let inFlight = 0;
  let max = 0;
  let waiting: Array<() => void> = [];
  const server = await startTestLlmServer({
    script: async (req): Promise<ScriptedReply> => {
      inFlight++;
      max = Math.max(max, inFlight);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (inFlight >= target) {
          for (const w of waiting) w();
          waiting = [];
        } else setTimeout(resolve, 2000);
      });
      inFlight--;
      if (req.body.response_format) return { json: { calls: [] } };
      return { text: 'an answer' };
    },
  });
  return { server, max: () => max };
}

describe('flowscout eval --concurrency bounds the model requests in flight', () => {
  const records = writeRecords();
  const args = (spec: string, n: number) => [
    'eval',
    join(EVAL, 'workflow.json'),
    '--records',
    records,
    '--tools',
    join(dir, 'tools.config.json'),
    '--model',
    spec,
    '--concurrency',
    String(n),
    '--json',
  ];

  it.each([8, 2])('with --concurrency %i, that many requests are in flight at once and never more', async (n) => {
    const { server, max } = await countingServer(n);
    try {
      const res = await cli(args(server.spec('m'), n));
      expect(res.err).toBe('');
      expect(res.status).toBe(0);
      expect(max()).toBe(n);
    } finally {
      await server.close();
    }
  });
});
