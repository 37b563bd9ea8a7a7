import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDemoFolder, shortenTree } from './demo-folder.js';

describe('demo folder and tree shortening', () => {
  it('makes a new timestamped folder each time, never reusing one', () => {
    const root = mkdtempSync(join(tmpdir(), 'demo-root-'));
    const now = new Date('2026-01-02T03:04:05Z');
    const a = freshDemoFolder(root, now);
    const b = freshDemoFolder(root, now);
    expect(a).toBe(join(root, '20260102-030405'));
    expect(b).toBe(join(root, '20260102-030405-2'));
    expect(readdirSync(root).sort()).toEqual(['20260102-030405', '20260102-030405-2']);
  });
  it('cuts a long tree at a child boundary and says how much was cut', () => {
    const tree = `X( ${Array.from({ length: 50 }, (_, i) => `'tool_${i}'`).join(', ')} )`;
    const short = shortenTree(tree, 100);
    expect(short.length).toBeLessThan(140);
    expect(short).toMatch(/^X\( 'tool_0', .*'tool_\d+', … \(\d+ more characters\)$/);
    expect(Number(/\((\d+) more/.exec(short)![1]) + short.indexOf(', …')).toBe(tree.length);
    expect(shortenTree("->( 'a', 'b' )")).toBe("->( 'a', 'b' )");
  });
});
