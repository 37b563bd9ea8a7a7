import { FlowScoutError } from '../errors/index.js';

/**
 * Model strings (docs/DESIGN.md, "Policies"): every model FlowScout talks to is named by
 * one string, so a CLI flag, an environment variable and a workflow node's `model` field all say
 * the same thing. This file only parses; `resolve-model.ts` turns a parsed spec into a model.
 */

/** A parsed model string. */
export type ModelSpec =
  | { provider: 'offline'; spec: 'offline' }
  | { provider: 'openai'; spec: string; modelId: string }
  | { provider: 'anthropic'; spec: string; modelId: string }
  | { provider: 'ollama'; spec: string; modelId: string }
  | { provider: 'openai-compatible'; spec: string; baseURL: string; modelId: string }
  | { provider: 'llama-cpp'; spec: string; modelPath: string; modelId: string };

export type ModelProvider = ModelSpec['provider'];

/** The valid forms, listed in every "bad model string" message. */
export const MODEL_SPEC_FORMS = [
  'offline',
  'openai:<model>            e.g. openai:gpt-4o-mini (OPENAI_API_KEY, optional OPENAI_BASE_URL)',
  'anthropic:<model>         e.g. anthropic:claude-3-5-haiku-latest (ANTHROPIC_API_KEY)',
  'ollama:<model>            e.g. ollama:llama3.1 (OLLAMA_BASE_URL, default http://127.0.0.1:11434)',
  'openai-compatible:<base URL>#<model>  e.g. openai-compatible:http://127.0.0.1:8000/v1#qwen2.5-7b (optional OPENAI_COMPATIBLE_API_KEY)',
  'llama-cpp:<path to .gguf> e.g. llama-cpp:./models/qwen2.5-1.5b-instruct-q4_k_m.gguf (needs node-llama-cpp)',
] as const;

/** Environment variable that sets the run's model when no flag does. */
export const MODEL_ENV_VAR = 'FLOWSCOUT_MODEL';

/**
 * The model a run uses when the user named none: `FLOWSCOUT_MODEL` if set, else `offline`
 * (the offline policy, which needs no model and is labelled as such wherever results are shown).
 */
export function defaultModelSpec(env: Record<string, string | undefined> = process.env): string {
  const fromEnv = env[MODEL_ENV_VAR]?.trim();
  return fromEnv ? fromEnv : 'offline';
}

/** Parses a model string; a malformed one is a MODEL_CONFIG error listing the valid forms. */
export function parseModelSpec(input: string): ModelSpec {
  const spec = input.trim();
  if (spec === 'offline') return { provider: 'offline', spec: 'offline' };
  const colon = spec.indexOf(':');
  if (colon <= 0) throw badSpec(input, 'it has no provider prefix');
  const prefix = spec.slice(0, colon).toLowerCase();
  const rest = spec.slice(colon + 1).trim();
  if (!rest) throw badSpec(input, `nothing follows '${prefix}:'`);
  switch (prefix) {
    case 'openai':
    case 'anthropic':
    case 'ollama':
      return { provider: prefix, spec: `${prefix}:${rest}`, modelId: rest };
    case 'openai-compatible': {
      const hash = rest.lastIndexOf('#');
      if (hash <= 0 || hash === rest.length - 1) {
        throw badSpec(input, "an OpenAI-compatible model needs '<base URL>#<model>'");
      }
      const baseURL = rest.slice(0, hash).replace(/\/+$/, '');
      const modelId = rest.slice(hash + 1);
      if (!/^https?:\/\/[^\s/]+/i.test(baseURL)) {
        throw badSpec(input, `'${baseURL}' is not an http(s) URL`);
      }
      checkModelUrl(baseURL, 'the model string', 'OPENAI_COMPATIBLE_API_KEY');
      return { provider: 'openai-compatible', spec: `openai-compatible:${baseURL}#${modelId}`, baseURL, modelId };
    }
    case 'llama-cpp': {
      if (!/\.gguf$/i.test(rest)) throw badSpec(input, `'${rest}' is not a .gguf file`);
      const base = rest.split(/[\\/]/).pop() ?? rest;
      return {
        provider: 'llama-cpp',
        spec: `llama-cpp:${rest}`,
        modelPath: rest,
        modelId: base.replace(/\.gguf$/i, ''),
      };
    }
    default:
      throw badSpec(input, `unknown provider '${prefix}'`);
  }
}

/**
 * Refuses a model server URL that carries credentials (`https://user:pass@host/v1`): fetch refuses
 * such URLs, so every model request of the run would fail, and the URL would be printed with its
 * password. Checked where the URL is read (the model string, the `*_BASE_URL` variables), before
 * anything runs. The message shows the URL without its credentials.
 */
export function checkModelUrl(url: string, where: string, keyVariable?: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return; // not a URL at all: the caller's own check names that
  }
  if (parsed.username === '' && parsed.password === '') return;
  parsed.username = '';
  parsed.password = '';
  const shown = parsed.href.replace(/^(https?:\/\/)/i, '$1<credentials>@');
  throw new FlowScoutError({
    code: 'MODEL_CONFIG',
    message: `the model server URL in ${where} carries credentials (${shown}); requests to such a URL are refused, so no model request could be made`,
    hint: `Remove "user:password@" from the URL${keyVariable ? ` and give the key as ${keyVariable} (sent as a bearer token)` : ''}.`,
  });
}

function badSpec(input: string, why: string): FlowScoutError {
  return new FlowScoutError({
    code: 'MODEL_CONFIG',
    message: `invalid model '${input}': ${why}`,
    hint: `Valid forms:\n    ${MODEL_SPEC_FORMS.join('\n    ')}`,
    details: { spec: input },
  });
}
