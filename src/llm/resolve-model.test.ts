import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, Output } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isFlowScoutError } from '../errors/index.js';
import { createLlamaCppLanguageModel, loadLlamaCppModel, type NodeLlamaCppModule } from './llama-cpp-model.js';
import { defaultModelSpec, parseModelSpec } from './model-spec.js';
import { ollamaBaseURL, resolveModel } from './resolve-model.js';
import { rejection as errorOf } from '../../test/support/rejection.js';

describe('model strings', () => {
  it('parses every form and normalises the spec shown in output', () => {
    expect(parseModelSpec(' openai:gpt-4o-mini ')).toEqual({
      provider: 'openai',
      spec: 'openai:gpt-4o-mini',
      modelId: 'gpt-4o-mini',
    });
    expect(parseModelSpec('anthropic:claude-3-5-haiku-latest')).toMatchObject({
      provider: 'anthropic',
      modelId: 'claude-3-5-haiku-latest',
    });
    expect(parseModelSpec('ollama:llama3.1:8b')).toMatchObject({ provider: 'ollama', modelId: 'llama3.1:8b' });
    expect(parseModelSpec('openai-compatible:http://127.0.0.1:8000/v1/#qwen')).toEqual({
      provider: 'openai-compatible',
      spec: 'openai-compatible:http://127.0.0.1:8000/v1#qwen',
      baseURL: 'http://127.0.0.1:8000/v1',
      modelId: 'qwen',
    });
    expect(parseModelSpec('llama-cpp:./models/Qwen2.5-1.5B.Q4.gguf')).toMatchObject({
      provider: 'llama-cpp',
      modelPath: './models/Qwen2.5-1.5B.Q4.gguf',
      modelId: 'Qwen2.5-1.5B.Q4',
    });
    expect(parseModelSpec('offline')).toEqual({ provider: 'offline', spec: 'offline' });
  });

  it('rejects malformed strings with MODEL_CONFIG listing the valid forms', () => {
    for (const bad of [
      'gpt-4o',
      'openai:',
      'foo:bar',
      'openai-compatible:http://x/v1',
      'openai-compatible:ftp://x#m',
      'llama-cpp:model.bin',
    ]) {
      let err: unknown;
      try {
        parseModelSpec(bad);
      } catch (e) {
        err = e;
      }
      expect(isFlowScoutError(err) && err.code).toBe('MODEL_CONFIG');
      expect(isFlowScoutError(err) && err.describe()).toContain('openai-compatible:<base URL>#<model>');
    }
  });

  it('defaults to offline unless FLOWSCOUT_MODEL is set', () => {
    expect(defaultModelSpec({})).toBe('offline');
    expect(defaultModelSpec({ FLOWSCOUT_MODEL: ' openai:gpt-4o-mini ' })).toBe('openai:gpt-4o-mini');
  });
});

describe('resolveModel', () => {
  it('names the missing key variable', async () => {
    const e = await errorOf(resolveModel('openai:gpt-4o-mini', { env: {} }));
    expect(e.code).toBe('MODEL_CONFIG');
    expect(e.message).toContain('OPENAI_API_KEY is not set');
    const a = await errorOf(resolveModel('anthropic:claude-3-5-haiku-latest', { env: {} }));
    expect(a.message).toContain('ANTHROPIC_API_KEY');
  });

  it('builds chat-completions OpenAI, Anthropic, Ollama and OpenAI-compatible models', async () => {
    const o = await resolveModel('openai:gpt-4o-mini', { env: { OPENAI_API_KEY: 'sk-test-1234567890' } });
    expect(o.model && typeof o.model !== 'string' && o.model.provider).toBe('openai.chat');
    expect(o.supportsLogprobs).toBe(true);
    const a = await resolveModel('anthropic:claude-3-5-haiku-latest', {
      env: { ANTHROPIC_API_KEY: 'sk-ant-1234567890' },
    });
    expect(a.provider).toBe('anthropic');
    const l = await resolveModel('ollama:llama3.1', { env: {} });
    expect(l.modelId).toBe('llama3.1');
    const c = await resolveModel('openai-compatible:http://127.0.0.1:9/v1#m', { env: {} });
    expect(c.model && typeof c.model !== 'string' && c.model.provider).toBe('openaiCompatible.chat');
    expect((await resolveModel('offline', { env: {} })).model).toBeUndefined();
    expect(ollamaBaseURL(undefined)).toBe('http://127.0.0.1:11434/api');
    expect(ollamaBaseURL('http://gpu-box:11434/')).toBe('http://gpu-box:11434/api');
  });

  it('scrubs the configured key from text', async () => {
    const o = await resolveModel('openai:gpt-4o-mini', { env: { OPENAI_API_KEY: 'my-very-secret-key-123' } });
    expect(o.scrub('bad key my-very-secret-key-123 given')).toBe('bad key [redacted] given');
    expect(JSON.stringify(o)).not.toContain('my-very-secret-key-123');
  });
});

