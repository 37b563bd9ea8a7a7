import { resolve } from 'node:path';
import { FlowScoutError } from '../../errors/index.js';
import { JUDGE_MODES } from '../../metrics/llm-judge.js';
import { parseSplitRatio } from '../../records/split.js';
import { searchSettings, type SearchConfig } from '../../wiring/prepare-search.js';
import { oneOf } from '../parse-number.js';
import { queueSettings, type QueueSettings } from '../queue-flags.js';
import { parseSplitBy } from '../split-flag.js';
import type { SearchFlags } from './search-flags.js';

/** The search configuration `flowscout search`'s flags make (search.ts; the flags are declared in search-flags.ts). */

export function distributedFrom(flags: SearchFlags): QueueSettings | undefined {
  return queueSettings(flags, 'evaluations');
}

export function configFrom(flags: SearchFlags, budget: SearchConfig['budget']): SearchConfig {
  if (!flags.records || !flags.tools) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: 'search needs --records <file> and --tools <config> (or --resume <run>)',
      hint: 'For example: flowscout import traject --domain Finance --out data/finance, then flowscout search --records data/finance/records.jsonl --tools data/finance/tools.config.json',
    });
  }
  parseSplitRatio(flags.split);
  const strategy = oneOf(flags.strategy, ['mcts', 'beam', 'none'] as const, '--strategy');
  const start = oneOf(flags.start, ['mined', 'merged', 'skeleton', 'plain', 'llm-only'] as const, '--start');
  const splitBy = parseSplitBy(flags.splitBy);
  const judgeMode = oneOf(flags.judgeMode, JUDGE_MODES, '--judge-mode');
  const settings = searchSettings({
    strategy: strategy === 'none' ? 'mcts' : strategy,
    iterations: flags.iterations,
    patience: flags.patience,
    children: flags.children,
    seed: flags.seed,
    concurrency: flags.concurrency,
    lambdaMax: flags.lambdaMax,
    lambdaMin: flags.lambdaMin,
    llmOnly: start === 'llm-only',
    racing: flags.racing,
    maxOpt: flags.maxOpt,
    maxVal: flags.maxVal,
    maxTest: flags.maxTest,
  });
  return {
    records: flags.records,
    tools: flags.tools,
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.optimizerModel ? { optimizerModel: flags.optimizerModel } : {}),
    ...(flags.judgeModel ? { judgeModel: flags.judgeModel } : {}),
    ...(judgeMode === 'joint' ? { judgeMode } : {}),
    split: flags.split,
    splitBy,
    start,
    ...(flags.from ? { from: resolve(flags.from) } : {}),
    strategy,
    memo: flags.memo,
    settings,
    budget,
    ...(flags.out ? { outDir: flags.out } : {}),
    ...(flags.skipInvalid ? { skipInvalid: true } : {}),
    ...(flags.allowLiveWrites ? { allowLiveWrites: true } : {}),
  };
}
