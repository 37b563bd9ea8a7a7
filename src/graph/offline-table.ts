import { describeValue } from './problems.js';

/**
 * The shape of the offline policy's table a workflow carries in `learned.offline` (written by the
 * policy's `cueTable`, read back by `cueModelFromTable`): maps as `[key, value]` pairs, counts as
 * numbers. Keys it does not know are allowed, so a table written by a newer or older version still
 * loads; known parts with the wrong shape are problems at their path inside the table.
 *
 * Written by hand rather than as a schema: a table can hold tens of thousands of pairs, and every
 * place that loads a workflow checks it (a search validates each candidate; the worker, each job),
 * so the walk allocates nothing unless it finds a problem.
 */

export interface TableIssue {
  /** Path inside the table (`['tools', 0, 1, 'params']`). */
  path: Array<string | number>;
  message: string;
}

/** At most this many issues are reported per table (a damaged table usually repeats one mistake). */
const MAX_ISSUES = 20;

const COUNT_MAPS_OF_PARAM = [
  'values',
  'cues',
  'shapes',
  'rawTypes',
  'outputKeys',
  'termsWhenSet',
  'termsWhenUnset',
] as const;
const COUNT_MAPS_OF_TOOL = ['clauseWords', 'previous', 'positions', 'patterns'] as const;
const NUMBERS_OF_PARAM = [
  'calls',
  'set',
  'asDefault',
  'fromQuery',
  'fromOutput',
  'fromElsewhere',
  'loweredFromQuery',
  'sluggedFromQuery',
  'monthFromQuery',
] as const;
const SET_COUNTS_OF_PARAM = ['whenNamed', 'whenUnnamed', 'whenValueWritten'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The problems of a `learned.offline` table (empty when its known parts have the right shape). */
export function offlineTableIssues(table: unknown): TableIssue[] {
  const issues: TableIssue[] = [];
  const full = () => issues.length >= MAX_ISSUES;
  const add = (path: Array<string | number>, message: string) => {
    if (!full()) issues.push({ path, message });
  };
  const object = (v: unknown, path: Array<string | number>): v is Record<string, unknown> => {
    if (isObject(v)) return true;
    add(path, `expected an object, got ${describeValue(v)}`);
    return false;
  };
  const number = (v: unknown, path: Array<string | number>) => {
    if (v !== undefined && typeof v !== 'number') add(path, `expected a number, got ${describeValue(v)}`);
  };
  /** A map written as `[key, value]` pairs; `each` checks a value (`numbers`: each value a count). */
  const pairs = (
    v: unknown,
    path: Array<string | number>,
    each: 'numbers' | 'any' | ((value: unknown, path: Array<string | number>) => void),
  ) => {
    if (v === undefined) return;
    if (!Array.isArray(v)) return add(path, `expected an array of [key, value] pairs, got ${describeValue(v)}`);
    for (let i = 0; i < v.length && !full(); i++) {
      const p: unknown = v[i];
      if (!Array.isArray(p) || p.length !== 2 || (typeof p[0] !== 'string' && typeof p[0] !== 'number')) {
        add([...path, i], `expected a [key, value] pair, got ${describeValue(p)}`);
        continue;
      }
      if (each === 'numbers') {
        if (typeof p[1] !== 'number') add([...path, i, 1], `expected a number, got ${describeValue(p[1])}`);
      } else if (each !== 'any') each(p[1], [...path, i, 1]);
    }
  };
  const param = (v: unknown, path: Array<string | number>) => {
    if (!object(v, path)) return;
    for (const k of NUMBERS_OF_PARAM) number(v[k], [...path, k]);
    for (const k of COUNT_MAPS_OF_PARAM) pairs(v[k], [...path, k], 'numbers');
    pairs(v.raw, [...path, 'raw'], 'any');
    for (const k of SET_COUNTS_OF_PARAM) {
      const c = v[k];
      if (c === undefined || !object(c, [...path, k])) continue;
      number(c.calls, [...path, k, 'calls']);
      number(c.set, [...path, k, 'set']);
    }
  };
  const tool = (v: unknown, path: Array<string | number>) => {
    if (!object(v, path)) return;
    number(v.uses, [...path, 'uses']);
    pairs(v.params, [...path, 'params'], param);
    for (const k of COUNT_MAPS_OF_TOOL) pairs(v[k], [...path, k], 'numbers');
    if (v.clauses !== undefined && (!Array.isArray(v.clauses) || v.clauses.some((c) => typeof c !== 'string')))
      add([...path, 'clauses'], `expected an array of strings, got ${describeValue(v.clauses)}`);
  };

  if (!object(table, [])) return issues;
  number(table.format, ['format']);
  number(table.records, ['records']);
  pairs(table.tools, ['tools'], tool);
  pairs(table.params, ['params'], param);
  return issues;
}
