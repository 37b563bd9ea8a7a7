import type { CircuitBreaker } from '../../llm/circuit-breaker.js';
import type { Judge } from '../../metrics/types.js';
import { formatProcessTree } from '../../mining/process-tree/format.js';
import type { IterationRow } from '../../search/search-context.js';
import type { Optimizer } from '../../search/optimizers/types.js';
import { createPm4pyBaseline } from '../baselines/pm4py-style.js';
import { reactAgent } from './react-agent.js';
import type { ModelWiring } from '../../wiring/wire-models.js';
import { prepareDomain, type DomainFiles } from './domain-env.js';
import { measureApproach, type MeasureContext, type Subject } from './measure.js';
import { workflowRef, type BackboneRow, type DomainResult, type SearchSummary, type ToolPair } from './results.js';
import { runVariant, type Variant } from './search-variants.js';
import type { Workflow } from '../../graph/schema.js';
import { minedG0 } from '../../search/variants.js';
import { toolSwapPairs } from './tool-swap.js';
import { splitWarning, toolCoverage, type SplitBy } from '../../records/split.js';
import { progressText } from '../../distributed/progress.js';
import { domainQueues, type BenchRedis, type DomainQueues } from './bench-queue.js';
import { isGuarded } from '../../tools/write-guard.js';

/**
 * Everything the experiments do on one domain: the FlowScout search and the LLM-only
 * search (plus NoMiner and Beam on the ablation domain), then every approach measured on the same
 * test queries `runs` times — FlowScout's best workflow, NoMCTS (G0, the search's root), the
 * PM4Py-style and ReAct baselines, the LLM-only workflow and the ablations — then the backbone swap
 * (FlowScout's workflow under each `--models` policy) and the tool-swap data check.
 */

export interface DomainRunOptions {
  seed: number;
  /** `--allow-live-writes`: write calls go to the live tools of a `--records/--tools` domain. */
  allowLiveWrites?: boolean;
  iterations: number;
  patience: number;
  runs: number;
  maxTest: number;
  maxRecords?: number;
  /** `--split-by` (see DomainEnvOptions). */
  splitBy?: SplitBy;
  concurrency: number;
  model: string;
  models: readonly string[];
  ablation: boolean;
  judge: Judge;
  optimizer: Optimizer;
  /** The run's model wiring: one rate limiter for every model request (policies, judge, optimizer, ReAct). */
  wiring: ModelWiring;
  log: (line: string) => void;
  signal?: AbortSignal;
  /** `bench --redis`: the workflow evaluations run on workers (see bench-queue.ts). */
  redis?: BenchRedis & { judgeSpec: string };
  /** The bench's circuit breaker (with `redis`, the workers' model calls are replayed into it). */
  breaker?: CircuitBreaker;
}

export interface DomainRun {
  result: DomainResult;
  backbone: BackboneRow[];
  swap: ToolPair[];
  /** The execution policy's label. */
  policy: string;
}

