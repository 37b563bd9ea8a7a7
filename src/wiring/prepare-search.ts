import { assertValidWorkflow } from '../graph/validate.js';
import { readJsonFile } from '../util/json-file.js';
import type { JudgeMode } from '../metrics/llm-judge.js';
import type { Price } from '../llm/prices.js';
import { randomBytes } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import { FlowScoutError } from '../errors/index.js';
import { readRecordsFile } from '../records/read-records.js';
import { recordsLabel } from '../records/records-label.js';
import {
  describeSplitBy,
  nearDuplicateWarning,
  parseSplitRatio,
  resolveSplitBy,
  splitRecords,
  type SplitBy,
} from '../records/split.js';
import { createCircuitBreaker, type CircuitBreaker } from '../llm/circuit-breaker.js';
import type { Store } from '../store/open-store.js';
import { createResourceStack } from '../util/resource-stack.js';
import { acquireRunLock, type HeldLock } from '../store/run-lock.js';
import { loadToolConfig } from '../tools/load-tool-config.js';
import type { GuardedToolRegistry } from '../tools/write-guard.js';
import { ensureWritableDir } from '../search/artifacts.js';
import { createBudgetWatch } from '../search/budget-watch.js';
import type { SearchLabels } from '../search/format-search.js';
import { checkRunInputs, runInputs } from './run-inputs.js';
import { parseStoredConfig } from './stored-config.js';
import type { RunSearchInput } from '../search/run-search.js';
import { DEFAULT_SETTINGS, noToolNodes, type SearchSettings } from '../search/search-context.js';
import { START_LABELS, startWorkflow, type SearchStart } from '../search/variants.js';
import type { RecordRunner } from '../evaluate/types.js';
import type { Budget } from '../llm/budget.js';
import type { Call, TaskRecord } from '../records/schema.js';
import { createModelWiring, wireModels } from './wire-models.js';

/**
 * Turns the settings of `flowscout search` (or of a stored run, for `--resume`) into a ready search:
 * records read and split (D_opt, D_val, D_test), tools loaded, the policy, judge and optimizer
 * resolved from model strings (`offline` when nothing is configured: offline policy, lexical judge,
 * rule-based optimizer), one budget and rate limiter shared by every model client, G0 built, and the
 * run row created (or reloaded). The config stored with the run holds everything needed to resume
 * it, and no secrets (model strings and file paths only).
 *
 * Before anything is spent: a resumed run must be unfinished, held by no other live process (the
 * run's lock, `store/run-lock.ts`) and started on the same inputs (`search/run-inputs.ts`); the
 * output folder is created and written to once; and every configured model answers one tiny
 * request (`llm/probe.ts`), so a rejected key or an unreachable host stops the command at once.
 */

/** How the run's model requests behave (the CLI's `--model-timeout`, stderr, `--breaker`). */
export interface ModelCallOptions {
  /** Per-request timeout in ms. */
  timeoutMs?: number;
  /** Receives retry and failure lines (the CLI prints them on stderr). */
  log?: (line: string) => void;
  /** Calls in a row failing alike that stop the run (circuit breaker; 0 = never). */
  breakerThreshold?: number;
  /** Check each model with one request before starting (default true). */
  probe?: boolean;
  /** Delay before the probe's one retry (tests). */
  probeBaseDelayMs?: number;
  /** `false` when nothing will be sent (`--dry-run`): a missing API key is no error. */
  requireKeys?: boolean;
}

/** The settings of a run as stored with it (enough to resume it; no secrets). */
export interface SearchConfig {
  records: string;
  tools: string;
  model?: string;
  optimizerModel?: string;
  judgeModel?: string;
  /** How the LLM judge asks (absent: DEFAULT_JUDGE_MODE, joint). */
  judgeMode?: JudgeMode;
  split: string;
  /** `auto` (the default): by group when the records have groups, else by record. */
  splitBy: SplitBy;
  start: SearchStart;
  /** `--from`: the workflow file the search starts from instead of the one `start` builds (absolute). */
  from?: string;
  strategy: 'mcts' | 'beam' | 'none';
  memo: boolean;
  settings: SearchSettings;
  budget: { calls?: number; tokens?: number; usd?: number; minutes?: number };
  outDir?: string;
  /** Skip (and count) invalid record lines instead of refusing the file. */
  skipInvalid?: boolean;
  /** `--allow-live-writes`: write calls go to live tools during the search (stored only when set). */
  allowLiveWrites?: boolean;
}

/** A search ready to run, with what the CLI prints about it. */
export interface PreparedSearch {
  input: RunSearchInput;
  runId: string;
  outDir: string;
  labels: SearchLabels;
  resumed: boolean;
  config: SearchConfig;
  /** Which parts call a model, and the policy model's price (for the cost projection). */
  models: {
    policy: 'llm' | 'offline';
    judge: 'llm' | 'offline';
    optimizer: 'llm' | 'offline';
    price?: Price;
    priced: boolean;
  };
  /** Invalid record lines skipped (`skipInvalid`). */
  skippedRecords: number;
  /** How the records were split: `by group (…)` or `by record`. */
  splitNote: string;
  /** Set when, split by record, near-identical requests fall in different parts. */
  splitLeak?: string;
  /** Set when this process took over the lock of a driver that died. */
  tookOverFrom?: { pid: number; host: string };
  close(): Promise<void>;
}

