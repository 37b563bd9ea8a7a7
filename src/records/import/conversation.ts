import { FlowScoutError } from '../../errors/index.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { Call, TaskRecord } from '../schema.js';
import { inferToolDescriptors } from './infer-tools.js';
import type { InputDocument } from './read-inputs.js';
import { widenSchemasToRecordedCalls, type WidenedParam } from './widen-schemas.js';

/**
 * What every agent-log importer (OpenAI, Anthropic, AI SDK, OpenTelemetry) shares: a format parser
 * turns its input into conversations — a query, the calls in order with their observations, the final
 * answer, where each came from — and the tool definitions it found; this module turns those into
 * records and descriptors with one set of rules and one summary:
 *
 * - a conversation that cannot be read, has no user query, no tool call or no final answer is a
 *   problem named by file, line and JSON path; any problem stops the import unless `skipInvalid`;
 * - a record with a failed call, or a call to a tool the definitions do not have, is dropped unless
 *   `keepFailed` (then a missing tool gets a descriptor inferred from its recorded calls);
 * - with no tool definitions at all, every tool's descriptor is inferred from its recorded calls;
 * - tool definitions are merged by name across conversations (the first one of a name is kept).
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
  meta?: Record<string, unknown>;
}

/** A problem inside one input unit: the parser throws it, the importer names it. */
export class UnitProblem extends Error {
  constructor(
    readonly path: string,
    message: string,
    /** Where the problem is when it is not in the unit's own file and line (a span of a trace). */
    readonly where?: { file: string; line?: number },
  ) {
    super(message);
  }
}

/** A unit of input: one conversation-holding value and where it is. */
export interface InputUnit {
  file: string;
  /** 1-based line of a JSONL file; undefined for a whole JSON file. */
  line?: number;
  /** Path of the unit inside its document (`$` or `$[3]`). */
  path: string;
  value: unknown;
}

/** A format: how to cut documents into units, read one unit, and find tool definitions. */
export interface ConversationFormat {
  id: string;
  /** What a unit looks like, for hints. */
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
}

export const DROP_FAILED = 'has a failed call';
export const DROP_MISSING_TOOL = 'calls a tool absent from the tool definitions';

export interface ConversationCounts {
  format: string;
  files: number;
  /** Conversations found (valid or not). */
  conversations: number;
  kept: number;
  /** Conversations skipped as invalid (only with skipInvalid), by reason. */
  invalid: Record<string, number>;
  /** Valid conversations left out, by reason. */
  dropped: Record<string, number>;
  /** The first problems, formatted `file:line ($.path): message`. */
  problems: string[];
  calls: number;
  failedCalls: number;
  /** Calls to tools the definitions do not have (only counted when there are definitions). */
  missingToolCalls: number;
  missingTools: string[];
  /** Of those, calls kept (with --keep-failed). */
  keptMissingToolCalls: number;
  keptCalls: number;
  /** Parallel groups: assistant turns with more than one call. */
  parallelTurns: number;
  toolsDefined: number;
  toolsInferred: number;
  /** Later definitions of an already defined name that differ from the first (the first is kept). */
  conflictingDefinitions: number;
  duplicateIds: number;
  widenedParams: WidenedParam[];
}

export interface ConversationImportResult {
  records: TaskRecord[];
  tools: ToolDescriptor[];
  counts: ConversationCounts;
}

/** A formatted location: `file:line ($.path)` or `file ($.path)`. */
export function unitLocation(unit: Pick<InputUnit, 'file' | 'line'>, path: string): string {
  return `${unit.file}${unit.line !== undefined ? `:${unit.line}` : ''} (${path})`;
}

const INVALID_NOT_READABLE = 'not readable';
const INVALID_NO_QUERY = 'no user query';
const INVALID_NO_CALL = 'no tool call';
const INVALID_NO_ANSWER = 'no final answer';

