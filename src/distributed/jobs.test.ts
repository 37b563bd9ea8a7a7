import { describe, expect, it } from 'vitest';
import { FlowScoutError } from '../errors/index.js';
import { createCircuitBreaker } from '../llm/circuit-breaker.js';
import { createModelCallLog, hasFailedModelCalls, replayModelCalls } from './jobs.js';

const err401 = new FlowScoutError({
  code: 'MODEL_ERROR',
  message: "model 'm' failed after 1 attempt: HTTP 401: bad key",
  hint: 'Check the key.',
});
const err500 = new FlowScoutError({
  code: 'MODEL_ERROR',
  message: "model 'm' failed after 4 attempts: HTTP 500: down",
});

describe("a job's model-call log, replayed into the coordinator's breaker", () => {
  it('merges alike outcomes in order and survives JSON (what Redis carries)', () => {
    const log = createModelCallLog();
    log.success();
    log.success();
    log.failure('client:401:x', err401, 'client');
    log.failure('client:401:x', err401, 'client');
    log.failure('server:500:y', err500, 'server');
    const runs = JSON.parse(JSON.stringify(log.runs()));
    expect(runs).toEqual([
      { ok: 2 },
      {
        failed: 2,
        key: 'client:401:x',
        kind: 'client',
        error: { code: 'MODEL_ERROR', message: err401.message, hint: 'Check the key.' },
      },
      { failed: 1, key: 'server:500:y', kind: 'server', error: { code: 'MODEL_ERROR', message: err500.message } },
    ]);
    expect(hasFailedModelCalls({ runs: [], worker: 'w', modelCalls: runs })).toBe(true);
    expect(hasFailedModelCalls({ runs: [], worker: 'w', modelCalls: [{ ok: 3 }] })).toBe(false);
    expect(hasFailedModelCalls({ runs: [], worker: 'w' })).toBe(false);
  });

  it("trips the breaker across jobs as the same calls would in one process, with the worker's error", () => {
    const breaker = createCircuitBreaker({ threshold: 3 });
    const failing = createModelCallLog();
    failing.failure('client:401:x', err401, 'client');
    failing.failure('client:401:x', err401, 'client');
    replayModelCalls(breaker, failing.runs());
    expect(breaker.tripped()).toBeUndefined();
    // A job with a success in between resets the count.
    const mixed = createModelCallLog();
    mixed.success();
    mixed.failure('client:401:x', err401, 'client');
    replayModelCalls(breaker, mixed.runs());
    replayModelCalls(breaker, failing.runs());
    const trip = breaker.tripped();
    expect(trip?.code).toBe('MODEL_UNAVAILABLE');
    expect(trip?.message).toBe(`stopped: the last 3 model calls all failed the same way — ${err401.message}`);
    expect(trip?.hint).toContain('Check the key.');
    expect(breaker.signal.aborted).toBe(true);
  });

  it('never trips with --breaker 0', () => {
    const breaker = createCircuitBreaker({ threshold: 0 });
    const log = createModelCallLog();
    for (let i = 0; i < 20; i++) log.failure('k', err401, 'client');
    replayModelCalls(breaker, log.runs());
    expect(breaker.tripped()).toBeUndefined();
  });
});
