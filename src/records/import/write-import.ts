import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FlowScoutError } from '../../errors/index.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { writeTextFile } from '../../util/json-file.js';
import { writeRecordsFile } from '../read-records.js';
import type { TaskRecord } from '../schema.js';

/**
 * Writes an import's output folder: `records.jsonl`, and when tools are known `tools.json` (the
 * descriptor array) and `tools.config.json` (a tool config with one replay source over the two files,
 * by relative path, so the folder can be moved; with `effects`, that config declares them: `import
 * --apply-effects`), and any further files of the folder (`also`: name → text, e.g. the suggested
 * tool effects). Checks every target first: nothing is written unless all
 * of them may be (missing, or `force`).
 */
export function writeImportFolder(
  dir: string,
  records: readonly TaskRecord[],
  tools: readonly ToolDescriptor[] | undefined,
  opts: { force?: boolean; also?: Readonly<Record<string, string>>; effects?: Readonly<Record<string, string>> } = {},
): string[] {
  const files = {
    records: join(dir, 'records.jsonl'),
    tools: join(dir, 'tools.json'),
    config: join(dir, 'tools.config.json'),
  };
  const also = Object.entries(opts.also ?? {}).map(([name, text]) => [join(dir, name), text] as const);
  const targets = [...(tools ? [files.records, files.tools, files.config] : [files.records]), ...also.map(([f]) => f)];
  const existing = targets.filter((f) => existsSync(f));
  if (existing.length && !opts.force) {
    throw new FlowScoutError({
      code: 'FILE_EXISTS',
      message: `not overwriting ${existing.join(', ')}`,
      hint: 'Choose another --out folder, or pass --force to overwrite.',
      location: { file: existing[0] },
    });
  }
  writeRecordsFile(files.records, records, { force: true });
  if (tools) {
    writeTextFile(files.tools, `${JSON.stringify(tools, null, 2)}\n`, { force: true });
    const config = {
      version: 1,
      ...(opts.effects && Object.keys(opts.effects).length > 0 ? { effects: opts.effects } : {}),
      sources: [{ type: 'replay', records: 'records.jsonl', tools: 'tools.json' }],
    };
    writeTextFile(files.config, `${JSON.stringify(config, null, 2)}\n`, { force: true });
  }
  for (const [file, text] of also) writeTextFile(file, text, { force: true });
  return targets;
}
