import { createRandom } from '../util/random.js';
import type { TaskRecord } from './schema.js';

/**
 * Stratified orders and samples of records, for evaluating a workflow on part of a record set
 * (the search's racing of candidates, `--max-opt` / `--max-val` / `--max-test`). A record's stratum
 * is its group (the `group` field, when the records have one) and its tool-set family (the sorted
 * set of tools its reference calls use — the records a mined router sends down one route share it).
 * The order spreads each stratum's records evenly over its length (strata and records within a
 * stratum shuffled by the seed), so every prefix of it is a stratified sample: each stratum in
 * proportion to its size, to within one record.
 */

/** The stratum of a record: its group and the set of tools its reference calls use. */
export function stratumOf(record: TaskRecord): string {
  const tools = [...new Set(record.calls.map((c) => c.tool))].sort();
  return `${record.group ?? ''}\u0000${tools.join('\u0001')}`;
}

/** The records in a stratified order (see the module comment); the same seed gives the same order. */
export function stratifiedOrder(records: readonly TaskRecord[], seed: number | string): TaskRecord[] {
  const random = createRandom(`stratify:${seed}`);
  const byStratum = new Map<string, TaskRecord[]>();
  for (const r of records) {
    const key = stratumOf(r);
    let list = byStratum.get(key);
    if (!list) byStratum.set(key, (list = []));
    list.push(r);
  }
  // Larger strata deal more often: each stratum's records are spread evenly over the whole order
  // (record k of a stratum of size m sits at position (k + u) / m, u a seeded offset), so a prefix
  // holds every stratum in proportion to its size.
  const keyed: Array<{ at: number; tie: number; record: TaskRecord }> = [];
  const strata = random.shuffle([...byStratum.keys()].sort());
  strata.forEach((key, s) => {
    const list = random.shuffle(byStratum.get(key)!);
    const offset = random.next();
    list.forEach((record, k) => keyed.push({ at: (k + offset) / list.length, tie: s, record }));
  });
  keyed.sort((a, b) => a.at - b.at || a.tie - b.tie);
  return keyed.map((x) => x.record);
}

/** A stratified sample of at most `max` records (all of them when there are no more), kept in their input order. */
export function stratifiedSample(records: readonly TaskRecord[], max: number, seed: number | string): TaskRecord[] {
  if (records.length <= max) return records.slice();
  const picked = new Set(stratifiedOrder(records, seed).slice(0, Math.max(0, max)));
  return records.filter((r) => picked.has(r));
}
