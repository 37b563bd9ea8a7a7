import { FlowScoutError } from '../../errors/index.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { Call, TaskRecord } from '../schema.js';
import { inferToolDescriptors } from './infer-tools.js';
import {
  parseErrorPattern,
  isErrorOutput,
  queryOf,
  recordTurns,
  referenceOf,
  type DialogueTurn,
  type ReferenceChoice,
} from './dialogue.js';
import { parseJsonPath, valueAt } from './json-path.js';
import { expandRunObjects, locateMessages, relocatePath } from './locate-messages.js';
import { matchesWhere, parseWhere } from './where.js';
import type { InputDocument } from './read-inputs.js';
import { describeLayout } from './input-layout.js';
import { looksLikeMessages } from './formats/common.js';
import { UnitProblem, joinPath, unitId, unitLocation, unitProblemText, type InputUnit } from './unit.js';
export { UnitProblem, unitLocation, type InputUnit } from './unit.js';
import type { ConversationCounts } from './conversation-counts.js';
import { widenSchemasToRecordedCalls } from './widen-schemas.js';
import { outcomeOf, type RunOutcome } from './outcome.js';

/**
 * What every agent-log importer (OpenAI, Anthropic, AI SDK, OpenTelemetry) shares: a format parser
 * turns its input into conversations — the dialogue's turns, the calls in order with their
 * observations, where each came from — and the tool definitions it found; this module turns those
 * into records and descriptors with one set of rules and one summary:
 *
 * - each item's messages are found wherever they are (`messages`, `traj`, `inputs.messages`, …, or
 *   the `messages` option's path: locate-messages.ts); a JSON object of runs is cut into its runs;
 * - `where` selects runs by their fields (e.g. `reward=1`); `group` writes each record's group;
 * - the query is the user's side of the dialogue, the reference answer what the assistant told the
 *   user after its last call, and a tool output that is an error by its text is a failed call, by
 *   the same rules for every format (dialogue.ts); a run that ended in a tool call (a hand-off, a
 *   final write) is kept without a reference answer; a multi-turn record keeps its `turns`;
 * - a conversation that cannot be read or has no user query is a problem named by file, line and
 *   JSON path; any problem stops the import unless `skipInvalid`; a run that answered without a
 *   tool call is a record with an empty reference log (a workflow learns from it when not to call);
 * - a record with a failed call, or a call to a tool the definitions do not have, is dropped unless
 *   `keepFailed` (then a missing tool gets a descriptor inferred from its recorded calls) — except
 *   that a run selected by `where` (successful as a whole) is kept, with the calls that failed on
 *   the way left out of its reference log and kept in its turns;
 * - what a run's own fields say of its outcome (`reward`, `success`, `status`: outcome.ts) is kept
 *   in its record's `meta.outcome`, for conformance and drift to tell failed runs from good ones;
 * - tool definitions from the `tools` option win; the logs' own are merged by name (the first one
 *   of a name is kept); with no definitions at all, every tool's descriptor is inferred from its
 *   recorded calls.
 */

/** One recorded call: tool, parsed arguments, observation, and its JSON path for messages. */
export interface ImportedCall extends Call {
  status: 'ok' | 'error';
  /** JSON path of the call inside its conversation. */
  path: string;
}

/** One conversation as a format parser read it. */
export interface ParsedConversation {
  id?: string;
  query: string;
  answer?: string;
  calls: ImportedCall[];
  /** Where the query, the calls and the answer were looked for (paths for messages). */
  paths: { query: string; calls: string; answer: string };
  /**
   * The dialogue in order, when the format has turns: the importer takes the query, the reference
   * answer and the record's `turns` from these (dialogue.ts), the same way for every format.
   */
  turns?: Array<DialogueTurn<ImportedCall>>;
  meta?: Record<string, unknown>;
}

/** A format: how to cut documents into units, read one unit, and find tool definitions. */
export interface ConversationFormat {
  id: string;
  /** What one run looks like, for hints (where runs sit in the files is the input's layout: input-layout.ts). */
  shape: string;
  units(doc: InputDocument): InputUnit[];
  /** Instead of `units`: cut all documents at once (a trace's spans may span several lines). */
  allUnits?(docs: readonly InputDocument[]): InputUnit[];
  /** Reads one unit (throws UnitProblem). */
  conversation(unit: InputUnit): ParsedConversation;
  /** The tool definitions a unit carries (throws UnitProblem). */
  tools(unit: InputUnit): ToolDescriptor[];
}

