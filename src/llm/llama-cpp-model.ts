import type { LanguageModel } from 'ai';
import { FlowScoutError } from '../errors/index.js';
import { requireFile } from '../util/require-file.js';

/**
 * Local GGUF models through node-llama-cpp, wrapped as an AI SDK `LanguageModelV3` so the
 * client, the policies and the judge treat them like any provider. node-llama-cpp is an *optional*
 * peer dependency: it is imported with a dynamic `import()` only when a `llama-cpp:` model is named,
 * so FlowScout installs and runs without it. JSON output (`Output.object`) is constrained by
 * node-llama-cpp's JSON-schema grammar; a schema the grammar cannot express falls back to free text
 * (the AI SDK still validates the parsed object) with a warning.
 */

type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
type StreamResult = Awaited<ReturnType<LanguageModelV3['doStream']>>;

/** The exact version FlowScout is tested against. */
export const NODE_LLAMA_CPP_VERSION = '3.21.1';
export const NODE_LLAMA_CPP_INSTALL = `npm i -E node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`;

/** The part of node-llama-cpp's API this wrapper uses (the package is not a build-time dependency). */
export interface NodeLlamaCppModule {
  getLlama(): Promise<NlcLlama>;
  LlamaChatSession: new (opts: { contextSequence: unknown; systemPrompt?: string }) => NlcSession;
}
interface NlcLlama {
  loadModel(opts: { modelPath: string }): Promise<NlcModel>;
  createGrammarForJsonSchema(schema: unknown): Promise<unknown>;
}
interface NlcModel {
  createContext(opts?: Record<string, unknown>): Promise<{ getSequence(): unknown; dispose(): Promise<void> | void }>;
  tokenize(text: string): unknown[];
}
interface NlcSession {
  prompt(text: string, opts: Record<string, unknown>): Promise<string>;
  setChatHistory?(history: unknown[]): void;
  dispose?(): void;
}

export interface LoadLlamaCppOptions {
  /** For tests: how to import the module (default: a real dynamic import of `node-llama-cpp`). */
  importModule?: () => Promise<unknown>;
}

const MODULE_NAME = 'node-llama-cpp';

/** Imports node-llama-cpp, or throws MODEL_CONFIG saying how to install it. */
export async function importNodeLlamaCpp(importModule?: () => Promise<unknown>): Promise<NodeLlamaCppModule> {
  let mod: unknown;
  try {
    mod = await (importModule ? importModule() : import(/* @vite-ignore */ MODULE_NAME));
  } catch (e) {
    const missing =
      e instanceof Error &&
      /Cannot find (package|module)|ERR_MODULE_NOT_FOUND/i.test(
        `${e.message} ${(e as NodeJS.ErrnoException).code ?? ''}`,
      );
    throw new FlowScoutError({
      code: 'MODEL_CONFIG',
      message: missing
        ? `llama-cpp models need the optional package node-llama-cpp, which is not installed`
        : `node-llama-cpp could not be loaded: ${e instanceof Error ? e.message : String(e)}`,
      hint: `Install it next to FlowScout with: ${NODE_LLAMA_CPP_INSTALL}  (or use --model offline / an API model).`,
    });
  }
  const m = mod as Partial<NodeLlamaCppModule>;
  if (typeof m.getLlama !== 'function' || typeof m.LlamaChatSession !== 'function') {
    throw new FlowScoutError({
      code: 'MODEL_CONFIG',
      message: 'the installed node-llama-cpp does not have the expected API (getLlama, LlamaChatSession)',
      hint: `Install the tested version: ${NODE_LLAMA_CPP_INSTALL}`,
    });
  }
  return m as NodeLlamaCppModule;
}

