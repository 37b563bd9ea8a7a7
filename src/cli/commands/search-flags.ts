import type { Command } from '@commander-js/extra-typings';
import { DEFAULT_LAMBDA_MAX, DEFAULT_LAMBDA_MIN } from '../../search/anneal.js';
import { DEFAULT_JUDGE_MODE } from '../../metrics/llm-judge.js';
import { DEFAULT_SETTINGS } from '../../search/search-context.js';
import { DEFAULT_DB_PATH } from '../../store/open-store.js';
import { addBreakerFlag, addModelFlags } from '../model-flags.js';
import { nonNegativeArg, wholeNumberArg } from '../parse-number.js';
import { iterationsOption, patienceOption } from '../search-length-flags.js';
import { addQueueFlags } from '../queue-flags.js';
import { SPLIT_BY_HELP } from '../split-flag.js';
import type { FlagsOf } from './register.js';

/**
 * `flowscout search`'s flags, declared once: search.ts runs the command, search-config.ts turns
 * the flags into a search configuration, both with the types commander infers from here.
 */
export function declareSearch(program: Command) {
  const head = program
    .command('search')
    .description(
      'search for a better workflow with MCTS over edit plans, driven by execution feedback (mined G0 → best on D_val)',
    )
    .option('--records <file>', 'records JSONL (split into D_opt, D_val, D_test)')
    .option('--tools <config>', 'tool config (tools.config.json) giving the tools T')
    .option('--model <spec>', 'model of the execution policy (default: FLOWSCOUT_MODEL, else offline)')
    .option('--optimizer-model <spec>', 'model of the optimizer (default: --model; offline = rule-based optimizer)')
    .option('--judge-model <spec>', 'model of the ES judge (default: --model; offline = lexical judge)')
    .option(
      '--judge-mode <mode>',
      'joint (one request scoring the four ES dimensions) or per-dimension (G-Eval: one request each)',
      DEFAULT_JUDGE_MODE,
    )
    .addOption(iterationsOption('J: iterations (MCTS) or candidates (beam)', 30))
    .addOption(patienceOption('P: stop after this many iterations without a better validation score'))
    .option('--children <n>', 'children per node before selection descends', wholeNumberArg('--children', 1), 3)
    .option('--split <ratio>', 'opt:val:test ratio', '5:2:3')
    .option('--split-by <unit>', SPLIT_BY_HELP, 'auto')
    .option('--seed <n>', 'seed of the split and the search', wholeNumberArg('--seed', 0), 0)
    .option('--out <dir>', 'output folder (default .flowscout/runs/<run id>/)')
    .option('--db <file>', 'the store (SQLite)', DEFAULT_DB_PATH)
    .option('--resume <run>', 'continue a stored run (its settings are reused)')
    .option('--json', 'print one JSON object at the end instead of the table')
    .option('--strategy <name>', 'mcts, beam, or none (NoMCTS: evaluate G0 only)', 'mcts')
    .option(
      '--start <name>',
      'mined (G0 from D_opt), merged (G0 whose choices between step sequences are merged into steps, not kept as branches), skeleton (G0 without its router over recurring variants), plain (NoMiner skeleton) or llm-only (no tool nodes)',
      'mined',
    )
    .option(
      '--from <workflow>',
      "start from this workflow file instead of one --start builds (e.g. an earlier search's best.workflow.json, to refine it on new runs; --dry-run then projects what it sends)",
    )
    .option('--no-memo', 'do not reuse node outputs or judge scores across candidates')
    .option(
      '--no-racing',
      'run every candidate on all of D_opt and D_val (default: race it on D_opt against the best so far first)',
    )
    .option(
      '--max-opt <n>',
      'evaluate on at most n D_opt records (a sample stratified by group and tool set)',
      wholeNumberArg('--max-opt', 1),
      DEFAULT_SETTINGS.maxOpt,
    )
    .option(
      '--max-val <n>',
      'evaluate on at most n D_val records (stratified sample)',
      wholeNumberArg('--max-val', 1),
      DEFAULT_SETTINGS.maxVal,
    )
    .option(
      '--max-test <n>',
      'evaluate on at most n D_test records (stratified sample)',
      wholeNumberArg('--max-test', 0),
      DEFAULT_SETTINGS.maxTest,
    )
    .option('--budget-calls <n>', 'stop after this many LLM requests', wholeNumberArg('--budget-calls', 0))
    .option('--budget-tokens <n>', 'stop after this many tokens', wholeNumberArg('--budget-tokens', 0))
    .option('--budget-usd <x>', 'stop after spending this much (USD)', nonNegativeArg('--budget-usd'))
    .option('--budget-minutes <m>', 'stop after this much wall time', nonNegativeArg('--budget-minutes'))
    .option(
      '--concurrency <n>',
      'records evaluated at once (and model calls in flight)',
      wholeNumberArg('--concurrency', 1),
      4,
    )
    .option(
      '--lambda-max <x>',
      'exploration weight λ at the first iteration (cosine-annealed)',
      nonNegativeArg('--lambda-max'),
      DEFAULT_LAMBDA_MAX,
    )
    .option(
      '--lambda-min <x>',
      'exploration weight λ at the last iteration',
      nonNegativeArg('--lambda-min'),
      DEFAULT_LAMBDA_MIN,
    )
    .option('--force', 'write into a non-empty --out folder')
    .option('--skip-invalid', 'skip invalid record lines (counted) instead of refusing the file')
    .option(
      '--dry-run',
      'print the projected model requests, tokens and cost of the search, and stop (nothing is sent to a model or a live tool, nothing is stored)',
    );
  const cmd = addQueueFlags(
    head,
    'run every evaluation on `flowscout worker`s through this Redis (redis://host:6379; rediss:// for TLS); not stored with the run',
  ).option(
    '--allow-live-writes',
    "send write and destructive calls to live tools (functions, MCP) during the search; by default they are answered from the records' recorded responses or refused",
  );
  return addBreakerFlag(addModelFlags(cmd));
}

/** `flowscout search`'s flags as its action receives them. */
export type SearchFlags = FlagsOf<typeof declareSearch>;
