import type { JudgeMode } from '../metrics/llm-judge.js';
import type { Budget } from '../llm/budget.js';
import type { CircuitBreaker } from '../llm/circuit-breaker.js';
import { probeModels, type ProbeTarget } from '../llm/probe.js';
import { createRateLimiter, type RateLimiter, type RateLimiterOptions } from '../llm/rate-limiter.js';
import { resolveModel, type ResolvedModel } from '../llm/resolve-model.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import {
  chosenModel,
  resolveJudge,
  resolveOptimizer,
  resolvePolicy,
  type ClientOptions,
  type ResolvedJudge,
  type ResolvedOptimizer,
  type ResolvedPolicy,
} from './resolve-models.js';

/**
 * The one place where model strings become who decides, for every command (`run`, `eval`,
 * `search`, `bench`, `demo`) and the benchmarks: `{ model, judgeModel, optimizerModel, budget,
 * limits, env }` → the policy, the judge, the optimizer, the client options they share and ONE rate
 * limiter, sized by the command's `--concurrency`, that bounds every model request of the command
 * (policy, judge, optimizer, tool simulator, ReAct baseline alike), with the command's per-request
 * timeout (`--model-timeout`), its retry lines (stderr) and its circuit breaker. `probe` checks each
 * model with one tiny request before a command spends anything (`llm/probe.ts`). Without a model
 * everything is offline (offline policy, lexical judge, rule-based optimizer) and no client is made.
 */

/** What a command knows about its models before it runs. */
export interface ModelSettings {
  /** Who decides at the nodes; `undefined` → `FLOWSCOUT_MODEL` or `offline`. */
  model?: string;
  /** The ES judge (default: `model`). */
  judgeModel?: string;
  /** How the LLM judge asks: jointly (default) or per dimension. */
  judgeMode?: JudgeMode;
  /** The optimizer (default: `model`). */
  optimizerModel?: string;
  /** One budget every model client spends from. */
  budget?: Budget;
  /** The shared rate limiter's limits (`concurrency`: model requests in flight; default 4). */
  limits?: RateLimiterOptions;
  /** A limiter to share instead of making one from `limits`. */
  limiter?: RateLimiter;
  env?: Record<string, string | undefined>;
  /** Per-request timeout of every model call (ms; `--model-timeout`). */
  timeoutMs?: number;
  /** Receives retry and failure lines of model calls (the CLI prints them on stderr). */
  log?: (line: string) => void;
  /** The command's circuit breaker, shared by every client. */
  breaker?: CircuitBreaker;
  /** `false` for a command that sends nothing (`search --dry-run`): missing API keys are no error. */
  requireKeys?: boolean;
}

/** The shared pieces: the limiter, the client options every client is made with, and resolvers that use them. */
export interface ModelWiring {
  env: Record<string, string | undefined>;
  /** The one rate limiter of the command. */
  limiter: RateLimiter;
  /** What every client of the command is made with (the limiter, the budget). */
  client: ClientOptions;
  /** `chosenModel` under this wiring's environment. */
  chosen(spec: string | undefined): string;
  /** The execution policy over `tools`: it reads the request, the tools and the node it runs, never the records. */
  policy(spec: string | undefined, opts: { tools: readonly ToolDescriptor[] }): Promise<ResolvedPolicy>;
  judge(spec: string | undefined, mode?: JudgeMode): Promise<ResolvedJudge>;
  optimizer(spec: string | undefined): Promise<ResolvedOptimizer>;
  /** A model string resolved to an AI SDK model (for agents that drive the model themselves, e.g. ReAct). */
  languageModel(spec: string): Promise<ResolvedModel>;
  /** One tiny request to every distinct model of `targets` (offline skipped); MODEL_UNAVAILABLE when one cannot work. */
  probe(targets: readonly ProbeTarget[], opts?: { baseDelayMs?: number }): Promise<void>;
}

/** The shared limiter and client options of one command (see the module comment). */
export function createModelWiring(
  settings: Omit<ModelSettings, 'model' | 'judgeModel' | 'optimizerModel'> = {},
): ModelWiring {
  const env = settings.env ?? process.env;
  const limiter = settings.limiter ?? createRateLimiter(settings.limits ?? {});
  const client: ClientOptions = {
    limiter,
    ...(settings.budget ? { budget: settings.budget } : {}),
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
    ...(settings.log ? { log: settings.log } : {}),
    ...(settings.breaker ? { breaker: settings.breaker } : {}),
  };
  const keys = settings.requireKeys === false ? { requireKeys: false } : {};
  return {
    env,
    limiter,
    client,
    chosen: (spec) => chosenModel(spec, env),
    policy: (spec, opts) =>
      resolvePolicy(spec, {
        tools: opts.tools,
        client,
        env,
        ...keys,
      }),
    judge: (spec, mode) => resolveJudge(spec, { client, env, ...keys, ...(mode ? { mode } : {}) }),
    optimizer: (spec) => resolveOptimizer(spec, { client, env, ...keys }),
    languageModel: (spec) => resolveModel(spec, { env }),
    probe: (targets, opts = {}) =>
      probeModels(targets, {
        env,
        ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
        ...(settings.log ? { log: settings.log } : {}),
        ...opts,
      }),
  };
}

/** Everything a command that runs, scores and searches needs. */
export interface WiredModels {
  wiring: ModelWiring;
  limiter: RateLimiter;
  policy: ResolvedPolicy;
  judge: ResolvedJudge;
  optimizer: ResolvedOptimizer;
  /** True when nothing of the three calls a model. */
  offline: boolean;
}

/** Resolves the policy (over `tools`), the judge and the optimizer with one shared limiter. */
export async function wireModels(settings: ModelSettings & { tools: readonly ToolDescriptor[] }): Promise<WiredModels> {
  const wiring = createModelWiring(settings);
  const policy = await wiring.policy(settings.model, { tools: settings.tools });
  const judge = await wiring.judge(settings.judgeModel ?? settings.model, settings.judgeMode);
  const optimizer = await wiring.optimizer(settings.optimizerModel ?? settings.model);
  const offline =
    policy.instance.kind !== 'llm' && judge.instance.kind === 'offline' && optimizer.instance.kind === 'offline';
  return { wiring, limiter: wiring.limiter, policy, judge, optimizer, offline };
}
