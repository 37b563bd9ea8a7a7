import { describe, expect, it } from 'vitest';
import { CUE_TABLE_FORMAT } from '../policies/offline/cue-model.js';
import { learnedLine } from './learned-records.js';

describe('the line run and eval print about what the offline policy learned', () => {
  const withTable = (offline: Record<string, unknown>) => ({ learned: { offline } });

  it("names the records the workflow's table was learned from, and says when an earlier version wrote it", () => {
    const current = learnedLine('offline', undefined, 0, withTable({ format: CUE_TABLE_FORMAT, records: 56 }));
    expect(current).toBe(
      'offline policy: decides with the table the workflow carries (learned by its search from 56 records; no record text)',
    );
    // A table from before versions were recorded is format 1.
    const older = learnedLine('offline', undefined, 0, withTable({ records: 56 }));
    expect(older).toContain(`(format 1, now ${CUE_TABLE_FORMAT})`);
    expect(older).toContain('run the search again to bring it up to date');
    expect(learnedLine('llm', undefined, 0, withTable({ records: 56 }))).toBeUndefined();
  });
});
