import { codeVersion } from './code-version.js';
import { createCircuitBreaker } from '../../llm/circuit-breaker.js';
import { createModelWiring } from '../../wiring/wire-models.js';
import { unavailableReason, type DomainFiles } from './domain-env.js';
import type { AblationRow, BackboneRow, BenchResults, BenchSettings, DomainResult, ToolPair } from './results.js';
import { runDomain } from './run-domain.js';
import { significanceFamilies } from './significance.js';
import { toolSwapNote } from './tool-swap.js';
import type { BenchRedis } from './bench-queue.js';

/**
 * `flowscout bench` as a function: the paper's RQ1–RQ4 on the bundled
 * TRAJECT-Bench domains, with every number in the returned `BenchResults` (the report, the figures
 * and `results.json` are drawn from it). Domains run one after another; a domain without data
 * (Sports) is listed as unavailable with the reason.
 */

export interface BenchOptions extends Omit<BenchSettings, 'models' | 'split' | 'splitBy'> {
  /** `--split-by` (default: record for the bundled domains, auto for your records). */
  splitBy?: BenchSettings['splitBy'];
  /** A domain of your own (records and a tool config), run after the bundled `domains`. */
  files?: DomainFiles;
  /** `--allow-live-writes`: write calls go to the live tools of `files` (default: answered from its records' replay or refused). */
  allowLiveWrites?: boolean;
  model?: string;
  models?: string[];
  judgeModel?: string;
  /** The command line as typed, printed at the top of the report. */
  command: string;
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
  now?: () => number;
  signal?: AbortSignal;
  /** Per-request timeout of model calls (ms). */
  modelTimeoutMs?: number;
  /** Receives model retry lines and the start-up check (the CLI prints them on stderr). */
  modelLog?: (line: string) => void;
  /** `--redis`: run the workflow evaluations on `flowscout worker`s (see bench-queue.ts); not part of the results. */
  redis?: BenchRedis;
}

export async function runBench(opts: BenchOptions): Promise<BenchResults> {
  const now = opts.now ?? Date.now;
  const started = now();
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  // One rate limiter, sized by --concurrency, for every model request of the run.
  // One circuit breaker: a model that stops working mid-bench stops the bench with its error (not zeros).
  const breaker = createCircuitBreaker();
  const wiring = createModelWiring({
    limits: { concurrency: opts.concurrency },
    env,
    breaker,
    ...(opts.modelTimeoutMs !== undefined ? { timeoutMs: opts.modelTimeoutMs } : {}),
    ...(opts.modelLog ? { log: opts.modelLog } : {}),
  });
  const model = wiring.chosen(opts.model);
  const models = (opts.models ?? []).map((m) => wiring.chosen(m));
  // Every model answers one tiny request before anything is run (a dead key stops the bench at once).
  await wiring.probe([
    { role: 'policy and optimizer', spec: model },
    { role: 'judge', spec: wiring.chosen(opts.judgeModel ?? model) },
    ...models.map((m) => ({ role: 'backbone', spec: m })),
  ]);
  const judge = await wiring.judge(wiring.chosen(opts.judgeModel ?? model));
  const optimizer = (await wiring.optimizer(model)).instance;
  const all: Array<string | DomainFiles> = [...opts.domains, ...(opts.files ? [opts.files] : [])];
  const settings: BenchSettings = {
    domains: all.map((d) => (typeof d === 'string' ? d : d.name)),
    seed: opts.seed,
    iterations: opts.iterations,
    patience: opts.patience,
    runs: opts.runs,
    maxTest: opts.maxTest,
    split: [5, 2, 3],
    splitBy: opts.splitBy ?? (opts.files ? 'auto' : 'record'),
    ablationDomain: opts.ablationDomain,
    models,
    concurrency: opts.concurrency,
    ...(opts.maxRecords !== undefined ? { maxRecords: opts.maxRecords } : {}),
  };

  const unavailable: BenchResults['unavailableDomains'] = [];
  const domains: DomainResult[] = [];
  const backbone: BackboneRow[] = [];
  const swap: ToolPair[] = [];
  let policyLabel: string | undefined;
  for (const domain of all) {
    const reason = typeof domain === 'string' ? unavailableReason(domain) : undefined;
    if (reason) {
      unavailable.push({ domain: domain as string, reason });
      log(`[${domain as string}] not run: ${reason}`);
      continue;
    }
    const run = await runDomain(domain, {
      seed: opts.seed,
      iterations: opts.iterations,
      patience: opts.patience,
      runs: opts.runs,
      maxTest: opts.maxTest,
      concurrency: opts.concurrency,
      model,
      models,
      ablation: ablationDomains(opts.ablationDomain).includes(
        (typeof domain === 'string' ? domain : domain.name).toLowerCase(),
      ),
      judge: judge.instance,
      optimizer,
      wiring,
      log,
      ...(opts.maxRecords !== undefined ? { maxRecords: opts.maxRecords } : {}),
      ...(opts.splitBy !== undefined ? { splitBy: opts.splitBy } : {}),
      ...(opts.allowLiveWrites ? { allowLiveWrites: true } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.redis ? { redis: { ...opts.redis, judgeSpec: judge.spec } } : {}),
      breaker,
    });
    const trip = breaker.tripped();
    if (trip) throw trip;
    domains.push(run.result);
    backbone.push(...run.backbone);
    swap.push(...run.swap);
    policyLabel ??= run.policy;
  }
  if (opts.domains.length > 0 && !opts.domains.some((d) => d.toLowerCase() === 'sports')) {
    unavailable.push({ domain: 'Sports', reason: unavailableReason('Sports')! });
  }

  const labels: BenchResults['labels'] = {
    policy: policyLabel ?? (model === 'offline' ? 'offline policy (no LLM)' : `LLM policy (${model})`),
    policyKind: model === 'offline' ? 'offline' : 'llm',
    model,
    judge: judge.label,
    judgeKind: judge.instance.kind,
    optimizer: optimizer.label,
    offline: model === 'offline' && judge.instance.kind === 'offline' && optimizer.kind === 'offline',
  };
  const ablationDomain = domains.find((d) => ablationDomains(opts.ablationDomain).includes(d.domain.toLowerCase()));
  const swapNote = toolSwapNote(swap);
  return {
    version: 1,
    command: opts.command,
    code: codeVersion(),
    startedAt: new Date(started).toISOString(),
    durationMs: now() - started,
    settings,
    labels,
    unavailableDomains: unavailable,
    domains,
    significance: significanceFamilies(domains, opts.seed),
    ablation: ablationDomain ? { domain: ablationDomain.domain, rows: ablationRows(ablationDomain) } : null,
    backbone: { rows: backbone, note: backboneNote(models, model) },
    toolSwap: { pairs: swap, run: swapNote.run, note: swapNote.note },
    notes: resultNotes(domains, labels),
  };
}

