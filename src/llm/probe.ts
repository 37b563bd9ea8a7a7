import { FlowScoutError, isFlowScoutError } from '../errors/index.js';
import { createLlmClient } from './client.js';
import { isInvalidModelOutput } from './llm-errors.js';
import { defaultModelSpec, parseModelSpec } from './model-spec.js';
import { DEFAULT_MODEL_TIMEOUT_MS } from './model-request.js';
import { createRateLimiter } from './rate-limiter.js';
import { resolveModel } from './resolve-model.js';

/**
 * The start-up check of the models a command will use (policy, judge, optimizer): one tiny request
 * per distinct model string, before anything is spent. A key the provider rejects, a model it does
 * not know, a malformed key or a host that does not answer stops the command at once with the
 * provider's message (keys scrubbed) instead of many minutes of failed calls scored as zeros.
 * `offline` needs no check. An answer that is unusable as text still proves the model works.
 */

/** One model to check and the part it plays (named in the error). */
export interface ProbeTarget {
  role: string;
  /** A model string; `undefined` means the default (`FLOWSCOUT_MODEL`, else offline). */
  spec: string | undefined;
}

export interface ProbeOptions {
  env?: Record<string, string | undefined>;
  /** Per-request timeout (the run's `--model-timeout`; the probe uses at most 20 s). */
  timeoutMs?: number;
  /** Retries of the probe request (default 1: a transient blip does not stop the command). */
  maxRetries?: number;
  baseDelayMs?: number;
  /** Receives the retry lines and one line per checked model. */
  log?: (line: string) => void;
}

/** The probe's own cap on waiting for a first answer. */
export const PROBE_TIMEOUT_MS = 20_000;

/** Checks every distinct non-offline model of `targets` (see the module comment); resolves when all answered. */
export async function probeModels(targets: readonly ProbeTarget[], opts: ProbeOptions = {}): Promise<void> {
  const env = opts.env ?? process.env;
  const roles = new Map<string, string[]>();
  for (const t of targets) {
    const spec = (t.spec?.trim() || defaultModelSpec(env)).trim();
    if (parseModelSpec(spec).provider === 'offline') continue;
    roles.set(spec, [...(roles.get(spec) ?? []), t.role]);
  }
  const limiter = createRateLimiter({ concurrency: 4 });
  await Promise.all(
    [...roles].map(async ([spec, named]) => {
      const resolved = await resolveModel(spec, { env });
      const client = createLlmClient({
        model: resolved,
        env,
        limiter,
        timeoutMs: Math.min(opts.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS, PROBE_TIMEOUT_MS),
        maxRetries: opts.maxRetries ?? 1,
        ...(opts.baseDelayMs !== undefined ? { baseDelayMs: opts.baseDelayMs } : {}),
        maxDelayMs: 5_000,
        // Retries are announced; the final failure is the error this throws, not a line before it.
        ...(opts.log ? { log: (line: string) => (line.startsWith('retrying ') ? opts.log!(line) : undefined) } : {}),
      });
      const started = Date.now();
      try {
        await client.text({ prompt: 'Reply with the single word OK.', maxOutputTokens: 16 });
      } catch (e) {
        if (isInvalidModelOutput(e)) return;
        throw probeFailed(resolved.spec, named, e);
      }
      opts.log?.(
        `checked model ${resolved.spec} (${named.join(', ')}): it answered in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }),
  );
}

function probeFailed(spec: string, roles: string[], e: unknown): FlowScoutError {
  if (!isFlowScoutError(e) || e.code !== 'MODEL_ERROR')
    return isFlowScoutError(e)
      ? e
      : new FlowScoutError({ code: 'MODEL_UNAVAILABLE', message: `model '${spec}' cannot be used: ${String(e)}` });
  const cause = e.message.replace(/^model '[^']*' failed after \d+ attempts?: /, '');
  return new FlowScoutError({
    code: 'MODEL_UNAVAILABLE',
    message: `the ${roles.join(' and ')} model '${spec}' cannot be used: ${cause}`,
    hint: `${e.hint ?? ''} Nothing was run or spent; this check runs before every search, demo and bench.`.trim(),
    details: e.details,
    cause: e,
  });
}