/** A run id: `run-<UTC date>-<time>-<4 hex>`. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `run-${stamp}-${randomBytes(2).toString('hex')}`;
}

/** What a distributed search's record runner is made from (the run, who decides and judges). */
export interface RunnerRequest {
  runId: string;
  policySpec: string;
  judgeSpec: string;
  judgeMode?: JudgeMode;
  memo: boolean;
  /** The tool config, absolute. */
  toolsConfig: string;
  /** The recorded write calls the run's write guard answers from (the workers answer from them too). */
  writes: readonly Call[];
  /** The run's `--allow-live-writes` (a worker sends write calls to live tools only for a run that allows them). */
  allowLiveWrites: boolean;
  /** The run's budget: the runner charges the workers' usage to it. */
  budget: Budget;
  /** The run's circuit breaker: the runner replays the workers' model calls into it. */
  breaker: CircuitBreaker;
}

/** A record runner the search owns and closes (the Redis queue of `--redis`). */
export interface OwnedRunner extends RecordRunner {
  close(): Promise<void>;
}

/**
 * Prepares a new run from `config`, or a stored one for `resume` (see the module comment).
 * `runner`, when given, makes the record runner every evaluation of the run goes through
 * (`search --redis`: the CLI passes the queue's factory; nothing about it is stored with the run,
 * so a run can be resumed with or without workers).
 */
