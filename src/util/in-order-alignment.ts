/**
 * The one in-order alignment of two sequences that FlowScout uses wherever it lines one sequence up
 * with another (docs/ARCHITECTURE.md, `src/util/`): TC's longest common subsequence of calls and its
 * graded pairing, the merge of a process tree's alternatives step by step, the hand-off of
 * a request's parts to a workflow's steps, and the offline router's fit of a request to a
 * route's tools. (Conformance aligns traces against a process tree's language instead, with PM4Py's
 * costs: a different problem, in `conformance/aligner.ts`.)
 *
 * Rows 0..n−1 and columns 0..m−1 are paired in order: each pair (i, j) comes after the previous one
 * in both sequences. `pair(i, j)` is the value of pairing row i with column j, or `undefined` when the
 * two may not pair; a row or column left unpaired costs nothing. A column for which `many(j)` holds
 * may take several rows (it pairs with each in turn). The pairing maximises the summed value; with
 * `morePairs`, among equal sums the one with more pairs.
 *
 * Among equally good pairings, `ties` decides: `'early'` pairs as soon as it can (at each step: pair,
 * else leave the row, else leave the column), `'late'` leaves rows and columns first (leave the row,
 * else leave the column, else pair). Two values count as equal within 1e-12.
 */

export interface InOrderOptions {
  /** Column j may take several rows (default: none may). */
  many?: (j: number) => boolean;
  /** Which of several equally good pairings (default `'early'`; see the file comment). */
  ties?: 'early' | 'late';
  /** Among pairings of equal value, prefer the one with more pairs (default false). */
  morePairs?: boolean;
}

/** One step of the pairing, in order: a pair, or a row or column left unpaired. */
export type AlignmentStep =
  { kind: 'pair'; i: number; j: number } | { kind: 'row'; i: number } | { kind: 'col'; j: number };

export interface InOrderAlignment {
  /** The summed value of the pairs. */
  value: number;
  /** The pairs [row, column], in order. */
  pairs: Array<[number, number]>;
  /** Every row and column in order, paired or not. */
  steps: AlignmentStep[];
}

const EPS = 1e-12;

/** The best in-order pairing of `n` rows with `m` columns (see the file comment). */
export function alignInOrder(
  n: number,
  m: number,
  pair: (i: number, j: number) => number | undefined,
  opts: InOrderOptions = {},
): InOrderAlignment {
  const many = opts.many;
  const late = opts.ties === 'late';
  const morePairs = opts.morePairs === true;
  // Suffix tables over (i, j, u): the best of rows i.. with columns j.., u = 1 when column j
  // already took a row (only then does `many` matter).
  const w = m + 1;
  const cells = (n + 1) * w * 2;
  const value = new Float64Array(cells);
  const count = new Uint32Array(cells);
  const move = new Uint8Array(cells); // 1 leave the row, 2 leave the column, 3 pair
  const at = (i: number, j: number, u: number) => (i * w + j) * 2 + u;
  const scores = new Float64Array(n * m);
  const allowed = new Uint8Array(n * m);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < m; j++) {
      const s = pair(i, j);
      if (s !== undefined && s !== -Infinity) {
        scores[i * m + j] = s;
        allowed[i * m + j] = 1;
      }
    }
  const better = (v: number, c: number, bv: number, bc: number) =>
    v > bv + EPS || (morePairs && Math.abs(v - bv) <= EPS && c > bc);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const several = many?.(j) === true;
      for (let u = 1; u >= 0; u--) {
        const here = at(i, j, u);
        const col = at(i, j + 1, 0);
        if (u === 1 && !several) {
          // Column j is done: move on to the next one.
          value[here] = value[col]!;
          count[here] = count[col]!;
          move[here] = 2;
          continue;
        }
        const row = at(i + 1, j, u);
        const canPair = allowed[i * m + j] === 1;
        const pv = canPair ? value[at(i + 1, j, 1)]! + scores[i * m + j]! : 0;
        const pc = canPair ? count[at(i + 1, j, 1)]! + 1 : 0;
        let bv: number;
        let bc: number;
        let bm: number;
        if (late || !canPair) [bv, bc, bm] = [value[row]!, count[row]!, 1];
        else [bv, bc, bm] = [pv, pc, 3];
        if (!late && canPair && better(value[row]!, count[row]!, bv, bc)) [bv, bc, bm] = [value[row]!, count[row]!, 1];
        if (better(value[col]!, count[col]!, bv, bc)) [bv, bc, bm] = [value[col]!, count[col]!, 2];
        if (late && canPair && better(pv, pc, bv, bc)) [bv, bc, bm] = [pv, pc, 3];
        value[here] = bv;
        count[here] = bc;
        move[here] = bm;
      }
    }
  }
  const pairs: Array<[number, number]> = [];
  const steps: AlignmentStep[] = [];
  let i = 0;
  let j = 0;
  let u = 0;
  let took = false; // whether column j took a row on this path
  while (i < n && j < m) {
    const mv = move[at(i, j, u)]!;
    if (mv === 3) {
      pairs.push([i, j]);
      steps.push({ kind: 'pair', i, j });
      i++;
      u = 1;
      took = true;
    } else if (mv === 2) {
      if (!took) steps.push({ kind: 'col', j });
      j++;
      u = 0;
      took = false;
    } else {
      steps.push({ kind: 'row', i });
      i++;
    }
  }
  for (; i < n; i++) steps.push({ kind: 'row', i });
  if (j < m && !took) steps.push({ kind: 'col', j });
  for (j++; j < m; j++) steps.push({ kind: 'col', j });
  return { value: n > 0 && m > 0 ? value[at(0, 0, 0)]! : 0, pairs, steps };
}
