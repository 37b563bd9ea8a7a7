import type { CircuitBreaker } from '../../llm/circuit-breaker.js';
import type { Workflow } from '../../graph/schema.js';
import type { Judge } from '../../metrics/types.js';
import type { RecordRunner } from '../../evaluate/types.js';
import { runSearch, type SearchResult } from '../../search/run-search.js';
import { DEFAULT_SETTINGS, noToolNodes, type IterationRow, type SearchSettings } from '../../search/search-context.js';
import type { Optimizer } from '../../search/optimizers/types.js';
import { START_LABELS, startWorkflow, type SearchStart } from '../../search/variants.js';
import type { DomainEnv } from './domain-env.js';
import type { IterationPoint, SearchSummary } from './results.js';

/**
 * The searches of the experiments (docs/DESIGN.md, "Baselines and ablations"), all through the search's
 * own entry point (`runSearch`) with the same settings, tools, policy, judge and optimizer:
 *
 * - `flowscout`: MCTS from the mined G0 (the paper's method); its root is the NoMCTS ablation;
 * - `nominer`: MCTS from plan → one generic tool node → synthesize;
 * - `beam`: beam search (top 3 per step) from G0 with the same candidate budget J;
 * - `llm-only`: MCTS from plan → reason → synthesize with tool nodes forbidden (AFlow-style).
 *
 * D_test is not given to the search (the benchmark measures the test set itself, repeatedly), so
 * the search only ever sees D_opt and D_val.
 */

export type Variant = SearchSummary['variant'];

export interface VariantOptions {
  seed: number;
  iterations: number;
  patience: number;
  concurrency: number;
  judge: Judge;
  optimizer: Optimizer;
  onIteration?: (variant: Variant, row: IterationRow) => void;
  now?: () => number;
  /** The command's circuit breaker: once tripped, the search stops with the model's error. */
  breaker?: CircuitBreaker;
  /** Where the search's records run (`bench --redis`: the workers); default this process. */
  runner?: RecordRunner;
}

export interface VariantRun {
  result: SearchResult;
  summary: SearchSummary;
  g0: Workflow;
}

/** Where a variant's search starts. */
export function variantStartKind(variant: Variant): SearchStart {
  return variant === 'nominer' ? 'plain' : variant === 'llm-only' ? 'llm-only' : 'mined';
}

/** The start workflow of a variant. */
export function variantStart(variant: Variant, env: DomainEnv): Workflow {
  return startWorkflow(variantStartKind(variant), env.split.opt, env.descriptors, { source: env.domain });
}

export async function runVariant(variant: Variant, env: DomainEnv, opts: VariantOptions): Promise<VariantRun> {
  const now = opts.now ?? Date.now;
  const settings: SearchSettings = {
    ...DEFAULT_SETTINGS,
    seed: opts.seed,
    iterations: opts.iterations,
    patience: opts.patience,
    concurrency: opts.concurrency,
    strategy: variant === 'beam' ? 'beam' : 'mcts',
    llmOnly: variant === 'llm-only',
  };
  const g0 = variantStart(variant, env);
  const started = now();
  const result = await runSearch({
    settings,
    splits: { opt: env.split.opt, val: env.split.val, test: [] },
    g0,
    startLabel: START_LABELS[variantStartKind(variant)],
    policy: env.policy.instance,
    tools: env.tools,
    judge: opts.judge,
    optimizer: opts.optimizer,
    ...(opts.breaker ? { breaker: opts.breaker } : {}),
    ...(opts.runner ? { runner: opts.runner } : {}),
    ...(variant === 'llm-only' ? { constraint: noToolNodes } : {}),
    ...(opts.onIteration ? { onIteration: (row: IterationRow) => opts.onIteration!(variant, row) } : {}),
  });
  const searchMs = now() - started;
  return { result, g0, summary: summarize(variant, result, searchMs) };
}

export function summarize(variant: Variant, result: SearchResult, searchMs: number): SearchSummary {
  const start: IterationPoint = {
    iteration: 0,
    status: 'ok',
    valScore: result.root.valScore ?? null,
    bestVal: result.root.valScore ?? 0,
    summary: result.root.summary ?? 'G0',
  };
  const rows = result.iterations.filter((r) => r.iteration > 0);
  return {
    variant,
    searchMs,
    candidates: result.tree.size,
    stopReason: result.stopReason,
    best: result.best.id,
    bestSummary: result.best.summary ?? '',
    bestPath: result.tree.pathTo(result.best.id).map((c) => ({ id: c.id, summary: c.summary ?? '' })),
    iterations: [
      start,
      ...rows.map((r) => ({
        iteration: r.iteration,
        status: r.status,
        valScore: r.valScore ?? null,
        bestVal: r.bestVal,
        summary: r.summary,
      })),
    ],
    g0Val: result.root.valScore ?? null,
    bestVal: result.best.valScore ?? null,
  };
}
