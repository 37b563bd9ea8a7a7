/**
 * API keys never leave the process through FlowScout: every error message,
 * log line and header map that comes from a model call passes through `scrubSecrets` /
 * `scrubHeaders` before it is thrown, logged, traced or stored.
 */

/** Environment variables whose values are secrets. */
export const SECRET_ENV_VARS = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'OPENAI_COMPATIBLE_API_KEY',
  'OLLAMA_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
] as const;

/** Header names that carry credentials (compared lower case). */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'cookie', 'set-cookie']);

/** Key-shaped strings, scrubbed even when we do not know the value (a server may echo a key). */
const BARE_KEY = /\bsk-[A-Za-z0-9_-]{8,}/g; // OpenAI, Anthropic (sk-ant-…), most gateways
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const KEY_ASSIGNMENT = /\b(api[_-]?key|access[_-]?token|x-api-key)(["']?\s*[:=]\s*["']?)[A-Za-z0-9._~+/-]{8,}/gi;

/** The user-information part of a URL (`https://user:pass@host`, `redis://:pass@host`). */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@'"<>]*)@/gi;

export const REDACTED = '[redacted]';

/** The forms a secret is written in besides its own text: base64 (also URL-safe, unpadded) and percent-encoded. */
function encodings(secret: string): string[] {
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  const out = [secret, b64, b64.replace(/=+$/, ''), Buffer.from(secret, 'utf8').toString('base64url'), encodeURIComponent(secret)];
  return [...new Set(out)].filter((x) => x.length >= 6).sort((a, b) => b.length - a.length);
}

/** The secret values present in `env` (only non-trivial ones: at least 6 characters). */
export function secretsFromEnv(env: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  for (const name of SECRET_ENV_VARS) {
    const v = env[name]?.trim();
    if (v && v.length >= 6) out.push(v);
  }
  return out;
}

/** Replaces every known secret value and every key-shaped string in `text` with `[redacted]`. */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 6) for (const form of encodings(s)) out = out.split(form).join(REDACTED);
  }
  return out
    .replace(URL_CREDENTIALS, (m, scheme: string, user: string) => (/^[:*]*$/.test(user) || user === REDACTED ? m : `${scheme}${REDACTED}@`))
    .replace(AUTH_SCHEME, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(KEY_ASSIGNMENT, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`)
    .replace(BARE_KEY, REDACTED);
}

/** A copy of `headers` without credential headers and with secrets scrubbed from the rest. */
export function scrubHeaders(
  headers: Record<string, string | undefined> | undefined,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (v === undefined) continue;
    out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? REDACTED : scrubSecrets(v, secrets);
  }
  return out;
}

/** Scrubs every string inside a JSON-like value (for details attached to errors). */
export function scrubDeep(value: unknown, secrets: readonly string[] = []): unknown {
  if (typeof value === 'string') return scrubSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, secrets));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? REDACTED : scrubDeep(v, secrets);
    }
    return out;
  }
  return value;
}

/** A model string as it may be shown: credentials in its base URL (`https://user:pass@…`) and key-shaped strings redacted. */
export function redactModelSpec(spec: string): string {
  return scrubSecrets(spec);
}
