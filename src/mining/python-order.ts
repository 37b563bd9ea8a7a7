/**
 * Python's string order (docs/DESIGN.md, "Matching PM4Py" §6.3): PM4Py sorts activity names with Python's `sorted`, which
 * compares strings by Unicode code point. JavaScript's default comparison uses UTF-16 code units,
 * which puts characters above U+FFFF (stored as surrogate pairs) before U+E000–U+FFFF. Every place
 * where the miner sorts names (concurrency alphabet, fall-through candidates, flower alphabet, case
 * ids) uses this comparison so the mined tree equals PM4Py's.
 */

/** Compares two strings by code point, as Python does: negative, zero or positive. */
export function comparePython(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Surrogates (0xD800–0xDFFF) encode code points ≥ 0x10000, so they sort after 0xE000–0xFFFF.
    if (ca >= 0xd800) ca += ca >= 0xe000 ? -0x800 : 0x2000;
    if (cb >= 0xd800) cb += cb >= 0xe000 ? -0x800 : 0x2000;
    return ca - cb;
  }
  return a.length - b.length;
}

/** A sorted copy of `names` in Python order (stable). */
export function sortPython(names: Iterable<string>): string[] {
  return [...names].sort(comparePython);
}