export async function runDomain(domain: string | DomainFiles, o: DomainRunOptions): Promise<DomainRun> {
  const env = await prepareDomain(domain, {
    seed: o.seed,
    maxTest: o.maxTest,
    model: o.model,
    wiring: o.wiring,
    ...(o.maxRecords !== undefined ? { maxRecords: o.maxRecords } : {}),
    ...(o.splitBy !== undefined ? { splitBy: o.splitBy } : {}),
    ...(o.allowLiveWrites ? { allowLiveWrites: true } : {}),
  });
  const tag = `[${env.domain}]`;
  let queues: DomainQueues | undefined;
  try {
    if (o.redis) {
      queues = await domainQueues(o.redis, {
        domain: env.domain,
        tools: env.toolSource,
        judgeSpec: o.redis.judgeSpec,
        // Write calls to live tools: the workers answer from the recorded ones this process's guard answers from.
        ...(isGuarded(env.tools) ? { writes: env.tools.recordedWrites() } : {}),
        ...(o.allowLiveWrites ? { allowLiveWrites: true } : {}),
        ...(o.breaker ? { breaker: o.breaker } : {}),
      });
      o.log(`${tag} evaluations on workers via the queue; workers started with --tools ${queues.toolsConfig} run them`);
    }
    const queueLine = async () => (queues ? o.log(`${tag} ${progressText(await queues.progress())}`) : undefined);
    const warn = splitWarning(env.split);
    if (warn) o.log(`${tag} warning: ${warn}`);
    if (env.splitLeak) o.log(`${tag} ${env.splitLeak}`);
    o.log(
      `${tag} ${env.records.length} records → D_opt ${env.split.opt.length} / D_val ${env.split.val.length} / D_test ${env.split.test.length} (measured: ${env.test.length}; split ${env.splitNote}); ${env.descriptors.length} tools; policy: ${env.policy.label}`,
    );
    const onIteration = (v: Variant, r: IterationRow) =>
      o.log(
        `${tag} ${v} iteration ${r.iteration}: ${r.status} val ${r.valScore === undefined ? '-' : r.valScore.toFixed(3)} best ${r.bestVal.toFixed(3)} · ${r.summary.slice(0, 90)}`,
      );
    const common = {
      seed: o.seed,
      iterations: o.iterations,
      patience: o.patience,
      concurrency: o.concurrency,
      judge: o.judge,
      optimizer: o.optimizer,
      onIteration,
    };
    const variants: Variant[] = ['flowscout', 'llm-only', ...(o.ablation ? (['nominer', 'beam'] as const) : [])];
    // What the measurements need of each search: its summary, best workflow and start. The search's
    // tree is dropped as soon as the search ends: keeping the four searches' trees ran the benchmark
    // of a 10,000-record log out of memory.
    const runs = new Map<Variant, { summary: SearchSummary; best: Workflow; root: Workflow }>();
    for (const v of variants) {
      o.log(`${tag} search: ${v}`);
      const runner = queues ? await queues.runner(v, env.policy.spec, true) : undefined;
      const run = await runVariant(v, env, { ...common, ...(runner ? { runner } : {}) });
      runs.set(v, { summary: run.summary, best: run.result.best.workflow!, root: run.result.root.workflow! });
      o.log(
        `${tag} ${v}: ${run.summary.stopReason}; best ${run.summary.best} val ${fmt(run.summary.bestVal)} (start ${fmt(run.summary.g0Val)}) in ${(run.summary.searchMs / 1000).toFixed(1)} s`,
      );
      await queueLine();
    }
    const flow = runs.get('flowscout')!;
    const offline = env.policy.instance.kind === 'offline' ? ' (offline)' : '';
    const subjects: Subject[] = [
      {
        id: 'flowscout',
        label: `FlowScout${offline}`,
        tcDefined: true,
        kind: 'workflow',
        workflow: flow.best,
      },
      {
        id: 'nomcts',
        label: `NoMCTS (G0)${offline}`,
        tcDefined: true,
        kind: 'workflow',
        workflow: flow.root,
      },
      {
        id: 'pm4py',
        label: `PM4Py-style${offline}`,
        tcDefined: true,
        kind: 'agent',
        agent: createPm4pyBaseline({
          tree: env.tree,
          opt: env.split.opt,
          tools: env.tools,
          policy: env.policy.instance,
        }),
      },
      {
        id: 'react',
        label: `ReAct${offline}`,
        tcDefined: true,
        kind: 'agent',
        agent: await reactAgent(env, o.model, o.wiring),
      },
      {
        id: 'llm-only',
        label: `LLM-only${offline}`,
        tcDefined: false,
        kind: 'workflow',
        workflow: runs.get('llm-only')!.best,
      },
    ];
    if (o.ablation) {
      subjects.push({
        id: 'nominer',
        label: `NoMiner${offline}`,
        tcDefined: true,
        kind: 'workflow',
        workflow: runs.get('nominer')!.best,
      });
      subjects.push({
        id: 'beam',
        label: `Beam${offline}`,
        tcDefined: true,
        kind: 'workflow',
        workflow: runs.get('beam')!.best,
      });
      // What the routes add: the mined G0 without its router (the skeleton alone), not searched, beside NoMCTS (G0).
      subjects.push({
        id: 'noroutes',
        label: `NoRoutes (G0 skeleton)${offline}`,
        tcDefined: true,
        kind: 'workflow',
        workflow: minedG0(env.split.opt, env.descriptors, { routes: false, source: env.domain }),
      });
    }
    const measured = queues ? await queues.runner('measure', env.policy.spec, false) : undefined;
    const ctx: MeasureContext = {
      policy: env.policy.instance,
      tools: env.tools,
      judge: o.judge,
      runs: o.runs,
      concurrency: o.concurrency,
      ...(o.signal ? { signal: o.signal } : {}),
      ...(measured ? { runnerFor: (salt: string) => measured.withSalt(salt) } : {}),
    };
    const approaches = [];
    for (const s of subjects) {
      const a = await measureApproach(s, env.test, ctx);
      approaches.push(a);
      o.log(
        `${tag} measured ${a.label}: TC ${a.tc === null ? 'n/a' : a.tc.toFixed(3)} ES ${a.es.toFixed(3)} CV ${a.cv.toFixed(4)} (${o.runs} runs × ${env.test.length} queries)`,
      );
    }

    await queueLine();
    const backbone: BackboneRow[] = [];
    if (o.models.length === 0) {
      const f = approaches[0]!;
      backbone.push({ domain: env.domain, model: o.model, policy: env.policy.label, tc: f.tc ?? 0, es: f.es });
    }
    for (const m of o.models) {
      const p = await o.wiring.policy(m, { tools: env.descriptors });
      const swapped = queues ? await queues.runner(`backbone-${backbone.length}`, p.spec, false) : undefined;
      const a = await measureApproach(subjects[0]!, env.test, {
        ...ctx,
        policy: p.instance,
        runs: 1,
        ...(swapped ? { runnerFor: (salt: string) => swapped.withSalt(salt) } : {}),
      });
      backbone.push({ domain: env.domain, model: p.spec, policy: p.label, tc: a.tc ?? 0, es: a.es });
      o.log(`${tag} backbone ${p.spec}: TC ${(a.tc ?? 0).toFixed(3)} ES ${a.es.toFixed(3)}`);
    }

    const searches: SearchSummary[] = [...runs.values()].map((r) => r.summary);
    const result: DomainResult = {
      domain: env.domain,
      source: env.source,
      records: env.records.length,
      split: {
        opt: env.split.opt.length,
        val: env.split.val.length,
        test: env.split.test.length,
        measured: env.test.length,
        by: env.splitBy,
        note: env.splitNote,
        coverage: toolCoverage(env.split.opt, env.test),
      },
      tools: env.descriptors.length,
      processTree: formatProcessTree(env.tree),
      searches,
      approaches,
      bestWorkflow: workflowRef(flow.best),
    };
    return {
      result,
      backbone,
      swap: toolSwapPairs(env.domain, env.records, env.test, env.descriptors),
      policy: env.policy.label,
    };
  } finally {
    await queues?.close();
    await env.tools.close();
  }
}

function fmt(x: number | null): string {
  return x === null ? '-' : x.toFixed(3);
}