/** Loads node-llama-cpp lazily and returns a LanguageModelV3 over the GGUF file (weights load on first use). */
export async function loadLlamaCppModel(
  modelPath: string,
  modelId: string,
  opts: LoadLlamaCppOptions = {},
): Promise<LanguageModelV3> {
  const mod = await importNodeLlamaCpp(opts.importModule);
  requireFile(modelPath, {
    what: 'GGUF model file',
    hint: 'Check the path after "llama-cpp:"; relative paths are resolved from the current directory.',
  });
  return createLlamaCppLanguageModel(mod, modelPath, modelId);
}

/** The wrapper itself; exported for tests with a fake module. */
export function createLlamaCppLanguageModel(
  mod: NodeLlamaCppModule,
  modelPath: string,
  modelId: string,
): LanguageModelV3 {
  let loaded: Promise<{ llama: NlcLlama; model: NlcModel }> | undefined;
  const load = () =>
    (loaded ??= (async () => {
      const llama = await mod.getLlama();
      return { llama, model: await llama.loadModel({ modelPath }) };
    })());

  const doGenerate = async (options: CallOptions): Promise<GenerateResult> => {
    const { llama, model } = await load();
    const { system, history, prompt } = splitPrompt(options.prompt);
    const warnings: GenerateResult['warnings'] = [];
    let grammar: unknown;
    if (options.responseFormat?.type === 'json' && options.responseFormat.schema) {
      try {
        grammar = await llama.createGrammarForJsonSchema(options.responseFormat.schema);
      } catch (e) {
        warnings.push({
          type: 'other',
          message: `JSON-schema grammar not applied: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
    }
    const context = await model.createContext();
    try {
      const session = new mod.LlamaChatSession({
        contextSequence: context.getSequence(),
        ...(system ? { systemPrompt: system } : {}),
      });
      if (history.length > 0 && session.setChatHistory) {
        session.setChatHistory([...(system ? [{ type: 'system', text: system }] : []), ...history]);
      }
      const text = await session.prompt(prompt, {
        ...(grammar ? { grammar } : {}),
        ...(options.abortSignal ? { signal: options.abortSignal } : {}),
        ...(options.maxOutputTokens ? { maxTokens: options.maxOutputTokens } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      });
      session.dispose?.();
      const inputTokens = model.tokenize(`${system}\n${history.map(historyText).join('\n')}\n${prompt}`).length;
      const outputTokens = model.tokenize(text).length;
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
        },
        warnings,
      };
    } finally {
      await context.dispose();
    }
  };

  return {
    specificationVersion: 'v3',
    provider: 'llama-cpp',
    modelId,
    supportedUrls: {},
    doGenerate,
    async doStream(options: CallOptions): Promise<StreamResult> {
      const result = await doGenerate(options);
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      const stream = new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: result.warnings });
          controller.enqueue({ type: 'text-start', id: '0' });
          controller.enqueue({ type: 'text-delta', id: '0', delta: text });
          controller.enqueue({ type: 'text-end', id: '0' });
          controller.enqueue({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
          controller.close();
        },
      });
      return { stream } as StreamResult;
    },
  };
}

type HistoryItem = { type: 'user'; text: string } | { type: 'model'; response: string[] };

function historyText(h: HistoryItem): string {
  return h.type === 'user' ? h.text : h.response.join('');
}

/** System text, earlier turns, and the last user message of an AI SDK prompt. */
function splitPrompt(prompt: CallOptions['prompt']): { system: string; history: HistoryItem[]; prompt: string } {
  const system: string[] = [];
  const turns: HistoryItem[] = [];
  for (const msg of prompt) {
    if (msg.role === 'system') system.push(msg.content);
    else if (msg.role === 'user')
      turns.push({ type: 'user', text: msg.content.map((p) => (p.type === 'text' ? p.text : '')).join('') });
    else if (msg.role === 'assistant')
      turns.push({ type: 'model', response: [msg.content.map((p) => (p.type === 'text' ? p.text : '')).join('')] });
  }
  const last =
    turns.length > 0 && turns[turns.length - 1]?.type === 'user' ? (turns.pop() as { text: string }).text : '';
  return { system: system.join('\n\n'), history: turns, prompt: last };
}
