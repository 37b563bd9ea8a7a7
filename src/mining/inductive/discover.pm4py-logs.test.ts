import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readEventLog } from '../event-log/read-event-log.js';
import { formatProcessTree } from '../process-tree/format.js';
import { parseProcessTree } from '../process-tree/parse.js';
import { discoverProcessTree } from './discover.js';

/**
 * The miner against PM4Py 2.7.11 on every log of shared/datasets/pm4py-logs (NOTES.md): the IM tree
 * must equal PM4Py's string exactly for all 59 logs, and the IMf 0.2 tree for all but the three logs
 * whose IMf tree depends on Python's hash seed inside PM4Py itself (for those, IM only).
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const base = [join(repo, '../shared/datasets/pm4py-logs'), '/work/shared/datasets/pm4py-logs'].find((p) => existsSync(p));
if (!base) throw new Error('shared/datasets/pm4py-logs not found next to the repository; the mining anchor test needs it');

interface Expected {
  _hash_seed_dependent: string[];
  trees: Record<string, { im: string; 'imf0.2': string }>;
}
const expected = JSON.parse(readFileSync(join(base, 'expected-trees.json'), 'utf8')) as Expected;
const names = Object.keys(expected.trees);

describe('PM4Py anchor logs', () => {
  it('covers all 59 logs', () => {
    expect(names).toHaveLength(59);
  });

  it.each(names)('%s', async (name) => {
    const { log } = await readEventLog(join(base, name));
    const want = expected.trees[name]!;
    expect(formatProcessTree(discoverProcessTree(log))).toBe(want.im);
    if (!expected._hash_seed_dependent.includes(name)) {
      expect(formatProcessTree(discoverProcessTree(log, { noiseThreshold: 0.2 }))).toBe(want['imf0.2']);
    }
    // The printed trees parse back to themselves.
    expect(formatProcessTree(parseProcessTree(want.im))).toBe(want.im);
    expect(formatProcessTree(parseProcessTree(want['imf0.2']))).toBe(want['imf0.2']);
  });
});
