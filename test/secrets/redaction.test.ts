import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../src/contracts/tools.js';
import type { Workflow } from '../../src/graph/schema.js';
import { createOfflinePolicy } from '../../src/policies/offline/offline-policy.js';
import { startHttpServer, type RunningHttpServer } from '../../src/serve/http-server.js';
import { createWorkflowService } from '../../src/serve/workflow-service.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { writeTextFile } from '../../src/util/json-file.js';
import { runCli } from '../../src/cli/program.js';
import { REDACTED, redactText, scrubSecrets } from '../../src/util/redact.js';
import { spawnCli } from '../support/child-cli.js';
import { planToolAnswer } from '../support/workflows.js';

/**
 * One redaction pass over what FlowScout writes or sends. Before, a key a model (or a tool) echoed
 * reached HTTP answers, files and stdout; credentials in a model's base URL were printed; a
 * base64-encoded key in a provider's 401 body was kept.
 */

const KEY = 'k3y-Value-0123456789-abcdefXYZ';
const b64 = Buffer.from(KEY).toString('base64');
let saved: string | undefined;
beforeEach(() => {
  saved = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = KEY;
});
afterEach(() => {
  if (saved === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved;
});

describe('the redaction pass', () => {
  it('removes the key, its base64 and percent-encoded forms, and credentials in URLs', () => {
    const text = `401: {"error": "bad key ${b64}"} key=${encodeURIComponent(KEY)} raw ${KEY} url https://alice:s3cr3t@models.example/v1 and redis://:***@host`;
    const out = redactText(text);
    for (const leak of [KEY, b64, 'alice:s3cr3t', 's3cr3t']) expect(out).not.toContain(leak);
    expect(out).toContain('https://[redacted]@models.example/v1');
    // An already masked password stays as it was written.
    expect(out).toContain('redis://:***@host');
    expect(scrubSecrets(`x ${Buffer.from(KEY).toString('base64url')} y`, [KEY])).not.toContain(
      Buffer.from(KEY).toString('base64url'),
    );
  });

  it('a serve token given as --token is redacted like FLOWSCOUT_SERVE_TOKEN', async () => {
    const token = 'cli-token-7f3a9c21e4';
    const err: string[] = [];
    const io = { out: () => {}, err: (t: string) => void err.push(t), isTTY: false };
    const wf = join(import.meta.dirname, '../fixtures/workflows/valid/linear.json');
    // The command stops at its --allow check, after it has taken the token.
    const code = await runCli(
      [
        'serve',
        wf,
        '--tools',
        join(import.meta.dirname, '../fixtures/workflows/tools.json'),
        '--http',
        '--token',
        token,
        '--allow',
        'everything',
      ],
      io,
    );
    expect(code).toBe(2);
    expect(err.join('')).toContain('--allow takes "destructive"');
    const out = redactText(`token ${token}, base64 ${Buffer.from(token).toString('base64')}`);
    expect(out).not.toContain(token);
    expect(out).not.toContain(Buffer.from(token).toString('base64'));
    expect(out).toBe('token [redacted], base64 [redacted]');
  });

  it('files FlowScout writes (traces, search.json, records) never hold the key', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fs-redact-')), 'trace.json');
    writeTextFile(file, JSON.stringify({ answer: `the model said ${KEY}`, encoded: b64 }));
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(b64);
  });

  describe('HTTP answers', () => {
    let server: RunningHttpServer | undefined;
    afterEach(async () => {
      await server?.close(0);
      server = undefined;
    });
    it('an answer echoing the key comes back without it', async () => {
      const echo: ToolSpec = {
        name: 'get_weather',
        description: 'Current weather of a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        execute: async (args) => ({ city: args.city, note: `authorised with ${KEY}` }),
      };
      const wf: Workflow = planToolAnswer({
        name: 'Echo',
        tool: { id: 'lookup', task: 'Look up the weather of the city in the request', tools: ['get_weather'] },
        answer: { prompt: 'Answer {{query}} from:\n{{inputs}}' },
      });
      const { execute: _e, ...d } = echo;
      const service = createWorkflowService({
        workflow: wf,
        policy: createOfflinePolicy({ tools: [d] }),
        tools: createToolRegistry([echo]),
      });
      server = await startHttpServer({ service });
      const body = JSON.stringify({ query: 'What is the weather in Oslo?' });
      const text = await new Promise<string>((resolve, reject) => {
        const req = request(
          `${server!.url}/run`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(text).toContain('Oslo');
      expect(text).toContain('[redacted]');
      expect(text).not.toContain(KEY);
    });
  });

  it("a tool echoing the user's key in transformed forms: none of them reaches stdout or the trace file; another service's demo key does", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-redact-forms-'));
    // The key as a tool might echo it: with \u escapes (a JSON file holds them escaped once more),
    // percent-encoded in every character that may be (its '-' as %2D) and with lower-case hex; an
    // unknown key-shaped string with \u escapes; and a public demo key of another service.
    writeFileSync(
      join(dir, 'tools.mjs'),
      `const key = process.env.OPENAI_API_KEY ?? '';
const escaped = [...key].map((c) => '\\\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).join('');
const pct = (hex) => [...key].map((c) => /[A-Za-z0-9]/.test(c) ? c : '%' + hex(c.charCodeAt(0).toString(16))).join('');
export const get_weather = { name: 'get_weather', description: 'Current weather of a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async (args) => ({ city: args.city, echoed: escaped, url: 'https://weather.example/v1?key=' + pct((h) => h.toUpperCase()), lower: pct((h) => h),
    unknown: '\\\\u0073\\\\u006b-live-9fK2mQ7xR4tY8wP1nB6vC3', docs: 'try it with api_key=public-demo-key-123' }) };\n`,
    );
    writeFileSync(
      join(dir, 'tools.config.json'),
      JSON.stringify({ version: 1, sources: [{ type: 'functions', module: './tools.mjs' }] }),
    );
    const wf = planToolAnswer({
      name: 'Echo',
      tool: { id: 'lookup', task: 'Look up the weather of the city in the request', tools: ['get_weather'] },
      answer: { prompt: 'Answer {{query}} from:\n{{inputs}}' },
    });
    writeFileSync(join(dir, 'wf.json'), JSON.stringify(wf));
    const trace = join(dir, 'trace.json');
    const child = spawnCli(
      [
        'run',
        join(dir, 'wf.json'),
        '--tools',
        join(dir, 'tools.config.json'),
        '--query',
        'What is the weather in Oslo?',
        '--model',
        'offline',
        '--trace',
        trace,
        '--json',
      ],
      { OPENAI_API_KEY: KEY },
    );
    expect(await child.exited, child.output()).toBe(0);
    const file = readFileSync(trace, 'utf8');
    const call = (JSON.parse(file) as { calls: Array<{ output: Record<string, string> }> }).calls[0]!;
    const printed = child.output();
    for (const text of [printed, file]) {
      expect(text).toContain('Oslo');
      expect(text).not.toContain('u006b');
      expect(text).not.toMatch(/%2d/i);
      expect(text).not.toContain(KEY.slice(-12));
      expect(text).toContain('api_key=public-demo-key-123');
    }
    expect(call.output).toEqual({
      city: 'Oslo',
      echoed: REDACTED,
      url: `https://weather.example/v1?${REDACTED}`,
      lower: REDACTED,
      unknown: REDACTED,
      docs: 'try it with api_key=public-demo-key-123',
    });
  }, 120_000);

  it('stdout and stderr of the CLI carry no credentials of a model URL (refused up front, shown masked)', async () => {
    const FIX = join(import.meta.dirname, '../fixtures/records/eval');
    const child = spawnCli(
      [
        'search',
        '--records',
        join(FIX, 'records.jsonl'),
        '--tools',
        join(FIX, 'tools.config.json'),
        '--model',
        'openai-compatible:http://alice:s3cr3t-pass@127.0.0.1:9/v1#m',
        '--judge-model',
        'offline',
        '--split-by',
        'record',
        '--dry-run',
      ],
      { OPENAI_COMPATIBLE_API_KEY: KEY },
    );
    await child.exited;
    expect(child.output()).toContain('http://<credentials>@127.0.0.1:9/v1');
    expect(child.output()).not.toContain('s3cr3t-pass');
    expect(child.output()).not.toContain(KEY);
  }, 120_000);
});
