import { hostname } from 'node:os';
import { FlowScoutError } from '../errors/index.js';
import type { Store } from './open-store.js';
import type { RunLock, RunRow } from './types.js';

/**
 * One driver per run: a process that runs or resumes a search holds the run's lock in the store
 * (pid, host, heartbeat). A second process is refused with the pid and host of the first, so two
 * `--resume` of one run cannot both run the remaining iterations into the same run (with a model,
 * paying twice). A lock whose process is gone is stale and taken over: on this host, when the pid
 * no longer exists; on another host, when its heartbeat is older than STALE_AFTER_MS.
 */

/** A lock from another host counts as stale after this long without a heartbeat. */
export const STALE_AFTER_MS = 10 * 60_000;
/** How often a held lock's heartbeat is refreshed. */
export const HEARTBEAT_MS = 60_000;

/** The lock a process holds: refresh and release it. */
export interface HeldLock {
  /** The holder this lock replaced (a process that died while driving the run). */
  replaced?: RunLock;
  release(): void;
}

/** True when the process behind `lock` is gone (see the module comment). */
export function isStaleLock(lock: RunLock, now: () => number = Date.now, host: string = hostname()): boolean {
  if (lock.host === host) return !processAlive(lock.pid);
  return now() - Date.parse(lock.heartbeatAt) > STALE_AFTER_MS;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of `runId` for this process, or throws RUN_LOCKED naming the holder. */
export function acquireRunLock(
  store: Store,
  runId: string,
  opts: { pid?: number; host?: string; resumeHint?: string } = {},
): HeldLock {
  const pid = opts.pid ?? process.pid;
  const host = opts.host ?? hostname();
  const got = store.acquireLock(runId, { pid, host }, (l) => isStaleLock(l, Date.now, host));
  if (got.heldBy) {
    const l = got.heldBy;
    throw new FlowScoutError({
      code: 'RUN_LOCKED',
      message: `run '${runId}' is being driven by another process (pid ${l.pid} on ${l.host}, since ${l.acquiredAt}; last sign of life ${l.heartbeatAt})`,
      hint: `Wait for it to finish or stop it (Ctrl-C, or kill ${l.pid} on ${l.host}); its lock is taken over once that process is gone${l.host === host ? '' : ` or silent for ${STALE_AFTER_MS / 60_000} minutes`}. To search again from scratch, start a new run instead of --resume.`,
      details: { runId, lock: l },
    });
  }
  const timer = setInterval(() => {
    try {
      store.touchLock(runId, pid);
    } catch {
      // The store is closing or failing; the search itself reports that.
    }
  }, HEARTBEAT_MS);
  timer.unref();
  let released = false;
  return {
    ...(got.replaced ? { replaced: got.replaced } : {}),
    release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      store.releaseLock(runId, pid);
    },
  };
}

/**
 * The one liveness rule for a run marked `running` (the CLI's `runs` and the web UI both ask it): it
 * is alive while a live process holds its lock — `isStaleLock`: on this host by pid, on another host
 * by the age of the lock's heartbeat, so a dead run of another host stops showing as running once it
 * has been silent for STALE_AFTER_MS. A run that no process holds is not running (every search holds
 * its run's lock while it runs).
 */
export function isRunAlive(
  store: Pick<Store, 'getLock'>,
  run: RunRow,
  now: () => number = Date.now,
  host: string = hostname(),
): boolean {
  const lock = store.getLock(run.id);
  return lock !== undefined && !isStaleLock(lock, now, host);
}

/**
 * The one vocabulary of run states, used by the store, the CLI (`runs`, `search`) and the web UI:
 * `running` (a live process drives it), `done` (it reached its iterations or patience), `stopped`
 * (a budget, Ctrl-C or SIGTERM ended it before that: resumable), `failed` (an error ended it:
 * resumable), and, shown but never stored, `interrupted` (stored as running, but the process that
 * ran it is gone: killed or crashed; resumable).
 */
export type ShownRunStatus = RunRow['status'] | 'interrupted';

/** The status to show for a run: a `running` run that no live process drives (`isRunAlive`) is `interrupted`. */
export function displayStatus(store: Pick<Store, 'getLock'>, run: RunRow): ShownRunStatus {
  if (run.status !== 'running') return run.status;
  return isRunAlive(store, run) ? 'running' : 'interrupted';
}
