import { basename, dirname } from 'node:path';

/**
 * What a records file is called when its records name no domain: the file's name without its
 * extension, or its folder's name when the file is the `records.jsonl` an import writes (so
 * `retail/records.jsonl` is "retail", not "records"). Used to name the G0 mined from it.
 */
export function recordsLabel(file: string): string {
  const base = basename(file).replace(/\.(jsonl|ndjson|json|csv|tsv|xes)(\.gz)?$/i, '');
  return base === 'records' ? basename(dirname(file)) || base : base;
}