/** The ablation domains of `--ablation-domain` (a comma-separated list), lower-cased. */
export function ablationDomains(list: string): string[] {
  return list
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
}

function ablationRows(d: DomainResult): AblationRow[] {
  const search = (v: string) => d.searches.find((s) => s.variant === v);
  const rows: AblationRow[] = [];
  for (const [id, variant] of [
    ['flowscout', 'flowscout'],
    ['nomcts', undefined],
    ['noroutes', undefined],
    ['nominer', 'nominer'],
    ['beam', 'beam'],
  ] as const) {
    const a = d.approaches.find((x) => x.id === id);
    if (!a) continue;
    const s = variant ? search(variant) : undefined;
    rows.push({
      id,
      label: a.label,
      tc: a.tc ?? 0,
      es: a.es,
      searchMs: s?.searchMs ?? 0,
      candidates: s?.candidates ?? 1,
    });
  }
  return rows;
}

function backboneNote(models: readonly string[], model: string): string {
  if (models.length > 0)
    return `FlowScout's best workflow (searched with ${model}) run once on the test queries under each model's policy.`;
  if (model === 'offline')
    return 'No --models were given and no model is configured: the only backbone is the offline policy, which is not an LLM. Table V needs models (--models openai:gpt-4o-mini,anthropic:claude-3-5-haiku-latest with their API keys).';
  return `No --models were given: the one row is the model the search ran with (${model}).`;
}

function resultNotes(domains: readonly DomainResult[], labels: BenchResults['labels']): string[] {
  const notes: string[] = [];
  const cvs = domains.flatMap((d) => d.approaches.map((a) => a.cv));
  if (labels.policyKind === 'offline' && labels.judgeKind === 'offline' && cvs.every((c) => c === 0)) {
    notes.push(
      'With the offline policy and the lexical judge every approach is deterministic: repeated runs give identical calls, answers and scores, so every CV of ES is 0 by construction. No noise is injected; stability differences appear only with a model (--model).',
    );
  }
  if (labels.offline)
    notes.push(
      "Every number in this report is an OFFLINE figure: no LLM ran anywhere (offline policy, lexical judge, rule-based optimizer). Offline figures are not LLM figures and are not comparable with the paper's.",
    );
  return notes;
}