export interface ConversationImportOptions {
  keepFailed?: boolean;
  skipInvalid?: boolean;
  /** Written as each record's `domain`. */
  domain?: string;
  /** Where each item keeps its messages (`--messages traj`); found by content when absent. */
  messages?: string;
  /** Only runs meeting every condition are imported (`--where reward=1`, repeatable). */
  where?: readonly string[];
  /** The JSON path of each run's group (`--group task_id`), written as the record's `group`. */
  group?: string;
  /** Tool definitions given in a file of their own (`--tools`): they win over the logs' own. */
  tools?: readonly ToolDescriptor[];
  /** More tool outputs to read as errors (`--error-pattern <regex>`), besides "Error…", "Exception…" and {"error": …}. */
  errorPattern?: string;
}

export const DROP_FAILED = 'has a failed call';
export const DROP_MISSING_TOOL = 'calls a tool absent from the tool definitions';
export const DROP_ALL_FAILED = 'every call failed';

export interface ConversationImportResult {
  records: TaskRecord[];
  tools: ToolDescriptor[];
  counts: ConversationCounts;
}

const INVALID_NOT_READABLE = 'not readable';

/** A JSON array that is itself one run (a bare list of chat messages), not a list of runs. */
const isRunArray = (v: unknown): boolean => Array.isArray(v) && looksLikeMessages(v);
const INVALID_NO_QUERY = 'no user query';

interface ReadRun {
  unit: InputUnit;
  conv: ParsedConversation;
  query: string;
  reference: ReferenceChoice | { answer?: string; how: 'trace' };
  group?: string;
  /** What the run's own fields say of its outcome (`reward`, `status`: outcome.ts), kept in `meta.outcome`. */
  outcome?: RunOutcome;
}

