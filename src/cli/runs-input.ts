import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { FlowScoutError } from '../errors/index.js';
import {
  observedRun,
  observedRunOfRecord,
  observedRunOfTools,
  observedRunOfTrace,
  type ObservedRun,
} from '../conformance/observed-runs.js';
import { readEventLog, type ReadEventLogOptions } from '../mining/event-log/read-event-log.js';
import { readPredictionsFile } from '../metrics/predictions.js';
import { importAgentLogs } from '../records/import/agent-logs.js';
import { readJsonlFile } from '../records/read-jsonl.js';
import { readRecordsFile } from '../records/read-records.js';
import { openStore } from '../store/open-store.js';
import { parseJsonBounded } from '../util/json-depth.js';
import { readJsonFile } from '../util/json-file.js';
import { requireFile } from '../util/require-file.js';
import { z } from 'zod';

/** What kind of file the runs came from. */
export type RunsKind = 'event-log' | 'records' | 'predictions' | 'traces' | 'agent-logs' | 'store';

export interface RunsInput {
  kind: RunsKind;
  runs: ObservedRun[];
  /** For a store: the canonical hash of the workflow each run answered with, by run id. */
  workflowHashes?: ReadonlyMap<string, string | undefined>;
  /**
   * Runs that could not be read (agent logs: a conversation with no user query or no readable
   * messages; a store: a served run without a trace), each named `file:line ($.path): why`.
   * Every other run is read, failed calls and all: nothing is left out silently.
   */
  unreadable: { count: number; problems: string[] };
}

const NONE_UNREADABLE = { count: 0, problems: [] } as const;

export interface ReadRunsOptions {
  /** For a store: only the runs of the workflow with this canonical hash. */
  workflowHash?: string;
  /** For event logs: reader options (columns, limits, skipping). */
  eventLog?: ReadEventLogOptions;
}

/**
 * Reads runs from anything FlowScout reads: an event log (XES, CSV, JSONL cases), records, `eval`
 * predictions, traces (`run --trace`, one JSON object or one a line), agent logs (through the
 * importers, format detected from the content; a folder of them too), or a store (`serve --db`:
 * its served runs).
 */
