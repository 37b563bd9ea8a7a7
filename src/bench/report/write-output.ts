import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FlowScoutError } from '../../errors/index.js';
import { writeTextFile } from '../../util/json-file.js';
import type { BenchResults } from '../experiments/results.js';
import { FIG3, FIG5, stabilityFigure, validationFigure } from './figures.js';
import type { SeedsResults } from '../experiments/seeds.js';
import { renderReport } from './render-report.js';
import { renderSeedsReport } from './render-seeds.js';

/**
 * Writes a benchmark run's output folder: `report.md`, the two SVG figures and `results.json`
 * (every number). Existing files of those names are never overwritten without `force`; the check
 * happens before anything is written, so a refused run leaves the folder as it was.
 */

export const OUTPUT_FILES = ['report.md', FIG3, FIG5, 'results.json'] as const;

export function checkBenchOut(dir: string, force: boolean): void {
  refuseExisting(dir, OUTPUT_FILES, force);
}

/** Refuses (FILE_EXISTS) when `dir` already holds any of `names`, unless `force`. */
function refuseExisting(dir: string, names: readonly string[], force: boolean): void {
  if (force) return;
  const present = names.filter((f) => existsSync(join(dir, f)));
  if (present.length > 0) {
    throw new FlowScoutError({
      code: 'FILE_EXISTS',
      message: `${dir} already holds ${present.join(', ')}`,
      hint: 'Choose another --out folder, or pass --force to overwrite these files.',
      location: { file: join(dir, present[0]!) },
    });
  }
}

export function writeBenchOutput(dir: string, results: BenchResults, force: boolean): string[] {
  checkBenchOut(dir, force);
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [
    ['report.md', renderReport(results)],
    [FIG3, stabilityFigure(results)],
    [FIG5, validationFigure(results)],
    ['results.json', `${JSON.stringify(results, null, 2)}\n`],
  ];
  return files.map(([name, text]) => {
    const file = join(dir, name);
    writeTextFile(file, text, { force: true });
    return file;
  });
}

/** The files of a multi-seed run's folder (each seed's own files are in its sub-folder). */
export const SEEDS_FILES = ['report.md', 'results.json'] as const;

export function checkSeedsOut(dir: string, force: boolean): void {
  refuseExisting(dir, SEEDS_FILES, force);
}

export function writeSeedsOutput(dir: string, results: SeedsResults, force: boolean): string[] {
  checkSeedsOut(dir, force);
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [
    ['report.md', renderSeedsReport(results)],
    ['results.json', `${JSON.stringify(results, null, 2)}\n`],
  ];
  return files.map(([name, text]) => {
    const file = join(dir, name);
    writeTextFile(file, text, { force: true });
    return file;
  });
}
