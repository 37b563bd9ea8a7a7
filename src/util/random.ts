/**
 * A small seeded pseudo-random generator (mulberry32), so splits, search and benchmarks are
 * reproducible from a seed (injected, never global). Not for cryptography.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n) (n ≥ 1). */
  int(n: number): number;
  /** A shuffled copy of `items` (Fisher-Yates); the input is not changed. */
  shuffle<T>(items: readonly T[]): T[];
}

/** Creates a generator from a seed; equal seeds give equal sequences. Strings are hashed to a seed. */
export function createRandom(seed: number | string): Random {
  let state = typeof seed === 'string' ? hashString(seed) : Math.floor(seed) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`int(n) needs an integer n ≥ 1, got ${n}`);
    return Math.floor(next() * n);
  };
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  };
  return { next, int, shuffle };
}

/** FNV-1a 32-bit hash of a string, used to turn string seeds into numbers. */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
