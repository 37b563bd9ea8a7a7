import { describe, expect, it } from 'vitest';
import { learnToolHints } from '../../src/dataflow/learn-hints.js';
import { bundledTrajectPaths } from '../../src/records/bundled.js';
import { importTraject } from '../../src/records/import/traject.js';
import type { TaskRecord } from '../../src/records/schema.js';

/**
 * The hints a searched workflow carries grow with what the log says (its tools, vocabulary and
 * recurring values), not with how many runs say it: a 10,000-record log must not make every workflow
 * file tens of megabytes. Shares stay shares; counts never enter a hint.
 */

const paths = bundledTrajectPaths('Travel');
const { records, tools } = importTraject(paths.trajQuery, paths.tools);

/** The records `n` times over, ids made unique (a larger log saying the same things, from the same groups). */
const repeated = (n: number): TaskRecord[] =>
  Array.from({ length: n }, (_, k) => records.map((r) => ({ ...r, id: `${r.id}~${k}` }))).flat();

const size = (rs: readonly TaskRecord[]) => JSON.stringify([...learnToolHints(rs, tools).values()]).length;

describe('the hints a search learns', () => {
  it('grow with the vocabulary, not with the number of runs', () => {
    // More runs make a few more things sure enough to keep (a combination seen three times), then nothing more.
    const once = size(records);
    const ten = size(repeated(10));
    const thirty = size(repeated(30));
    expect(ten / once).toBeLessThan(1.25);
    expect(Math.abs(thirty - ten) / ten).toBeLessThan(0.01);
    expect(once).toBeLessThan(150_000);
  });
});
