/**
 * A minimal SVG writer for the benchmark figures (hand-written SVG: axes, ticks, labels,
 * legend; no dependency). Elements are strings; every text and attribute value is escaped, so a
 * domain or approach name can never break the document.
 */

/** Okabe–Ito colours: distinguishable with the common colour-vision deficiencies. */
export const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#D55E00',
  '#CC79A7',
  '#56B4E9',
  '#F0E442',
  '#000000',
] as const;

/** The colour of series i (cycling). */
export function colour(i: number): string {
  return PALETTE[i % PALETTE.length]!;
}

/** Escapes text for SVG/XML content and attribute values. */
export function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A number as an SVG coordinate (two decimals, no trailing zeros). */
export function num(x: number): string {
  return String(Math.round(x * 100) / 100);
}

type Attrs = Record<string, string | number | undefined>;

function attrs(a: Attrs): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? num(v) : esc(v!)}"`)
    .join('');
}

/** `<tag attrs/>` or `<tag attrs>children</tag>`. */
export function el(tag: string, a: Attrs, children?: string): string {
  return children === undefined ? `<${tag}${attrs(a)}/>` : `<${tag}${attrs(a)}>${children}</${tag}>`;
}

/** A text element (content escaped). */
export function text(x: number, y: number, content: string, a: Attrs = {}): string {
  return el('text', { x, y, ...a }, esc(content));
}

/** The whole document: white background, a title on top, the body. */
export function svgDocument(width: number, height: number, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    el('title', {}, esc(title)),
    el('rect', { x: 0, y: 0, width, height, fill: '#ffffff' }),
    text(width / 2, 22, title, { 'text-anchor': 'middle', 'font-size': 15, 'font-weight': 'bold' }),
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

/**
 * A subtitle as lines that fit `width` pixels (about 6 px per character at 11 px), broken at
 * " · " separators where possible, and the text elements drawing them from y = 38 down.
 */
export function subtitle(textValue: string | undefined, width: number): { lines: string[]; height: number } {
  if (!textValue) return { lines: [], height: 0 };
  const max = Math.max(20, Math.floor(width / 6.2));
  const parts = textValue.split(' · ');
  const rows: string[] = [];
  let row = '';
  for (const p of parts) {
    const next = row ? `${row} · ${p}` : p;
    if (next.length > max && row) {
      rows.push(row);
      row = p;
    } else row = next;
  }
  if (row) rows.push(row);
  const lines = rows.map((r, i) =>
    text(width / 2, 38 + i * 14, r, { 'text-anchor': 'middle', 'font-size': 11, fill: '#555' }),
  );
  return { lines, height: rows.length * 14 };
}
