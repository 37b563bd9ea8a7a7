/**
 * "Did you mean …?" for tool names: an unknown name is answered with the closest available ones, so a
 * typo in a workflow's hint or a policy's plan is fixed in one step.
 */

/** Up to `max` names of `available` closest to `name` (edit distance, then prefix/substring), best first. */
export function closeNames(name: string, available: Iterable<string>, max = 3): string[] {
  const target = name.toLowerCase();
  const scored: Array<{ n: string; d: number }> = [];
  for (const n of available) {
    const lower = n.toLowerCase();
    let d = editDistance(target, lower);
    if (lower.includes(target) || target.includes(lower)) d = Math.min(d, Math.abs(lower.length - target.length) / 4);
    scored.push({ n, d });
  }
  const limit = Math.max(3, Math.floor(name.length / 3));
  return scored
    .filter((s) => s.d <= limit)
    .sort((a, b) => a.d - b.d || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0))
    .slice(0, max)
    .map((s) => s.n);
}

/** One sentence naming close matches and (a capped list of) everything available. */
export function describeUnknownName(kind: string, name: string, available: readonly string[]): string {
  if (available.length === 0) return `unknown ${kind} '${name}'; no ${kind}s are loaded`;
  const close = closeNames(name, available);
  const sorted = [...available].sort();
  const shown =
    sorted.length > 10 ? `${sorted.slice(0, 10).join(', ')}, … (${sorted.length} in all)` : sorted.join(', ');
  const mean = close.length > 0 ? `; did you mean ${close.map((c) => `'${c}'`).join(' or ')}?` : '';
  return `unknown ${kind} '${name}'${mean} available: ${shown}`;
}

/** Levenshtein distance (two-row dynamic programme). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
