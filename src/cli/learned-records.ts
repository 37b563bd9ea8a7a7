import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FlowScoutError } from '../errors/index.js';
import { CUE_TABLE_FORMAT } from '../policies/offline/cue-model.js';
import { LEARNED_RECORDS_FILE } from '../search/artifacts.js';

/**
 * What the offline policy learns from when `run` or `eval` runs a workflow: `--learn-from` when
 * given, else the records an older search wrote beside the workflow and named in
 * `meta.search.learnedFrom`. A workflow a search writes now carries its offline table
 * (`learned.offline`) and names no file: the policy reads the table from the workflow itself.
 */

export interface LearnedSource {
  file: string;
  origin: 'flag' | 'search';
}

export function learnedSource(
  workflowFile: string,
  raw: unknown,
  learnFrom: string | undefined,
): LearnedSource | undefined {
  if (learnFrom) return { file: learnFrom, origin: 'flag' };
  const meta = (raw as { meta?: { search?: { learnedFrom?: unknown } } } | null)?.meta?.search?.learnedFrom;
  if (typeof meta !== 'string' || !meta) return undefined;
  const file = resolve(dirname(workflowFile), meta);
  if (!existsSync(file)) {
    throw new FlowScoutError({
      code: 'FILE_NOT_FOUND',
      message: `the workflow says the offline policy learned from ${meta}, but ${file} is missing`,
      hint: `Keep ${LEARNED_RECORDS_FILE} beside the workflow the search wrote, or pass --learn-from <records> (the records it was searched on, never the evaluated ones).`,
      location: { file: workflowFile, path: '$.meta.search.learnedFrom' },
    });
  }
  return { file, origin: 'search' };
}

/** The one line `run` and `eval` print about what the offline policy learned (undefined for an LLM policy). */
export function learnedLine(
  policyKind: string,
  source: LearnedSource | undefined,
  records: number,
  raw?: unknown,
): string | undefined {
  if (policyKind !== 'offline') return undefined;
  const table = (raw as { learned?: { offline?: { records?: unknown; format?: unknown } } } | null)?.learned?.offline;
  const carried = table?.records;
  if (!source && typeof carried === 'number') {
    const format = typeof table?.format === 'number' ? table.format : 1;
    const older =
      format < CUE_TABLE_FORMAT
        ? `; the table was written by an earlier version of the offline policy's learning (format ${format}, now ${CUE_TABLE_FORMAT}), so some choices differ from a search run today: run the search again to bring it up to date`
        : '';
    return `offline policy: decides with the table the workflow carries (learned by its search from ${carried} record${carried === 1 ? '' : 's'}; no record text)${older}`;
  }
  if (!source)
    return `offline policy: nothing learned (no --learn-from, and the workflow names no learned records); tool and argument choices use the tool descriptions only, so scores are lower than a search's`;
  return `offline policy: learned from ${records} record${records === 1 ? '' : 's'} in ${source.file}${source.origin === 'search' ? ' (written by the search beside the workflow)' : ''}`;
}
