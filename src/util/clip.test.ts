import { describe, expect, it } from 'vitest';
import { clip } from './clip.js';

describe('clip', () => {
  it('by default puts the text on one line and ends a cut one in … within max', () => {
    expect(clip('  a\n\tb  c ', 10)).toBe('a b c');
    expect(clip('abcdefghij', 10)).toBe('abcdefghij');
    expect(clip('abcdefghijk', 10)).toBe('abcdefghi…');
    expect(clip('abcdefghijk', 10)).toHaveLength(10);
  });

  it('adds a string marker after max characters when asked', () => {
    expect(clip('a  b c d e', 3, { markerAfterMax: true })).toBe('a b…');
    expect(clip('line one\nline two', 8, { keepWhitespace: true, marker: '… [truncated]', markerAfterMax: true })).toBe(
      'line one… [truncated]',
    );
    expect(clip('short\n', 80, { keepWhitespace: true, marker: '… [truncated]', markerAfterMax: true })).toBe(
      'short\n',
    );
  });

  it('sizes a counting marker for the largest count, so the result never exceeds max', () => {
    const marker = (n: number) => ` … [truncated ${n} chars]`;
    const text = 'x'.repeat(100);
    const out = clip(text, 40, { keepWhitespace: true, marker });
    expect(out).toBe(`${'x'.repeat(16)} … [truncated 84 chars]`);
    expect(out.length).toBeLessThanOrEqual(40);
    // No room for the marker: the bare first max characters.
    expect(clip(text, 20, { keepWhitespace: true, marker })).toBe('x'.repeat(20));
    expect(clip(text, 0, { keepWhitespace: true, marker })).toBe('');
    for (let max = 0; max <= 120; max++)
      expect(clip(text, max, { keepWhitespace: true, marker }).length).toBeLessThanOrEqual(max);
  });
});
