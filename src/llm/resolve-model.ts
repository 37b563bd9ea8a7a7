import type { MetadataExtractor } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { FlowScoutError } from '../errors/index.js';
import { loadLlamaCppModel } from './llama-cpp-model.js';
import { checkModelUrl, parseModelSpec, type ModelProvider } from './model-spec.js';
import { scrubSecrets, secretsFromEnv } from './secrets.js';

/**
 * The model registry: turns a model string into a Vercel AI SDK `LanguageModel` plus what
 * the client needs to call it well (its provider-options key, whether it returns log-probabilities,
 * and a scrubber that knows its secrets). `offline` resolves to no model at all. A provider's package
 * is loaded when a model of it is first resolved, so commands without a model (and `--help`) never
 * load one.
 */

export interface ResolvedModel {
  /** The normalised model string, shown wherever results are shown. */
  spec: string;
  provider: ModelProvider;
  modelId: string;
  /** The AI SDK model; absent for `offline`. */
  model?: LanguageModel;
  /** Key of `providerOptions` this model reads (e.g. `openai`), when it has one. */
  providerOptionsKey?: string;
  /** True when the provider can return token log-probabilities (OpenAI chat and OpenAI-compatible). */
  supportsLogprobs: boolean;
  /** Removes this model's secrets (and any key-shaped string) from text. A function, so it never serialises. */
  scrub: (text: string) => string;
}

export interface ResolveModelOptions {
  env?: Record<string, string | undefined>;
  /**
   * `false` for a command that sends nothing (`search --dry-run`): a missing API key is not an
   * error, the provider is made without one, and a request, were one sent, would fail for want of it.
   */
  requireKeys?: boolean;
}

/** Name under which OpenAI-compatible servers are registered (also their providerOptions key). */
export const OPENAI_COMPATIBLE_NAME = 'openaiCompatible';

/** Resolves a model string (see MODEL_SPEC_FORMS). Missing keys and absent optional packages are MODEL_CONFIG errors. */
export async function resolveModel(spec: string, options: ResolveModelOptions = {}): Promise<ResolvedModel> {
  const env = options.env ?? process.env;
  const secrets = secretsFromEnv(env);
  const scrub = (text: string): string => scrubSecrets(text, secrets);
  const parsed = parseModelSpec(spec);
  switch (parsed.provider) {
    case 'offline':
      return { spec: 'offline', provider: 'offline', modelId: 'offline', supportsLogprobs: false, scrub };
    case 'openai': {
      const apiKey = requireKey(env, 'OPENAI_API_KEY', parsed.spec, options.requireKeys);
      const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
      if (baseURL) checkModelUrl(baseURL, 'OPENAI_BASE_URL', 'OPENAI_API_KEY');
      const { createOpenAI } = await import('@ai-sdk/openai');
      const provider = createOpenAI({ ...(apiKey ? { apiKey } : {}), ...(baseURL ? { baseURL } : {}) });
      // Chat Completions, not the Responses API (the AI SDK default): it is what every gateway speaks.
      return {
        spec: parsed.spec,
        provider: 'openai',
        modelId: parsed.modelId,
        model: provider.chat(parsed.modelId),
        providerOptionsKey: 'openai',
        supportsLogprobs: true,
        scrub,
      };
    }
    case 'anthropic': {
      const apiKey = requireKey(env, 'ANTHROPIC_API_KEY', parsed.spec, options.requireKeys);
      const baseURL = env.ANTHROPIC_BASE_URL?.trim() || undefined;
      if (baseURL) checkModelUrl(baseURL, 'ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY');
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const provider = createAnthropic({ ...(apiKey ? { apiKey } : {}), ...(baseURL ? { baseURL } : {}) });
      return {
        spec: parsed.spec,
        provider: 'anthropic',
        modelId: parsed.modelId,
        model: provider(parsed.modelId),
        providerOptionsKey: 'anthropic',
        supportsLogprobs: false,
        scrub,
      };
    }
    case 'ollama': {
      const { createOllama } = await import('ollama-ai-provider-v2');
      if (env.OLLAMA_BASE_URL?.trim()) checkModelUrl(env.OLLAMA_BASE_URL.trim(), 'OLLAMA_BASE_URL');
      const provider = createOllama({ baseURL: ollamaBaseURL(env.OLLAMA_BASE_URL) });
      return {
        spec: parsed.spec,
        provider: 'ollama',
        modelId: parsed.modelId,
        model: provider(parsed.modelId),
        providerOptionsKey: 'ollama',
        supportsLogprobs: false,
        scrub,
      };
    }
    case 'openai-compatible': {
      const apiKey = env.OPENAI_COMPATIBLE_API_KEY?.trim() || undefined;
      if (apiKey) checkKeyText(apiKey, 'OPENAI_COMPATIBLE_API_KEY', parsed.spec);
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const provider = createOpenAICompatible({
        name: OPENAI_COMPATIBLE_NAME,
        baseURL: parsed.baseURL,
        ...(apiKey ? { apiKey } : {}),
        includeUsage: true,
        // vLLM, LM Studio, llama.cpp server and the big gateways accept response_format json_schema.
        supportsStructuredOutputs: true,
        metadataExtractor: logprobExtractor,
      });
      return {
        spec: parsed.spec,
        provider: 'openai-compatible',
        modelId: parsed.modelId,
        model: provider.chatModel(parsed.modelId),
        providerOptionsKey: OPENAI_COMPATIBLE_NAME,
        supportsLogprobs: true,
        scrub,
      };
    }
    case 'llama-cpp': {
      const model = await loadLlamaCppModel(parsed.modelPath, parsed.modelId);
      return {
        spec: parsed.spec,
        provider: 'llama-cpp',
        modelId: parsed.modelId,
        model,
        supportsLogprobs: false,
        scrub,
      };
    }
  }
}

