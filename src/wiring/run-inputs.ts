import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { FlowScoutError } from '../errors/index.js';
import { fileSystemError } from '../errors/to-flowscout-error.js';
import { stableStringify } from '../contracts/canonical-args.js';
import type { RunInputs } from '../store/types.js';

/** The parts of a run's stored settings (`SearchConfig`) its inputs are read from. */
interface RunConfig {
  records: string;
  tools: string;
  budget?: unknown;
  outDir?: string;
}

/**
 * What a search run is bound to: the content hashes of its records file and tools config, and a
 * hash of the settings that decide its results. Stored with the run; `--resume` recomputes them and
 * refuses a run whose inputs changed, because continuing would mix scores of two datasets (a new
 * split of new records) in one search tree.
 */

/** The inputs of `config`, hashed now. */
export function runInputs(config: RunConfig): RunInputs {
  return { records: fileHash(config.records), tools: fileHash(config.tools), settings: settingsHash(config) };
}

/**
 * Hash of the settings that decide a run's results. Budgets and where the outputs go do not: the
 * output folder, and the learned-records file older versions wrote into it (still in the stored
 * settings of their runs, which must resume).
 */
export function settingsHash(config: RunConfig): string {
  const {
    budget: _budget,
    outDir: _out,
    records: _records,
    tools: _tools,
    learnedRecords: _learned,
    ...rest
  } = config as RunConfig & { learnedRecords?: string };
  return sha256(stableStringify(rest as unknown as Record<string, unknown>));
}

function fileHash(file: string): RunInputs['records'] {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (e) {
    throw (e instanceof Error && fileSystemError(e, file)) || e;
  }
  return { file: resolve(file), sha256: sha256(data), bytes: data.length };
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Throws INPUT_CHANGED when `now` differs from what the run `runId` was started on. */
export function checkRunInputs(
  runId: string,
  stored: RunInputs | undefined,
  now: RunInputs,
  newRunCommand: string,
): void {
  if (!stored) return;
  const changed: string[] = [];
  for (const k of ['records', 'tools'] as const) {
    const a = stored[k];
    const b = now[k];
    if (a.sha256 !== b.sha256) {
      changed.push(
        `the ${k === 'records' ? 'records file' : 'tools config'} ${b.file} changed since the run started (${a.bytes} bytes, sha256 ${a.sha256.slice(0, 12)}… then; ${b.bytes} bytes, sha256 ${b.sha256.slice(0, 12)}… now)`,
      );
    }
  }
  if (stored.settings !== now.settings)
    changed.push('the stored settings of the run no longer match its own hash (the store was edited)');
  if (changed.length === 0) return;
  throw new FlowScoutError({
    code: 'INPUT_CHANGED',
    message: `cannot resume run '${runId}': ${changed.join('; ')}. Resuming would mix scores from two datasets in one search.`,
    hint: `Put the original file back to resume, or start a new run on the new input: ${newRunCommand}`,
    details: { runId, stored, now },
  });
}