export async function readRuns(path: string, opts: ReadRunsOptions = {}): Promise<RunsInput> {
  requireFile(path, { what: 'runs file', folder: 'allowed' });
  if (statSync(path).isDirectory()) return agentLogs(path);
  if (isSqlite(path)) return storeRuns(path, opts.workflowHash);
  const lower = path.toLowerCase().replace(/\.gz$/, '');
  if (/\.(xes|csv|tsv)$/.test(lower)) return eventLogRuns(path, opts.eventLog);
  if (lower.endsWith('.json')) {
    const doc = readJsonFile(path);
    const items = Array.isArray(doc) ? doc : [doc];
    const traces = items.map((t, i) => observedRunOfTrace(t, `${i + 1}`));
    if (items.length > 0 && items.every(isTrace) && traces.every(Boolean))
      return { kind: 'traces', runs: traces as ObservedRun[], unreadable: { ...NONE_UNREADABLE, problems: [] } };
    return agentLogs(path);
  }
  const first = firstLine(path);
  if (first === undefined) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${path} holds no runs`,
      hint: 'Pass a file with one run a line (records, predictions, traces, event-log cases or agent logs).',
      location: { file: path },
    });
  }
  const value = first.value;
  if (isObject(value) && 'events' in value) return eventLogRuns(path, opts.eventLog);
  if (isObject(value) && 'query' in value && 'calls' in value) {
    const { records } = await readRecordsFile(path);
    return { kind: 'records', runs: records.map(observedRunOfRecord), unreadable: { count: 0, problems: [] } };
  }
  if (isTrace(value)) {
    const res = await readJsonlFile(path, TraceLine, {
      noun: 'trace',
      shape: 'a run trace {"calls", "observations", …}',
      missingHint: 'Check the path of the traces file.',
    });
    return {
      kind: 'traces',
      runs: res.values.map((t, i) => observedRunOfTrace(t, t.recordId ?? `${i + 1}`)!),
      unreadable: { count: 0, problems: [] },
    };
  }
  if (isObject(value) && 'calls' in value && 'answer' in value) {
    const { predictions } = await readPredictionsFile(path);
    return {
      kind: 'predictions',
      runs: predictions.map((p) => observedRun(p.id, p.calls)),
      unreadable: { count: 0, problems: [] },
    };
  }
  return agentLogs(path);
}

const TraceLine = z.looseObject({
  calls: z.array(z.looseObject({ tool: z.string(), status: z.enum(['ok', 'error']).optional() })),
  observations: z.array(z.unknown()),
  recordId: z.string().optional(),
});

function isTrace(value: unknown): boolean {
  return TraceLine.safeParse(value).success;
}

async function eventLogRuns(path: string, opts: ReadEventLogOptions = {}): Promise<RunsInput> {
  const { log } = await readEventLog(path, opts);
  const names = log.variants.map((v) => Array.from(v.trace, (id) => log.activities[id]!));
  return {
    kind: 'event-log',
    runs: log.caseIds.map((id, c) => observedRunOfTools(id, names[log.caseVariants[c]!]!)),
    unreadable: { count: log.skipped?.count ?? 0, problems: [] },
  };
}

/**
 * Agent logs through the importer, every run kept as it ran: failed calls, calls to tools the logs
 * do not define and runs whose every call failed are evidence here, not noise to drop
 * (`keepFailed`). A conversation that cannot be read at all is counted and named, not fatal.
 */
function agentLogs(path: string): RunsInput {
  const { records, counts } = importAgentLogs('auto', [path], { keepFailed: true, skipInvalid: true });
  const invalid = Object.values(counts.invalid).reduce((n, k) => n + k, 0);
  return {
    kind: 'agent-logs',
    runs: records.map(observedRunOfRecord),
    unreadable: { count: invalid, problems: counts.problems },
  };
}

function storeRuns(path: string, workflowHash: string | undefined): RunsInput {
  const store = openStore(path, { readOnly: true });
  try {
    const rows = store.listServedRuns({ limit: Number.MAX_SAFE_INTEGER });
    const hashes = new Map<string, string | undefined>();
    const runs: ObservedRun[] = [];
    const problems: string[] = [];
    let matching = 0;
    for (const row of rows.reverse()) {
      if (workflowHash !== undefined && row.workflowHash !== workflowHash) continue;
      matching++;
      const run = observedRunOfTrace(row.trace, `served-${row.id}`, row.createdAt);
      if (!run) {
        problems.push(`${path}: served run ${row.id} (${row.createdAt}): its trace has no calls`);
        continue;
      }
      runs.push(run);
      hashes.set(run.id, row.workflowHash);
    }
    if (matching === 0 && rows.length > 0 && workflowHash !== undefined) {
      const seen = [...new Set(rows.map((r) => r.workflowHash ?? '(none)'))].slice(0, 5);
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `${path} has ${rows.length} served runs, none of the workflow with hash ${workflowHash.slice(0, 12)}`,
        hint: `Its runs are of the workflows ${seen.map((h) => h.slice(0, 12)).join(', ')}: pass the workflow that was served.`,
        location: { file: path },
      });
    }
    return { kind: 'store', runs, workflowHashes: hashes, unreadable: { count: problems.length, problems } };
  } finally {
    store.close();
  }
}

/** A SQLite database file (by its header). */
function isSqlite(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    return n === 16 && head.toString('latin1') === 'SQLite format 3\u0000';
  } finally {
    closeSync(fd);
  }
}

/** The longest first line read to tell what a file holds (a record of tens of thousands of calls is megabytes). */
const MAX_FIRST_LINE_BYTES = 256 * 1024 * 1024;

/**
 * The first non-empty line of a text file parsed as JSON (undefined when there is none, `value`
 * undefined when it is not JSON). The line is read whole, however long: a record of 20 000 calls
 * is one line of over a megabyte, and a line cut short would not parse.
 */
function firstLine(path: string): { value: unknown } | undefined {
  const fd = openSync(path, 'r');
  try {
    let buf = Buffer.alloc(0);
    let position = 0;
    let line: Buffer | undefined;
    while (line === undefined) {
      const nl = buf.indexOf(0x0a);
      if (nl >= 0) {
        const candidate = buf.subarray(0, nl);
        buf = buf.subarray(nl + 1);
        if (candidate.toString('utf8').trim() !== '') line = candidate;
        continue;
      }
      const chunk = Buffer.alloc(1 << 20);
      const n = buf.length > MAX_FIRST_LINE_BYTES ? 0 : readSync(fd, chunk, 0, chunk.length, position);
      if (n === 0) line = buf;
      else {
        position += n;
        buf = Buffer.concat([buf, chunk.subarray(0, n)]);
      }
    }
    const text = line.toString('utf8').replace(/^\uFEFF/, '');
    if (text.trim() === '') return undefined;
    try {
      return { value: parseJsonBounded(text) };
    } catch {
      return { value: undefined };
    }
  } finally {
    closeSync(fd);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
