/**
 * The concurrency bound of a run ("unguarded fan-out runs concurrently, bounded"). Waiters are served
 * by priority (a node's topological index), not arrival, so which node gets a free slot does not
 * depend on promise-resolution order: the interpreter and compiled modules start nodes alike.
 */
export interface Semaphore {
  /** Resolves with a release function once a slot is free; resolves `undefined` if `signal` aborts first. */
  acquire(priority: number, signal?: AbortSignal): Promise<(() => void) | undefined>;
  /**
   * A release function at once when a slot is free and nobody waits (what `acquire` would grant
   * without waiting), else undefined: the caller then waits with `acquire`.
   */
  tryAcquire?(): (() => void) | undefined;
}

/** A priority semaphore with `limit` slots (`Infinity` for no bound). */
export function createSemaphore(limit: number): Semaphore {
  if (!(limit >= 1)) throw new RangeError(`concurrency must be at least 1 (got ${limit})`);
  let active = 0;
  const waiting: Array<{ priority: number; seq: number; grant: () => void }> = [];
  let seq = 0;
  const next = () => {
    while (active < limit && waiting.length > 0) {
      waiting.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
      const w = waiting.shift()!;
      active++;
      w.grant();
    }
  };
  const releaser = () => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      active--;
      next();
    };
  };
  const tryAcquire = (): (() => void) | undefined => {
    if (active < limit && waiting.length === 0) {
      active++;
      return releaser();
    }
    return undefined;
  };
  return {
    tryAcquire,
    acquire(priority, signal) {
      if (signal?.aborted) return Promise.resolve(undefined);
      const now = tryAcquire();
      if (now) return Promise.resolve(now);
      return new Promise((resolve) => {
        const entry = {
          priority,
          seq: seq++,
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(releaser());
          },
        };
        const onAbort = () => {
          const i = waiting.indexOf(entry);
          if (i >= 0) waiting.splice(i, 1);
          resolve(undefined);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(entry);
      });
    },
  };
}

/** Races `promise` against `signal`: rejects with an AbortError as soon as the signal fires. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    // The listener is an object (`handleEvent`) rather than a closure: every tool node races its plan.
    const onAbort = new RejectOnAbort(reject);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

class RejectOnAbort {
  constructor(private readonly reject: (e: Error) => void) {}
  handleEvent(): void {
    this.reject(abortError());
  }
}

/** The error `raceAbort` rejects with. */
export function abortError(): Error {
  const e = new Error('cancelled');
  e.name = 'AbortError';
  return e;
}

/** True for the error `raceAbort` produces (or any AbortError). */
export function isAbortError(e: unknown): boolean {
  return e instanceof Error && e.name === 'AbortError';
}
