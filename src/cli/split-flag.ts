import { FlowScoutError } from '../errors/index.js';
import type { SplitBy } from '../records/split.js';

/** `--split-by`, which search, bench and baseline share. */
export const SPLIT_BY_HELP =
  'how records are split into D_opt, D_val and D_test: auto (whole groups when the records have groups, so a task run several times stays in one part; else single records), record (single records), or group (whole groups; an error when no record has a group)';

/** Parses `--split-by`; INVALID_INPUT naming the choices otherwise. */
export function parseSplitBy(value: string): SplitBy {
  if (value === 'auto' || value === 'record' || value === 'group') return value;
  throw new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `--split-by must be auto, record or group, not '${value}'`,
    hint: 'auto splits by group when the records have groups (import --group writes them), else by record.',
  });
}