/** Imports parsed documents with a format (see the module comment). */
export function importConversations(
  format: ConversationFormat,
  docs: readonly InputDocument[],
  opts: ConversationImportOptions = {},
): ConversationImportResult {
  const messagesPath = opts.messages !== undefined ? parseJsonPath(opts.messages, '--messages') : undefined;
  const where = (opts.where ?? []).map(parseWhere);
  const groupPath = opts.group !== undefined ? parseJsonPath(opts.group, '--group') : undefined;
  const errorPattern = opts.errorPattern !== undefined ? parseErrorPattern(opts.errorPattern) : undefined;
  const problems: string[] = [];
  const invalid: Record<string, number> = {};
  const dropped: Record<string, number> = {};
  const files = new Set<string>();
  let conversations = 0;
  const note = (reason: string, text: string) => {
    invalid[reason] = (invalid[reason] ?? 0) + 1;
    problems.push(text);
  };

  const defined = new Map<string, ToolDescriptor>();
  for (const t of opts.tools ?? []) defined.set(t.name, structuredClone(t));
  const fromFile = new Set(defined.keys());
  let conflictingDefinitions = 0;
  const read: ReadRun[] = [];
  let allUnits: InputUnit[] = [];
  for (const doc of docs) {
    files.add(doc.file);
    if (doc.problem) {
      conversations++;
      note(INVALID_NOT_READABLE, doc.problem);
      continue;
    }
    if (format.allUnits) continue;
    try {
      allUnits.push(...format.units(doc));
    } catch (e) {
      conversations++;
      note(INVALID_NOT_READABLE, unitProblemText(doc, e));
    }
  }
  if (format.allUnits) {
    try {
      allUnits.push(...format.allUnits(docs.filter((d) => !d.problem)));
    } catch (e) {
      conversations++;
      note(INVALID_NOT_READABLE, unitProblemText(docs.find((d) => !d.problem) ?? docs[0]!, e));
    }
  } else allUnits = expandRunObjects(allUnits, messagesPath);
  const messagePaths: Record<string, number> = {};
  let selected = 0;
  const textErrorCalls = new Set<ImportedCall>();
  for (const raw of allUnits) {
    conversations++;
    if (where.length && !where.every((c) => matchesWhere(raw.value, c))) continue;
    selected++;
    let messagePath: string | undefined;
    try {
      const located = format.allUnits ? { unit: raw } : locateMessages(raw, messagesPath);
      messagePath = located.messagePath;
      const unit = located.unit;
      for (const t of format.tools(unit)) {
        if (fromFile.has(t.name)) continue;
        const first = defined.get(t.name);
        if (!first) defined.set(t.name, t);
        else if (JSON.stringify(first) !== JSON.stringify(t)) conflictingDefinitions++;
      }
      const conv = format.conversation(unit);
      if (messagePath && messagePath !== '$.messages') messagePaths[messagePath] = (messagePaths[messagePath] ?? 0) + 1;
      for (const c of conv.calls) {
        if (c.status === 'ok' && isErrorOutput(c.output, errorPattern)) {
          c.status = 'error';
          textErrorCalls.add(c);
        }
      }
      const query = conv.turns
        ? queryOf(conv.turns.flatMap((t) => (t.role === 'user' ? [t.text] : [])))
        : conv.query.trim();
      if (!query) {
        note(
          INVALID_NO_QUERY,
          `${unitLocation(unit, joinPath(unit.path, relocatePath(conv.paths.query, messagePath)))}: no user message with text (the query); add the user's request`,
        );
        continue;
      }
      const reference = conv.turns
        ? referenceOf(conv.turns)
        : { ...(conv.answer?.trim() ? { answer: conv.answer.trim() } : {}), how: 'trace' as const };
      const g = groupPath ? valueAt(raw.value, groupPath) : undefined;
      const group =
        g === undefined || g === null || g === '' ? undefined : typeof g === 'object' ? JSON.stringify(g) : String(g);
      const outcome = outcomeOf(raw.value);
      read.push({
        unit,
        conv,
        query,
        reference,
        ...(group !== undefined ? { group } : {}),
        ...(outcome ? { outcome } : {}),
      });
    } catch (e) {
      if (e instanceof UnitProblem && !e.where)
        note(
          INVALID_NOT_READABLE,
          `${unitLocation(raw, joinPath(raw.path, relocatePath(e.path, messagePath)))}: ${e.message}`,
        );
      else
        note(
          INVALID_NOT_READABLE,
          e instanceof UnitProblem ? `${unitLocation(e.where!, e.path)}: ${e.message}` : unitProblemText(raw, e),
        );
    }
  }

  const invalidTotal = Object.values(invalid).reduce((n, k) => n + k, 0);
  if (invalidTotal > 0 && !opts.skipInvalid) {
    const shown = problems.slice(0, 20);
    if (problems.length > 20) shown.push(`… and ${problems.length - 20} more problems`);
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${invalidTotal} of ${conversations} ${format.id} conversation${conversations === 1 ? '' : 's'} cannot be imported:\n  ${shown.join('\n  ')}`,
      hint: `Fix them (the input is read as ${describeLayout(docs, format.shape, isRunArray)}), or pass --skip-invalid to import the others and count these.`,
      details: { problems },
    });
  }

  const hasDefinitions = defined.size > 0;
  const records: TaskRecord[] = [];
  const ids = new Map<string, number>();
  const missingTools = new Set<string>();
  const keptCallsList: Call[] = [];
  let calls = 0;
  let failedCalls = 0;
  let textErrors = 0;
  let failedLeftOut = 0;
  let missingToolCalls = 0;
  let keptMissingToolCalls = 0;
  let keptCalls = 0;
  let parallelTurns = 0;
  let duplicateIds = 0;
  let multiTurn = 0;
  let noCall = 0;
  const references = { chosen: 0, passedOver: 0, endsInCall: 0, closingOnly: 0, fromTrace: 0 };
  for (const { unit, conv, query, reference, group, outcome } of read) {
    const failed = conv.calls.filter((c) => c.status === 'error').length;
    const missing = hasDefinitions ? conv.calls.filter((c) => !defined.has(c.tool)) : [];
    calls += conv.calls.length;
    failedCalls += failed;
    textErrors += conv.calls.filter((c) => textErrorCalls.has(c)).length;
    missingToolCalls += missing.length;
    for (const c of missing) missingTools.add(c.tool);
    if (!opts.keepFailed && (missing.length > 0 || (failed > 0 && where.length === 0))) {
      const reason = missing.length > 0 ? DROP_MISSING_TOOL : DROP_FAILED;
      dropped[reason] = (dropped[reason] ?? 0) + 1;
      continue;
    }
    // A run selected as successful keeps the calls that failed on the way only in its turns: the
    // reference log holds what worked, so no workflow is scored for repeating the agent's mistake.
    const leaveOut = !opts.keepFailed && failed > 0;
    const logged = leaveOut ? conv.calls.filter((c) => c.status !== 'error') : conv.calls;
    // A run that answered without a tool (a refusal, an answer from the request alone) is a record:
    // its reference log is empty, and a workflow learns from it when not to call. A run whose every
    // call failed is no such answer.
    if (conv.calls.length === 0) noCall++;
    else if (logged.length === 0) {
      dropped[DROP_ALL_FAILED] = (dropped[DROP_ALL_FAILED] ?? 0) + 1;
      continue;
    }
    if (leaveOut) failedLeftOut += failed;
    keptMissingToolCalls += missing.length;
    keptCalls += logged.length;
    parallelTurns += Number(conv.meta?.parallelTurns ?? 0);
    let id = conv.id?.trim() || unitId(unit);
    if (ids.has(id)) {
      duplicateIds++;
      id = `${id}~${unit.line ?? unit.path}`;
    }
    ids.set(id, records.length);
    const recordCalls: Call[] = logged.map(({ path: _path, ...c }) => c);
    keptCallsList.push(...recordCalls);
    if (reference.how === 'trace') references.fromTrace += reference.answer !== undefined ? 1 : 0;
    else if (reference.how === 'chosen') references.chosen++;
    else if (reference.how === 'ends-in-call') references.endsInCall++;
    else references.closingOnly++;
    if (reference.how !== 'trace') references.passedOver += reference.passedOver;
    if (reference.how === 'trace' && reference.answer === undefined) references.endsInCall++;
    const users = conv.turns?.filter((t) => t.role === 'user').length ?? 0;
    if (users > 1) multiTurn++;
    const turns = conv.turns && (users > 1 || leaveOut) ? recordTurns(conv.turns) : undefined;
    records.push({
      id,
      query,
      reference: reference.answer ?? '',
      calls: recordCalls,
      ...(turns ? { turns } : {}),
      ...(opts.domain ? { domain: opts.domain } : {}),
      ...(group !== undefined ? { group } : {}),
      meta: {
        source: format.id,
        file: unit.file,
        ...(unit.line !== undefined ? { line: unit.line } : {}),
        ...(unit.path !== '$' ? { path: unit.path } : {}),
        ...(outcome ? { outcome } : {}),
      },
    });
  }

  const tools = [...defined.values()].map((t) => structuredClone(t));
  const inferFor = keptCallsList.filter((c) => !defined.has(c.tool));
  const inferred = inferToolDescriptors(inferFor);
  tools.push(...inferred);
  const widenedParams = widenSchemasToRecordedCalls(tools, keptCallsList);
  return {
    records,
    tools,
    counts: {
      format: format.id,
      files: files.size,
      conversations,
      kept: records.length,
      invalid,
      dropped,
      problems,
      calls,
      failedCalls,
      textErrors,
      failedLeftOut,
      missingToolCalls,
      missingTools: [...missingTools].sort(),
      keptMissingToolCalls,
      keptCalls,
      parallelTurns,
      toolsDefined: defined.size,
      toolsFromFile: fromFile.size,
      toolsInferred: inferred.length,
      conflictingDefinitions,
      duplicateIds,
      widenedParams,
      messagePaths,
      ...(where.length ? { where: { conditions: where.map((c) => c.text), selected, of: allUnits.length } } : {}),
      ...(opts.group !== undefined
        ? {
            group: {
              path: opts.group,
              groups: new Set(records.flatMap((r) => (r.group !== undefined ? [r.group] : []))).size,
              without: records.filter((r) => r.group === undefined).length,
            },
          }
        : {}),
      references,
      multiTurn,
      noCall,
    },
  };
}
