/** `text` on one line (runs of whitespace become one space) and cut to `max` characters, ending in `…` when cut. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
