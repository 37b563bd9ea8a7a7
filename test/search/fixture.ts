import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledTrajectPaths } from '../../src/records/bundled.js';
import { importTraject } from '../../src/records/import/traject.js';
import { writeImportFolder } from '../../src/records/import/write-import.js';

/**
 * A small real search domain for tests: the first `records` records of a bundled TRAJECT-Bench
 * domain (whole API chains, real recorded responses), written as records.jsonl, tools.json and a
 * replay tools.config.json in a fresh temporary folder.
 */
export interface SearchFixture {
  dir: string;
  records: string;
  tools: string;
}

export function writeSearchFixture(opts: { domain?: string; records?: number } = {}): SearchFixture {
  const paths = bundledTrajectPaths(opts.domain ?? 'Finance');
  const imported = importTraject(paths.trajQuery, paths.tools);
  const dir = mkdtempSync(join(tmpdir(), 'flowscout-search-'));
  const data = join(dir, 'data');
  writeImportFolder(data, imported.records.slice(0, opts.records ?? 16), imported.tools);
  return { dir, records: join(data, 'records.jsonl'), tools: join(data, 'tools.config.json') };
}