/** Imports parsed documents with a format (see the module comment). */
export function importConversations(format: ConversationFormat, docs: readonly InputDocument[], opts: ConversationImportOptions = {}): ConversationImportResult {
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
  let conflictingDefinitions = 0;
  const read: Array<{ unit: InputUnit; conv: ParsedConversation }> = [];
  const allUnits: InputUnit[] = [];
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
      note(INVALID_NOT_READABLE, problemText(doc, e));
    }
  }
  if (format.allUnits) {
    try {
      allUnits.push(...format.allUnits(docs.filter((d) => !d.problem)));
    } catch (e) {
      conversations++;
      note(INVALID_NOT_READABLE, problemText(docs.find((d) => !d.problem) ?? docs[0]!, e));
    }
  }
  {
    for (const unit of allUnits) {
      conversations++;
      try {
        for (const t of format.tools(unit)) {
          const first = defined.get(t.name);
          if (!first) defined.set(t.name, t);
          else if (JSON.stringify(first) !== JSON.stringify(t)) conflictingDefinitions++;
        }
        const conv = format.conversation(unit);
        if (!conv.query.trim()) {
          note(INVALID_NO_QUERY, `${unitLocation(unit, join(unit.path, conv.paths.query))}: no user message with text (the query); add the user's request`);
          continue;
        }
        if (conv.calls.length === 0) {
          note(INVALID_NO_CALL, `${unitLocation(unit, join(unit.path, conv.paths.calls))}: no tool call in this conversation; FlowScout learns from runs that called tools`);
          continue;
        }
        if (conv.answer === undefined || !conv.answer.trim()) {
          note(INVALID_NO_ANSWER, `${unitLocation(unit, join(unit.path, conv.paths.answer))}: no final answer (assistant text after the last tool call); the record needs a reference answer`);
          continue;
        }
        read.push({ unit, conv });
      } catch (e) {
        note(INVALID_NOT_READABLE, e instanceof UnitProblem ? `${unitLocation(e.where ?? unit, e.where ? e.path : join(unit.path, e.path))}: ${e.message}` : problemText(unit, e));
      }
    }
  }

  const invalidTotal = Object.values(invalid).reduce((n, k) => n + k, 0);
  if (invalidTotal > 0 && !opts.skipInvalid) {
    const shown = problems.slice(0, 20);
    if (problems.length > 20) shown.push(`… and ${problems.length - 20} more problems`);
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${invalidTotal} of ${conversations} ${format.id} conversation${conversations === 1 ? '' : 's'} cannot be imported:\n  ${shown.join('\n  ')}`,
      hint: `Fix them (${format.shape}), or pass --skip-invalid to import the others and count these.`,
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
  let missingToolCalls = 0;
  let keptMissingToolCalls = 0;
  let keptCalls = 0;
  let parallelTurns = 0;
  let duplicateIds = 0;
  for (const { unit, conv } of read) {
    const failed = conv.calls.filter((c) => c.status === 'error').length;
    const missing = hasDefinitions ? conv.calls.filter((c) => !defined.has(c.tool)) : [];
    calls += conv.calls.length;
    failedCalls += failed;
    missingToolCalls += missing.length;
    for (const c of missing) missingTools.add(c.tool);
    if (!opts.keepFailed && (failed > 0 || missing.length > 0)) {
      const reason = missing.length > 0 ? DROP_MISSING_TOOL : DROP_FAILED;
      dropped[reason] = (dropped[reason] ?? 0) + 1;
      continue;
    }
    keptMissingToolCalls += missing.length;
    keptCalls += conv.calls.length;
    parallelTurns += Number(conv.meta?.parallelTurns ?? 0);
    let id = conv.id?.trim() || defaultId(unit);
    if (ids.has(id)) {
      duplicateIds++;
      id = `${id}~${unit.line ?? unit.path}`;
    }
    ids.set(id, records.length);
    const recordCalls: Call[] = conv.calls.map(({ path: _path, ...c }) => c);
    keptCallsList.push(...recordCalls);
    records.push({
      id,
      query: conv.query.trim(),
      reference: conv.answer!.trim(),
      calls: recordCalls,
      ...(opts.domain ? { domain: opts.domain } : {}),
      meta: { source: format.id, file: unit.file, ...(unit.line !== undefined ? { line: unit.line } : {}), ...(unit.path !== '$' ? { path: unit.path } : {}) },
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
      missingToolCalls,
      missingTools: [...missingTools].sort(),
      keptMissingToolCalls,
      keptCalls,
      parallelTurns,
      toolsDefined: defined.size,
      toolsInferred: inferred.length,
      conflictingDefinitions,
      duplicateIds,
      widenedParams,
    },
  };
}

function defaultId(unit: InputUnit): string {
  const base = unit.file.replace(/^.*[\\/]/, '').replace(/\.(jsonl|json|ndjson)$/i, '');
  return unit.line !== undefined ? `${base}-${unit.line}` : unit.path === '$' ? base : `${base}-${unit.path.replace(/^\$\[?|\]$/g, '')}`;
}

function join(base: string, path: string): string {
  return path === '$' ? base : base === '$' ? path : `${base}${path.slice(1)}`;
}

function problemText(where: Pick<InputUnit, 'file' | 'line'>, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof UnitProblem) return `${unitLocation(e.where ?? where, e.path)}: ${message}`;
  return `${where.file}${where.line !== undefined ? `:${where.line}` : ''}: ${message}`;
}

/** The summary an import prints: kept, dropped and why, invalid and why, calls, tools. */
export function formatConversationCounts(label: string, c: ConversationCounts, opts: { keepFailed?: boolean } = {}): string {
  const sum = (o: Record<string, number>) => Object.values(o).reduce((n, k) => n + k, 0);
  const reasons = (o: Record<string, number>) => Object.entries(o).map(([r, k]) => `${r}: ${k}`).join('; ');
  const rows: Array<[string, string]> = [
    ['conversations', `${c.conversations} in ${c.files} file${c.files === 1 ? '' : 's'}`],
    ['kept', `${c.kept}${opts.keepFailed ? ' (--keep-failed: records with failed calls or calls to undefined tools kept)' : ''}`],
    ['dropped', `${sum(c.dropped)}${sum(c.dropped) ? ` (${reasons(c.dropped)})` : ''}`],
    ['invalid, skipped', `${sum(c.invalid)}${sum(c.invalid) ? ` (${reasons(c.invalid)})` : ''}`],
    ['calls', `${c.calls} (failed: ${c.failedCalls}; to tools absent from the definitions: ${c.missingToolCalls}${opts.keepFailed ? `, kept: ${c.keptMissingToolCalls}` : ''})`],
    ['calls kept', `${c.keptCalls}${c.parallelTurns ? ` (${c.parallelTurns} turn${c.parallelTurns === 1 ? '' : 's'} with parallel calls, kept in their listed order)` : ''}`],
    ['tools', `${c.toolsDefined + c.toolsInferred} (${c.toolsDefined} defined in the logs${c.conflictingDefinitions ? `, ${c.conflictingDefinitions} differing redefinitions ignored` : ''}; ${c.toolsInferred} inferred from recorded calls)`],
  ];
  const lines = [`Imported ${label}`, ...rows.map(([k, v]) => `  ${k.padEnd(20)} ${v}`)];
  if (c.missingTools.length) lines.push(`  tools absent from the definitions: ${c.missingTools.slice(0, 10).join(', ')}${c.missingTools.length > 10 ? ', …' : ''}`);
  if (c.duplicateIds) lines.push(`  ${c.duplicateIds} repeated id(s) made unique with ~<line>`);
  if (c.widenedParams.length) lines.push(`  widened ${c.widenedParams.length} parameter type(s) to accept recorded values`);
  for (const p of c.problems.slice(0, 5)) lines.push(`  skipped: ${p}`);
  if (c.problems.length > 5) lines.push(`  … and ${c.problems.length - 5} more skipped`);
  return lines.join('\n');
}