function requireKey(
  env: Record<string, string | undefined>,
  name: string,
  spec: string,
  required = true,
): string | undefined {
  const key = env[name]?.trim();
  if (key) return checkKeyText(key, name, spec);
  if (!required) return undefined;
  throw new FlowScoutError({
    code: 'MODEL_CONFIG',
    message: `model '${spec}' needs an API key, but ${name} is not set`,
    hint: `Set ${name} in the environment (export ${name}=…), or use --model offline to run without a model.`,
    details: { spec, variable: name },
  });
}

/**
 * A key goes into an HTTP header, which carries only visible ASCII: a key with `…` (the
 * placeholder `sk-…` pasted from the docs), a space or a line break inside fails in `fetch` with
 * "Cannot convert argument to a ByteString". Refused here, naming the variable and the position,
 * never the key.
 */
export function checkKeyText(key: string, name: string, spec: string): string {
  const bad = [...key].findIndex((ch) => ch < '!' || ch > '~');
  if (bad < 0) return key;
  const ch = [...key][bad]!;
  const shown =
    ch === '…'
      ? "'…' (an ellipsis)"
      : /\s/.test(ch)
        ? 'a space or line break'
        : `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  throw new FlowScoutError({
    code: 'MODEL_CONFIG',
    message: `${name} cannot be a key for model '${spec}': character ${bad + 1} of it is ${shown}, which an HTTP header cannot carry`,
    hint:
      ch === '…'
        ? `It looks like the placeholder from the documentation; set ${name} to your whole key.`
        : `Set ${name} to the key exactly as the provider shows it (visible ASCII characters only).`,
    details: { spec, variable: name, position: bad + 1 },
  });
}

/** `OLLAMA_BASE_URL` as users write it (`http://host:11434`) → the provider's `…/api` base. */
export function ollamaBaseURL(value: string | undefined): string {
  const base = (value?.trim() || 'http://127.0.0.1:11434').replace(/\/+$/, '');
  return /\/api$/.test(base) ? base : `${base}/api`;
}

/**
 * OpenAI-compatible servers (vLLM, llama.cpp server) return `choices[0].logprobs` like OpenAI, but
 * the compatible provider does not surface it; this puts it under `providerMetadata.openaiCompatible.logprobs`.
 */
const logprobExtractor: MetadataExtractor = {
  async extractMetadata({ parsedBody }) {
    const choices = (parsedBody as { choices?: Array<{ logprobs?: { content?: unknown } | null }> } | null)?.choices;
    const content = choices?.[0]?.logprobs?.content;
    return Array.isArray(content) ? { [OPENAI_COMPATIBLE_NAME]: { logprobs: content as never } } : undefined;
  },
  createStreamExtractor() {
    return { processChunk() {}, buildMetadata: () => undefined };
  },
};
