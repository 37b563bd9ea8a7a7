/**
 * The record page's call table (read-model.ts): the reference and produced calls laid out by the
 * alignment TC already computed (metrics/tool-call-lcs.ts), not aligned again.
 */

export interface RefCall {
  tool: string;
  args: Record<string, unknown>;
  output?: unknown;
}

/** One line of the reference/produced call alignment. */
export interface AlignedCall {
  kind: 'match' | 'wrong-args' | 'reordered' | 'missing' | 'extra';
  reference?: { index: number; tool: string; args: Record<string, unknown> };
  produced?: { index: number; tool: string; args: Record<string, unknown>; status?: string };
  /** wrong-args: the argument keys that differ. */
  keys?: string[];
}

export interface TcDetail {
  matched: Array<[number, number]>;
  missing: number[];
  extra: number[];
  wrongArgs: Array<{ reference: number; predicted: number; keys: string[] }>;
  reordered: Array<{ reference: number; predicted: number }>;
}

/**
 * The reference and produced calls side by side, in reference order, aligned by the LCS TC
 * computed: matched pairs on one line, same-tool calls with wrong arguments and reordered equal
 * calls paired, the rest missing (reference only) or extra (produced only, placed after the
 * reference call it followed).
 */
export function alignCalls(
  reference: RefCall[],
  produced: Array<{ tool: string; args: Record<string, unknown>; status?: string }>,
  d: TcDetail,
): AlignedCall[] {
  const ref = (i: number) => ({ index: i, tool: reference[i]?.tool ?? '?', args: reference[i]?.args ?? {} });
  const pro = (j: number) => ({
    index: j,
    tool: produced[j]?.tool ?? '?',
    args: produced[j]?.args ?? {},
    ...(produced[j]?.status ? { status: produced[j]!.status } : {}),
  });
  const byRef = new Map<number, AlignedCall>();
  for (const [i, j] of d.matched) byRef.set(i, { kind: 'match', reference: ref(i), produced: pro(j) });
  for (const w of d.wrongArgs)
    byRef.set(w.reference, {
      kind: 'wrong-args',
      reference: ref(w.reference),
      produced: pro(w.predicted),
      keys: w.keys,
    });
  for (const r of d.reordered)
    byRef.set(r.reference, { kind: 'reordered', reference: ref(r.reference), produced: pro(r.predicted) });
  const pairedPred = new Set(
    [...byRef.values()].map((a) => a.produced?.index).filter((x): x is number => x !== undefined),
  );
  for (const i of d.missing) if (!byRef.has(i)) byRef.set(i, { kind: 'missing', reference: ref(i) });
  const lines: AlignedCall[] = [...byRef.entries()].sort((a, b) => a[0] - b[0]).map(([, a]) => a);
  // Extra calls go after the line holding the produced call just before them.
  for (const j of [...d.extra].sort((a, b) => a - b)) {
    if (pairedPred.has(j)) continue;
    const line: AlignedCall = { kind: 'extra', produced: pro(j) };
    let at = 0;
    lines.forEach((l, k) => {
      if (l.produced && l.produced.index < j) at = k + 1;
    });
    lines.splice(at, 0, line);
  }
  return lines;
}
