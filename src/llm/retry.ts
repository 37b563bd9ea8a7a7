import { APICallError } from 'ai';

/**
 * Which failed model calls are worth another try, and how long to wait (docs/DESIGN.md,
 * "Policies": one request loop for every model request): exponential backoff with full jitter on 429, 408, 5xx, timeouts and network errors,
 * and the server's own `retry-after-ms` / `Retry-After` (seconds or an HTTP date) when it sends one.
 * The AI SDK's built-in retries are switched off (`maxRetries: 0`) so these are the only ones.
 */

export type FailureKind = 'rate-limit' | 'server' | 'timeout' | 'network' | 'client' | 'aborted' | 'other';

export interface ClassifiedFailure {
  kind: FailureKind;
  retryable: boolean;
  statusCode?: number;
  /** What the server asked us to wait, in ms, when it said. */
  retryAfterMs?: number;
}

/**
 * Classifies an error thrown by `generateText`. `timedOut` says our own per-call timeout fired;
 * `callerAborted` says the caller's signal did (never retried).
 */
export function classifyFailure(
  error: unknown,
  state: { timedOut: boolean; callerAborted: boolean },
  now: () => number = Date.now,
): ClassifiedFailure {
  if (state.callerAborted) return { kind: 'aborted', retryable: false };
  if (state.timedOut) return { kind: 'timeout', retryable: true };
  const api = findApiCallError(error);
  if (api) {
    const status = api.statusCode;
    const retryAfterMs = parseRetryAfter(api.responseHeaders, now);
    const base = {
      ...(status !== undefined ? { statusCode: status } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
    if (status === 429) return { kind: 'rate-limit', retryable: true, ...base };
    if (status === 408 || (status !== undefined && status >= 500)) return { kind: 'server', retryable: true, ...base };
    if (status !== undefined && status >= 400) return { kind: 'client', retryable: false, ...base };
    // No status: the connection broke or the body could not be read/parsed (a truncated response).
    return { kind: 'network', retryable: true, ...base };
  }
  if (isNetworkError(error)) return { kind: 'network', retryable: true };
  return { kind: 'other', retryable: false };
}

/** Delay before retry number `retry` (1-based): the server's wish if any, else base·2^(retry−1) with full jitter. */
export function retryDelayMs(
  retry: number,
  failure: ClassifiedFailure,
  opts: { baseDelayMs: number; maxDelayMs: number; random: () => number },
): number {
  if (failure.retryAfterMs !== undefined) return Math.min(Math.max(0, failure.retryAfterMs), opts.maxDelayMs);
  const cap = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** Math.max(0, retry - 1));
  // "Full jitter": uniform in [cap/2, cap], so concurrent clients spread out but never retry instantly.
  return Math.round(cap / 2 + opts.random() * (cap / 2));
}

/** Reads `retry-after-ms` (ms) or `retry-after` (seconds or HTTP date) from response headers. */
export function parseRetryAfter(
  headers: Record<string, string> | undefined,
  now: () => number = Date.now,
): number | undefined {
  if (!headers) return undefined;
  const get = (name: string): string | undefined => {
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
    return undefined;
  };
  const ms = get('retry-after-ms');
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.round(Number(ms));
  const ra = get('retry-after');
  if (ra === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.round(Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

function findApiCallError(error: unknown): APICallError | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e; depth++) {
    if (APICallError.isInstance(e)) return e;
    // RetryError (should not happen with maxRetries 0) keeps the last error.
    const last = (e as { lastError?: unknown }).lastError;
    e = last ?? (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function isNetworkError(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (e instanceof TypeError && /fetch failed|terminated|network/i.test(e.message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
