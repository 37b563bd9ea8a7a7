import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { QueueProgress, QueueRunner } from '../../distributed/queue-runner.js';
import type { CircuitBreaker } from '../../llm/circuit-breaker.js';
import { writeImportFolder } from '../../records/import/write-import.js';
import type { Call, TaskRecord } from '../../records/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';

/**
 * `bench --redis`: the benchmark's workflow evaluations on `flowscout worker`s (docs/ARCHITECTURE.md,
 * "Distributed evaluation"). Every search of a domain (FlowScout, LLM-only, NoMiner, Beam) gets a
 * queue runner of its own — its own namespace, so its node memo in Redis is its own, as each
 * search's memo is in one process — and the measured workflows (FlowScout's best, NoMCTS, LLM-only,
 * the ablations, the backbone swap) run there too, without a memo as in one process, each measured
 * run under its own job-id salt, so repeated runs are run again and never read back. The ReAct and PM4Py-style baselines are agents,
 * not workflows, and run in the coordinator.
 *
 * Workers need the domain's tools: a domain of your own names its tool config (`--tools`); a bundled
 * domain's replay tools are written as an import folder (`records.jsonl`, `tools.json`,
 * `tools.config.json`, what `flowscout import traject` writes) under `<toolsDir>/<domain>/`, and
 * jobs name that path, so workers started without `--tools` on this machine (or on machines that
 * see the same path) load it.
 */

export interface BenchRedis {
  url: string;
  queue?: string;
  /** Records per job (default 1). */
  chunkSize?: number;
  requestsPerMinute?: number;
  /** Where a bundled domain's tool config is written for the workers. */
  toolsDir: string;
}

/** The runners of one domain. */
export interface DomainQueues {
  /** The tool config the workers load. */
  toolsConfig: string;
  /** A runner of its own namespace for `name` (a search, or the measurements) under the model `policySpec`; `memo` as the in-process evaluation it stands for. */
  runner(name: string, policySpec: string, memo: boolean): Promise<QueueRunner>;
  /** Jobs done and failed, and workers seen, over every runner of the domain. */
  progress(): Promise<QueueProgress>;
  close(): Promise<void>;
}

export interface DomainQueueOptions {
  domain: string;
  /** The domain's tool config, or (bundled domain) the records and descriptors its replay tools answer from. */
  tools: { config: string } | { records: readonly TaskRecord[]; descriptors: readonly ToolDescriptor[] };
  /** Model string of the judge. */
  judgeSpec: string;
  /** The recorded write calls the domain's write guard answers from (the workers answer from them too). */
  writes?: readonly Call[];
  /** The bench's `--allow-live-writes`: travels with the jobs (a worker sends write calls to live tools only for a run that allows them). */
  allowLiveWrites?: boolean;
  nodeConcurrency?: number;
  /** The bench's circuit breaker: every runner replays the workers' model calls into it. */
  breaker?: CircuitBreaker;
}

/** Opens nothing yet: each runner connects when it is first asked for. */
export async function domainQueues(redis: BenchRedis, o: DomainQueueOptions): Promise<DomainQueues> {
  const { createQueueRunner } = await import('../../distributed/queue-runner.js');
  let toolsConfig: string;
  if ('config' in o.tools) toolsConfig = resolve(o.tools.config);
  else {
    const dir = resolve(join(redis.toolsDir, o.domain));
    // The bundled domain's data, the same every time: writing it again over an earlier bench's copy loses nothing.
    writeImportFolder(dir, o.tools.records, o.tools.descriptors, { force: true });
    toolsConfig = join(dir, 'tools.config.json');
  }
  const stamp = `bench-${randomBytes(4).toString('hex')}-${o.domain.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const runners: QueueRunner[] = [];
  let last: QueueProgress = { waiting: 0, active: 0, done: 0, failed: 0, workers: 0 };
  return {
    toolsConfig,
    async runner(name, policySpec, memo) {
      const r = await createQueueRunner({
        url: redis.url,
        ...(redis.queue ? { queue: redis.queue } : {}),
        run: `${stamp}-${name}`,
        policy: { model: policySpec },
        ...(o.writes ? { writes: o.writes } : {}),
        ...(o.allowLiveWrites ? { allowLiveWrites: true } : {}),
        judge: o.judgeSpec,
        memo,
        ...(redis.chunkSize !== undefined ? { chunkSize: redis.chunkSize } : {}),
        toolsHint: toolsConfig,
        ...(o.breaker ? { breaker: o.breaker } : {}),
        ...(redis.requestsPerMinute !== undefined ? { requestsPerMinute: redis.requestsPerMinute } : {}),
      });
      runners.push(r);
      return r;
    },
    async progress() {
      const each = await Promise.all(runners.map((r) => r.progress().catch(() => undefined)));
      const seen = each.filter((p): p is QueueProgress => p !== undefined);
      if (seen.length === 0) return last;
      last = {
        waiting: seen[0]!.waiting,
        active: seen[0]!.active,
        done: seen.reduce((n, p) => n + p.done, 0),
        failed: seen.reduce((n, p) => n + p.failed, 0),
        workers: Math.max(...seen.map((p) => p.workers)),
      };
      return last;
    },
    async close() {
      await Promise.allSettled(runners.map((r) => r.close()));
    },
  };
}
