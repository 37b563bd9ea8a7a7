import { z } from 'zod';
import { jsonPath, storedRowError } from '../store/columns.js';
import type { RunRow } from '../store/types.js';

/**
 * A resumed run's stored settings, parsed instead of trusted: each field the search reads must have
 * its type (fields that runs stored by older versions lack may be absent, as before; unknown fields
 * are kept). A config that does not parse is a STORE_ERROR naming the store, the run and the JSON
 * path, before anything of the run is taken or written.
 */
const num = z.number();
const optNum = num.optional();
const optStr = z.string().optional();

const StoredSettings = z.looseObject({
  strategy: z.enum(['mcts', 'beam']).optional(),
  iterations: optNum,
  patience: optNum,
  children: optNum,
  beamWidth: optNum,
  lambdaMax: optNum,
  lambdaMin: optNum,
  seed: num,
  concurrency: optNum,
  llmOnly: z.boolean().optional(),
  racing: z.boolean().optional(),
  maxOpt: optNum,
  maxVal: optNum,
  maxTest: optNum,
});

const StoredSearchConfig = z.looseObject({
  records: z.string(),
  tools: z.string(),
  model: optStr,
  optimizerModel: optStr,
  judgeModel: optStr,
  judgeMode: z.enum(['per-dimension', 'joint']).optional(),
  split: z.string(),
  splitBy: z.enum(['auto', 'record', 'group']).optional(),
  start: z.enum(['mined', 'branched', 'skeleton', 'plain', 'llm-only']).optional(),
  from: optStr,
  strategy: z.enum(['mcts', 'beam', 'none']).optional(),
  memo: z.boolean().optional(),
  settings: StoredSettings,
  budget: z.looseObject({ calls: optNum, tokens: optNum, usd: optNum, minutes: optNum }),
  outDir: optStr,
  skipInvalid: z.boolean().optional(),
  allowLiveWrites: z.boolean().optional(),
  /** Written by older versions (the offline policy's learned records beside the workflow); no longer read. */
  learnedRecords: optStr,
});

/**
 * The stored run's config, parsed, as the caller's config type (prepare-search's `SearchConfig`,
 * named there to keep this file out of an import cycle), or STORE_ERROR naming `file`, the run and
 * the path that failed.
 */
export function parseStoredConfig<Config>(file: string, run: Pick<RunRow, 'id' | 'config'>): Config {
  const parsed = StoredSearchConfig.safeParse(run.config);
  if (parsed.success) return parsed.data as Config;
  const issue = parsed.error.issues[0]!;
  throw storedRowError({
    file,
    table: 'runs',
    id: run.id,
    path: jsonPath('config', issue.path),
    problem: issue.message,
  });
}
