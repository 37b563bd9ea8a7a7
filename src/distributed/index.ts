/** Distributed evaluation on BullMQ and Redis: the worker, the coordinator's record runner, and the Redis connection check. */
export { startEvaluationWorker, type EvaluationWorker, type EvaluationWorkerOptions } from './worker.js';
export { createQueueRunner, type QueueProgress, type QueueRunner, type QueueRunnerOptions } from './queue-runner.js';
export { checkRedis, redactRedisUrl } from './redis-connection.js';
export { DEFAULT_QUEUE, type EvalJobData, type EvalJobResult } from './jobs.js';
