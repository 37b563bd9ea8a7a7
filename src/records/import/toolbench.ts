import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FlowScoutError } from '../../errors/index.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { readJsonFile } from '../../util/json-file.js';
import type { Call, TaskRecord } from '../schema.js';
import { AnswerFileSchema, type AnswerFile, type Message } from './toolbench-format.js';
import { matchFunctionName } from './toolbench-names.js';
import { parseArguments, parseFinalAnswer, parseObservation } from './toolbench-observation.js';

/**
 * ToolBench / StableToolBench answer files → FlowScout records, following docs/DESIGN.md, "Data formats" §4's extraction
 * recipe: keep a file only when `valid_data`, `give_answer` and `win`; q = `answer_generation.query`;
 * r = the `final_answer` field of the double-encoded `final_answer`; π = the non-`Finish` function
 * calls of the last `train_messages` list, in order, with arguments JSON-parsed and the following
 * function message as observation (kept raw; truncated ones as raw strings). Reflection messages
 * ("This is not the first time you try this task…") and other later user messages are ignored.
 * CoT answers (StableToolBench `*_CoT@1.json`) have no `finish_type`; the Finish call's `return_type`
 * stands in for it.
 */

export const TOOLBENCH_DROP = {
  notAnswerFile: 'not a ToolBench answer file',
  invalid: 'invalid (valid_data is false)',
  giveUp: 'give_up',
  notWin: 'not win',
  noQuery: 'no query',
  noAnswer: 'no final answer',
} as const;

export interface ToolbenchCounts {
  /** Answer files read. */
  files: number;
  kept: number;
  /** Files left out, by reason (one reason per file). */
  dropped: Record<string, number>;
  /** Calls in the kept records. */
  calls: number;
  /** Of these: calls whose observation carries an error, observations cut off (kept raw), names not among the offered functions, arguments that were not a JSON object. */
  errorCalls: number;
  truncatedObservations: number;
  unmatchedNames: number;
  unparsedArguments: number;
  /** Reflection / later user messages skipped in the kept paths. */
  ignoredUserMessages: number;
  /** Distinct offered functions (without Finish) across the kept files. */
  tools: number;
}

export interface ImportToolbenchResult {
  records: TaskRecord[];
  tools: ToolDescriptor[];
  counts: ToolbenchCounts;
}

/** Imports answer files, or every `*.json` below the given folders (sorted, so ids are stable). */
export function importToolbench(paths: readonly string[]): ImportToolbenchResult {
  const files = paths.flatMap(answerFiles);
  const records: TaskRecord[] = [];
  const tools = new Map<string, ToolDescriptor>();
  const idCount = new Map<string, number>();
  const counts: ToolbenchCounts = {
    files: files.length,
    kept: 0,
    dropped: {},
    calls: 0,
    errorCalls: 0,
    truncatedObservations: 0,
    unmatchedNames: 0,
    unparsedArguments: 0,
    ignoredUserMessages: 0,
    tools: 0,
  };
  for (const file of files) {
    const parsed = AnswerFileSchema.safeParse(readJsonFile(file));
    const outcome = parsed.success ? extract(parsed.data, counts) : TOOLBENCH_DROP.notAnswerFile;
    if (typeof outcome === 'string') {
      counts.dropped[outcome] = (counts.dropped[outcome] ?? 0) + 1;
      continue;
    }
    const queryId = queryIdOf(file);
    const seen = (idCount.get(queryId) ?? 0) + 1;
    idCount.set(queryId, seen);
    records.push({
      id: seen === 1 ? queryId : `${queryId}-${seen}`,
      query: outcome.query,
      reference: outcome.reference,
      calls: outcome.calls,
      meta: { source: 'toolbench', file: basename(file), queryId },
    });
    for (const fn of parsed.data!.answer_generation.function ?? []) {
      if (fn.name === 'Finish' || tools.has(fn.name)) continue;
      tools.set(fn.name, {
        name: fn.name,
        description: fn.description ?? '',
        inputSchema: inputSchemaOf(fn.parameters),
      });
    }
  }
  counts.kept = records.length;
  counts.tools = tools.size;
  return { records, tools: [...tools.values()], counts };
}

/** The query id: the file name up to its first `_` (`10_ChatGPT_DFS_woFilter_w2.json` → `10`). */
export function queryIdOf(file: string): string {
  const stem = basename(file).replace(/\.json$/i, '');
  const cut = stem.indexOf('_');
  return cut > 0 ? stem.slice(0, cut) : stem;
}

function extract(
  answer: AnswerFile,
  counts: ToolbenchCounts,
): { query: string; reference: string; calls: Call[] } | string {
  const gen = answer.answer_generation;
  if (gen.valid_data !== true) return TOOLBENCH_DROP.invalid;
  const final = parseFinalAnswer(gen.final_answer);
  const finishType = gen.finish_type ?? (final?.returnType?.startsWith('give_up') ? 'give_up' : final?.returnType);
  if (finishType === 'give_up' || final?.returnType?.startsWith('give_up')) return TOOLBENCH_DROP.giveUp;
  if (finishType !== 'give_answer' || answer.win !== true) return TOOLBENCH_DROP.notWin;
  const query = (gen.query ?? '').trim();
  if (!query) return TOOLBENCH_DROP.noQuery;
  if (!final || final.answer.trim() === '') return TOOLBENCH_DROP.noAnswer;
  const path = gen.train_messages?.at(-1) ?? [];
  const offered = (gen.function ?? []).map((f) => f.name).filter((n) => n !== 'Finish');
  return { query, reference: final.answer, calls: callsOf(path, offered, counts) };
}

function callsOf(path: readonly Message[], offered: readonly string[], counts: ToolbenchCounts): Call[] {
  const calls: Call[] = [];
  let users = 0;
  path.forEach((msg, i) => {
    if (msg.role === 'user' && ++users > 1) counts.ignoredUserMessages++;
    const fc = msg.role === 'assistant' ? msg.function_call : undefined;
    if (!fc || fc.name === 'Finish') return;
    const matched = matchFunctionName(fc.name, offered);
    if (!matched) counts.unmatchedNames++;
    const { args, parsed } = parseArguments(fc.arguments);
    if (!parsed) counts.unparsedArguments++;
    const call: Call = { tool: matched ?? fc.name, args };
    const next = path[i + 1];
    if (next?.role === 'function') {
      const obs = parseObservation(next.content);
      call.output = obs.output;
      call.status = obs.status;
      if (obs.truncated) counts.truncatedObservations++;
      if (obs.status === 'error') counts.errorCalls++;
    }
    calls.push(call);
  });
  counts.calls += calls.length;
  return calls;
}

/** An offered function's parameters as a JSON-Schema object (ToolBench's extra `optional` list dropped). */
function inputSchemaOf(parameters: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const { optional: _optional, ...rest } = parameters ?? {};
  return { type: 'object', properties: {}, ...rest };
}

function answerFiles(path: string): string[] {
  if (!existsSync(path)) {
    throw new FlowScoutError({
      code: 'FILE_NOT_FOUND',
      message: `no such file or folder: ${path}`,
      hint: 'Pass ToolBench answer files (…/answer/G1_answer/<id>_<method>.json) or folders holding them.',
      location: { file: path },
    });
  }
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .map((e) => ({ e, full: join(path, e.name) }))
    .sort((a, b) => (a.e.name < b.e.name ? -1 : a.e.name > b.e.name ? 1 : 0))
    .flatMap(({ e, full }) =>
      e.isDirectory() ? answerFiles(full) : e.name.toLowerCase().endsWith('.json') ? [full] : [],
    );
}