describe('llama-cpp models', () => {
  it('without node-llama-cpp installed, naming a .gguf model says how to install it', async () => {
    const e = await errorOf(resolveModel('llama-cpp:/tmp/does-not-matter.gguf', { env: {} }));
    expect(e.code).toBe('MODEL_CONFIG');
    expect(e.message).toContain('node-llama-cpp');
    expect(e.describe()).toContain('npm i -E node-llama-cpp@3.21.1');
  });

  it('with the package present, constrains JSON output by its JSON-schema grammar', async () => {
    const prompts: Array<{ text: string; opts: Record<string, unknown> }> = [];
    const grammars: unknown[] = [];
    const fake: NodeLlamaCppModule = {
      async getLlama() {
        return {
          async loadModel() {
            return {
              async createContext() {
                return { getSequence: () => ({}), dispose() {} };
              },
              tokenize: (t: string) => t.split(/\s+/).filter(Boolean),
            };
          },
          async createGrammarForJsonSchema(schema: unknown) {
            grammars.push(schema);
            return { kind: 'grammar' };
          },
        };
      },
      LlamaChatSession: class {
        constructor(readonly opts: { systemPrompt?: string }) {}
        async prompt(text: string, opts: Record<string, unknown>) {
          prompts.push({ text, opts });
          return '{"city": "Paris"}';
        }
      } as unknown as NodeLlamaCppModule['LlamaChatSession'],
    };
    const dir = mkdtempSync(join(tmpdir(), 'fs-gguf-'));
    const file = join(dir, 'tiny.gguf');
    writeFileSync(file, 'not really a model');
    const model = await loadLlamaCppModel(file, 'tiny', { importModule: async () => fake });
    const r = await generateText({
      model,
      system: 'be terse',
      prompt: 'Where?',
      output: Output.object({ schema: z.object({ city: z.string() }) }),
    });
    expect(r.output).toEqual({ city: 'Paris' });
    expect(grammars[0]).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } });
    expect(prompts[0]!.opts.grammar).toEqual({ kind: 'grammar' });
    expect(r.usage.outputTokens).toBe(2);
    const missing = await errorOf(
      loadLlamaCppModel(join(dir, 'nope.gguf'), 'nope', { importModule: async () => fake }),
    );
    expect(missing.code).toBe('FILE_NOT_FOUND');
    expect(createLlamaCppLanguageModel(fake, file, 'tiny').provider).toBe('llama-cpp');
  });
});

describe('model server URLs with credentials', () => {
  it('are refused where the model options are read (the model string, the *_BASE_URL variables), naming what to do', async () => {
    const spec = (() => {
      try {
        parseModelSpec('openai-compatible:https://me:pa55word@models.example/v1#m');
      } catch (e) {
        return e;
      }
    })();
    expect(isFlowScoutError(spec) && spec.code).toBe('MODEL_CONFIG');
    expect(String((spec as Error).message)).toContain('(https://<credentials>@models.example/v1)');
    expect(String((spec as Error).message)).not.toContain('pa55word');
    for (const [model, env] of [
      ['openai:gpt-4o-mini', { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'https://me:pa55word@gw.example/v1' }],
      [
        'anthropic:claude-3-5-haiku-latest',
        { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: 'https://me@gw.example' },
      ],
      ['ollama:llama3.1', { OLLAMA_BASE_URL: 'http://me:pa55word@127.0.0.1:11434' }],
    ] as const) {
      const e = await errorOf(resolveModel(model, { env }));
      expect(isFlowScoutError(e) && e.code).toBe('MODEL_CONFIG');
      expect(e.message).toMatch(/^the model server URL in (OPENAI|ANTHROPIC|OLLAMA)_BASE_URL carries credentials/);
      expect(e.message).not.toContain('pa55word');
    }
    expect(parseModelSpec('openai-compatible:https://models.example/v1#m').provider).toBe('openai-compatible');
  });
});
