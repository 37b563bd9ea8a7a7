/**
 * API keys never leave the process through FlowScout: every error message,
 * log line and header map that comes from a model call passes through `scrubSecrets` /
 * `scrubHeaders` before it is thrown, logged, traced or stored.
 */

import { REDACTED, scrubSecrets } from '../util/redact.js';

export { REDACTED, redactText, scrubSecrets, SECRET_ENV_VARS, secretsFromEnv } from '../util/redact.js';

/** Header names that carry credentials (compared lower case). */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'cookie',
  'set-cookie',
]);

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
