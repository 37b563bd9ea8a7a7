import type { Job } from 'bullmq';
import { FlowScoutError, fromErrorShape, RETRYABLE } from '../errors/index.js';

/**
 * How the coordinator reads a job that did not come back (job-trust.ts is how a worker hands a
 * failure back): the worker's error shape with which job failed after how many attempts, and a job
 * that vanished from the queue.
 */

/** The worker's error of a failed job (its error shape, errors/error-shape.ts); a reason the queue itself gave (a stalled job) is QUEUE_ERROR. */
function jobError(job: Job): FlowScoutError {
  return fromErrorShape(job.failedReason ?? 'unknown reason', 'QUEUE_ERROR');
}

/** Whether the queue will not retry it: its code is not `RETRYABLE`. */
export function isUnrecoverable(job: Job): boolean {
  return !RETRYABLE[jobError(job).code];
}

/** The job's failure: the worker's code, hint and location, its message saying which job failed after how many attempts. */
export function failure(job: Job): FlowScoutError {
  const err = jobError(job);
  const attempts = `after ${job.attemptsMade} attempt${job.attemptsMade === 1 ? '' : 's'}`;
  return new FlowScoutError({
    code: err.code,
    message: `evaluation job ${job.id} failed ${attempts}: ${err.message}`,
    hint:
      err.hint ??
      (err.code === 'MODEL_CONFIG'
        ? "Set the model's API key in the workers' environment (keys never travel through Redis)."
        : "See the worker's output for details."),
    ...(err.location ? { location: err.location } : {}),
  });
}

/** A job that is no longer in the queue. */
export function vanished(id: string): FlowScoutError {
  return new FlowScoutError({
    code: 'QUEUE_ERROR',
    message: `job ${id} vanished from the queue (removed by hand, or Redis was flushed)`,
    hint: 'Run the evaluation again; --resume a search to re-queue what is missing.',
  });
}