export async function prepareSearch(
  store: Store,
  opts: {
    config?: SearchConfig;
    resume?: string;
    budget?: SearchConfig['budget'];
    env?: Record<string, string | undefined>;
    calls?: ModelCallOptions;
    runner?: (req: RunnerRequest) => Promise<OwnedRunner>;
  },
): Promise<PreparedSearch> {
  const stored = opts.resume ? store.getRun(opts.resume) : undefined;
  if (stored && stored.status === 'done') {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `run '${stored.id}' already finished (${stored.stopReason ?? 'done'})`,
      hint: `See it with \`flowscout runs show ${stored.id}\` (\`--write <dir>\` writes its files again); start a new search to go further.`,
    });
  }
  const config = stored ? parseStoredConfig<SearchConfig>(store.file, stored) : opts.config!;
  if (opts.budget) config.budget = { ...config.budget, ...definedOnly(opts.budget) };
  const env = opts.env ?? process.env;
  const runId = stored?.id ?? newRunId();
  const outDir = resolve(config.outDir ?? join('.flowscout', 'runs', runId));
  const calls = opts.calls ?? {};

  // Everything taken below is released by one stack: all of it when preparing fails, in `close()` otherwise.
  const held = createResourceStack();
  try {
    let lock: HeldLock | undefined;
    if (stored) {
      lock = held.use(acquireRunLock(store, runId), (l) => l.release());
      checkRunInputs(
        runId,
        stored.inputs,
        runInputs(config),
        `flowscout search --records ${config.records} --tools ${config.tools} (add --out <new folder>)`,
      );
    }
    ensureWritableDir(outDir);
    const read = await readRecordsFile(config.records, config.skipInvalid ? { skipInvalid: true } : {});
    if (read.records.length === 0) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `no records in ${config.records}`,
        hint: 'Pass a records JSONL file with records to search on.',
        location: { file: config.records },
      });
    }
    const by = resolveSplitBy(read.records, config.splitBy, config.records);
    const splits = splitRecords(read.records, { ratio: parseSplitRatio(config.split), seed: config.settings.seed, by });
    const splitNote = describeSplitBy(read.records, by, config.splitBy);
    const leak = by === 'record' ? nearDuplicateWarning(read.records, splits) : undefined;
    if (splits.opt.length === 0 || splits.val.length === 0) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `the split ${config.split} of ${read.records.length} records leaves D_opt or D_val empty`,
        hint: 'Give D_opt and D_val a share (e.g. --split 5:2:3) and enough records.',
      });
    }
    const budget = held.use(
      createBudgetWatch({
        ...(config.budget.calls !== undefined ? { maxLlmCalls: config.budget.calls } : {}),
        ...(config.budget.tokens !== undefined ? { maxTokens: config.budget.tokens } : {}),
        ...(config.budget.usd !== undefined ? { maxCostUsd: config.budget.usd } : {}),
        ...(config.budget.minutes !== undefined ? { maxWallMs: config.budget.minutes * 60_000 } : {}),
      }),
      (b) => b.dispose(),
    );
    const breaker = createCircuitBreaker(
      calls.breakerThreshold !== undefined ? { threshold: calls.breakerThreshold } : {},
    );
    const wiring = {
      ...(config.model !== undefined ? { model: config.model } : {}),
      ...(config.judgeModel !== undefined ? { judgeModel: config.judgeModel } : {}),
      ...(config.judgeMode !== undefined ? { judgeMode: config.judgeMode } : {}),
      ...(config.optimizerModel !== undefined ? { optimizerModel: config.optimizerModel } : {}),
      budget: budget.budget,
      limits: { concurrency: config.settings.concurrency },
      env,
      breaker,
      ...(calls.timeoutMs !== undefined ? { timeoutMs: calls.timeoutMs } : {}),
      ...(calls.log ? { log: calls.log } : {}),
      ...(calls.requireKeys === false ? { requireKeys: false } : {}),
    };
    if (calls.probe !== false) {
      await createModelWiring(wiring).probe(
        [
          { role: 'policy', spec: config.model },
          { role: 'judge', spec: config.judgeModel ?? config.model },
          { role: 'optimizer', spec: config.optimizerModel ?? config.model },
        ],
        calls.probeBaseDelayMs !== undefined ? { baseDelayMs: calls.probeBaseDelayMs } : {},
      );
    }
    // Every candidate runs on every D_opt and D_val record: write calls to live tools are answered
    // from the records' recorded responses or refused, unless the run allows live writes.
    const tools: GuardedToolRegistry = held.use(
      await loadToolConfig(config.tools, {
        guardWrites: { allowLiveWrites: config.allowLiveWrites === true, records: read.records },
        ...(calls.log ? { warn: calls.log } : {}),
      }),
      (t) => t.close(),
    );
    const models = await wireModels({ ...wiring, tools: tools.list() });
    const { policy, judge } = models;
    const optimizer = models.optimizer.instance;
    const g0 = config.from
      ? assertValidWorkflow(readJsonFile(config.from), tools.list(), config.from)
      : startWorkflow(config.start, splits.opt, tools.list(), { source: recordsLabel(config.records) });
    const runner = opts.runner
      ? held.use(
          await opts.runner({
            runId,
            policySpec: policy.spec,
            judgeSpec: judge.spec,
            ...(config.judgeMode ? { judgeMode: config.judgeMode } : {}),
            memo: config.memo,
            toolsConfig: resolve(config.tools),
            writes: tools.recordedWrites(),
            allowLiveWrites: config.allowLiveWrites === true,
            budget: budget.budget,
            breaker,
          }),
          (r) => r.close(),
        )
      : undefined;
    const labels: SearchLabels = {
      policy: policy.label,
      judge: judge.label,
      optimizer: optimizer.label,
      offline: models.offline,
    };
    let replaced: PreparedSearch['tookOverFrom'];
    if (!stored) {
      store.createRun({
        id: runId,
        status: 'running',
        seed: config.settings.seed,
        strategy: config.strategy,
        config: {
          ...config,
          records: resolve(config.records),
          tools: resolve(config.tools),
          outDir,
        } as unknown as Record<string, unknown>,
        policyLabel: labels.policy,
        judgeLabel: labels.judge,
        optimizerLabel: labels.optimizer,
        recordsFile: resolve(config.records),
        outDir,
        iterationsDone: 0,
        sinceImprovement: 0,
        inputs: runInputs(config),
      });
      held.use(acquireRunLock(store, runId), (l) => l.release());
    } else {
      store.updateRun(runId, { status: 'running' });
      if (lock?.replaced) replaced = { pid: lock.replaced.pid, host: lock.replaced.host };
    }
    const input: RunSearchInput = {
      settings: config.settings,
      splits,
      g0,
      startLabel: config.from ? `from ${basename(config.from)}` : START_LABELS[config.start],
      strategy: config.strategy,
      memo: config.memo,
      policy: policy.instance,
      tools,
      judge: judge.instance,
      optimizer,
      budget,
      breaker,
      persist: { store, runId },
      ...(config.settings.llmOnly ? { constraint: noToolNodes } : {}),
      ...(runner ? { runner } : {}),
    };
    const client = policy.client ?? judge.client;
    const kinds = {
      policy: policy.instance.kind === 'llm' ? ('llm' as const) : ('offline' as const),
      judge: judge.instance.kind === 'offline' ? ('offline' as const) : ('llm' as const),
      optimizer: optimizer.kind === 'offline' ? ('offline' as const) : ('llm' as const),
      ...(client?.priced ? { price: client.price } : {}),
      priced: client ? client.priced : true,
    };
    const owned = held.move();
    return {
      input,
      runId,
      outDir,
      labels,
      resumed: Boolean(stored),
      config,
      models: kinds,
      skippedRecords: read.skipped,
      splitNote,
      ...(leak ? { splitLeak: leak } : {}),
      ...(replaced ? { tookOverFrom: replaced } : {}),
      close: () => owned.dispose(),
    };
  } catch (e) {
    await held.dispose().catch(() => undefined);
    throw e;
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Settings with the defaults filled in. */
export function searchSettings(partial: Partial<SearchSettings> & { seed: number }): SearchSettings {
  return { ...DEFAULT_SETTINGS, ...definedOnly(partial) } as SearchSettings;
}
