/**
 * `compute()` for `key`, computed once and kept in `memo`, which holds at most `size` entries (the
 * oldest dropped first). For memos of pure functions: a key dropped and asked again computes the
 * same value.
 */
export function remember<K, V>(memo: Map<K, V>, key: K, size: number, compute: () => V): V {
  if (memo.has(key)) return memo.get(key) as V;
  const value = compute();
  if (memo.size >= size) memo.delete(memo.keys().next().value as K);
  memo.set(key, value);
  return value;
}
