import { describe, expect, it } from 'vitest';
import { cueModelFromTable, cueTable, distillCueModel, learnCueModel } from '../../src/policies/offline/cue-model.js';
import { bundledTrajectPaths } from '../../src/records/bundled.js';
import { importTraject } from '../../src/records/import/traject.js';
import type { TaskRecord } from '../../src/records/schema.js';

/**
 * The offline policy's learned table, which a searched workflow carries in `learned.offline`: it
 * must give back the very model the policy decided with, and grow with what the log says (its
 * vocabulary and values), not with how many runs say it — a 10,000-record log must not make every
 * workflow file tens of megabytes.
 */

const paths = bundledTrajectPaths('Travel');
const { records, tools } = importTraject(paths.trajQuery, paths.tools);

/** The records `n` times over, ids made unique (a larger log saying the same things). */
const repeated = (n: number): TaskRecord[] =>
  Array.from({ length: n }, (_, k) => records.map((r) => ({ ...r, id: `${r.id}~${k}` }))).flat();

const tableOf = (rs: readonly TaskRecord[]) => cueTable(distillCueModel(learnCueModel(rs, tools)));

describe('the learned table of a workflow', () => {
  it('gives back the model the offline policy decided with', () => {
    const model = distillCueModel(learnCueModel(records, tools));
    const back = cueModelFromTable(JSON.parse(JSON.stringify(cueTable(model))));
    expect(back).toEqual(model);
  });

  it('grows with the vocabulary, not with the number of runs', () => {
    // Three times over, every value and word of the records recurs enough to be kept; ten times
    // over, only the counts grow (a digit each), nothing is listed more often.
    const three = JSON.stringify(tableOf(repeated(3))).length;
    const ten = JSON.stringify(tableOf(repeated(10))).length;
    expect(ten / three).toBeLessThan(1.2);
  });

  it('still reads a table written when the clauses themselves were kept', () => {
    const model = cueModelFromTable({
      records: 3,
      tools: [
        ['get_weather', { uses: 3, params: [], clauses: ['city forecast forecast'], previous: [], positions: [] }],
      ],
      params: [],
    });
    expect(model.tools.get('get_weather')?.clauses).toEqual(['city forecast forecast']);
  });
});
