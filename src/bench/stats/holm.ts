/**
 * Holm's step-down correction (Holm 1979) across the baselines FlowScout is compared with:
 * sort the m p-values ascending, multiply the k-th smallest (1-based) by m − k + 1, cap at 1, and make the sequence non-decreasing. Returns the adjusted
 * p-values in the input order. NaN (no test) stays NaN and does not count towards m.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const tested = pValues.map((p, i) => ({ p, i })).filter((x) => Number.isFinite(x.p));
  const m = tested.length;
  const out = pValues.map(() => Number.NaN);
  tested.sort((a, b) => a.p - b.p || a.i - b.i);
  let running = 0;
  tested.forEach(({ p, i }, k) => {
    running = Math.max(running, Math.min(1, (m - k) * p));
    out[i] = running;
  });
  return out;
}
