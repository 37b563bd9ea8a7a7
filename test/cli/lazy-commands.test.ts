import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import type { CliIO } from '../../src/cli/output.js';
import { packagesLoadedBy } from '../support/loaded-packages.js';

const ROOT = join(import.meta.dirname, '..', '..');
const quiet: CliIO = { out: () => {}, err: () => {}, isTTY: false };

describe('the CLI loads only the command it runs', () => {
  it('lists every command in --help exactly as the command itself describes it', async () => {
    const eager = (await buildProgram(quiet)).helpInformation();
    const lazy = (await buildProgram(quiet, ['--help'])).helpInformation();
    expect(lazy).toBe(eager);
    const oneLoaded = (await buildProgram(quiet, ['search', '--help'])).helpInformation();
    expect(oneLoaded).toBe(eager);
  });

  it('prints --help without loading a model provider, the MCP SDK or SQLite', () => {
    const r = packagesLoadedBy(['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), '--help'], ROOT);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('search [options]');
    const { loaded } = r;
    // The CLI's commander entry (the hook sees ESM resolutions; commander itself is required from it).
    expect(loaded.has('@commander-js/extra-typings')).toBe(true);
    for (const pkg of [
      '@ai-sdk/openai',
      '@ai-sdk/anthropic',
      '@ai-sdk/openai-compatible',
      'ollama-ai-provider-v2',
      'ai',
      '@modelcontextprotocol/sdk',
      'better-sqlite3',
      'bullmq',
      'ioredis',
    ])
      expect(loaded.has(pkg), pkg).toBe(false);
  });
});
