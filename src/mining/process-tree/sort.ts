import { createHash } from 'node:crypto';
import type { ProcessTree } from './schema.js';

/**
 * PM4Py's `tree_sort` (docs/DESIGN.md, "Matching PM4Py" §5): bottom-up, the children of `X` and `+` (only) are sorted,
 * stably, by the sum over the leaves of their subtree of int(md5(label as UTF-8), 16). The sum is a
 * 128-bit-plus number, so it is a BigInt here; tau counts 0 and so comes first in an `X`. `->` and
 * `*` keep the miner's order. Returns a new tree.
 */
export function sortProcessTree(tree: ProcessTree): ProcessTree {
  const cache = new Map<string, bigint>();
  return sortNode(tree, cache).tree;
}

/** The md5 key of one label: `int(hashlib.md5(label.encode('utf-8')).hexdigest(), 16)`. */
export function labelKey(label: string): bigint {
  return BigInt(`0x${createHash('md5').update(label, 'utf8').digest('hex')}`);
}

function sortNode(t: ProcessTree, cache: Map<string, bigint>): { tree: ProcessTree; key: bigint } {
  if ('label' in t) {
    let key = cache.get(t.label);
    if (key === undefined) {
      key = labelKey(t.label);
      cache.set(t.label, key);
    }
    return { tree: t, key };
  }
  if ('tau' in t) return { tree: t, key: 0n };
  const kids = t.children.map((c) => sortNode(c, cache));
  let key = 0n;
  for (const k of kids) key += k.key;
  if (t.op === 'xor' || t.op === 'and') kids.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { tree: { op: t.op, children: kids.map((k) => k.tree) }, key };
}
