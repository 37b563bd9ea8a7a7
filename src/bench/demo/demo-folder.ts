import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The demo's output folder: a fresh timestamped folder under the root (`.flowscout/demo/` by
 * default), never an existing one — a second demo in the same second gets `-2`, `-3`, … — so a demo
 * never overwrites anything.
 */
export function freshDemoFolder(root: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  let dir = join(root, stamp);
  for (let k = 2; existsSync(dir); k++) dir = join(root, `${stamp}-${k}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A long PM4Py tree string cut at a child boundary near `max` characters, with a note of what was cut. */
export function shortenTree(tree: string, max = 600): string {
  if (tree.length <= max) return tree;
  const cut = tree.lastIndexOf(', ', max);
  const head = tree.slice(0, cut > max / 2 ? cut : max);
  return `${head}, … (${tree.length - head.length} more characters)`;
}
