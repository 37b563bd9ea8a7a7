/** How `clip` shortens a text (the defaults give a one-line label ending in `…`). */
export interface ClipOptions {
  /** Keep the text's whitespace as it is (default: runs of whitespace become one space, ends trimmed). */
  keepWhitespace?: boolean;
  /**
   * What ends a cut text (default `…`). A function gets the number of characters cut away; its text
   * is sized for the largest count it could show, so the result never exceeds `max`, and a `max` no
   * wider than that gives the bare first `max` characters.
   */
  marker?: string | ((cutChars: number) => string);
  /** Keep `max` characters and add a string marker after them (default: the marker counts toward `max`). */
  markerAfterMax?: boolean;
}

/**
 * The one text-truncation helper: `text` (on one line unless `keepWhitespace`) cut to `max`
 * characters with a marker when it is longer. Labels and summaries use the defaults; prompts keep
 * their whitespace and say how much was cut.
 */
export function clip(text: string, max: number, opts: ClipOptions = {}): string {
  const t = opts.keepWhitespace ? text : text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const marker = opts.marker ?? '…';
  if (typeof marker === 'function') {
    const widest = marker(t.length).length;
    if (max <= widest) return t.slice(0, Math.max(0, max));
    const keep = max - widest;
    return `${t.slice(0, keep)}${marker(t.length - keep)}`;
  }
  return opts.markerAfterMax ? `${t.slice(0, max)}${marker}` : `${t.slice(0, max - marker.length)}${marker}`;
}
