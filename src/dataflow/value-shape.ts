import type { ValueShape } from './schema.js';

/** Whether a value is written as an e-mail address (`a@b.com`). */
export const isEmailAddress = (value: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/**
 * The shape of a value (`VALUE_SHAPES` of the workflow IR): what a parameter's hint says its values
 * look like, and what a value found in a request or an output is compared with.
 */
export function valueShape(value: unknown): ValueShape {
  // A list has the shape of its items (a list of ids is ids), the first one's.
  if (Array.isArray(value) && value.length > 0) return valueShape(value[0]);
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number')
    return Number.isInteger(value) ? (Math.abs(value) >= 10_000 ? 'long-number' : 'int') : 'float';
  if (typeof value !== 'string') return 'text';
  const v = value.trim();
  if (/^(true|false)$/i.test(v)) return 'bool';
  if (/^\d{4}-\d{2}-\d{2}/.test(v)) return 'date';
  if (/^-?\d+$/.test(v)) return v.replace('-', '').length >= 5 ? 'long-number' : 'int';
  if (/^-?\d+\.\d+$/.test(v)) return 'float';
  if (/^-?\d+\.\d+\s*,\s*-?\d+\.\d+$/.test(v)) return 'coord';
  if (/^[A-Z]{2,6}[/,\-:] ?[A-Z]{2,6}$/.test(v)) return 'pair';
  if (/^[A-Z]+$/.test(v)) return v.length <= 2 ? 'code2' : v.length === 3 ? 'code3' : v.length === 4 ? 'code4' : 'code';
  if (/^[A-Z0-9.]+$/.test(v) && /\d/.test(v)) return 'id';
  if (isEmailAddress(v)) return 'email';
  // Words joined by slashes name a place in a hierarchy (`America/New_York`, `Europe/Berlin`), not a person or a town.
  if (/^[A-Za-z][\w+-]*(\/[A-Za-z][\w+-]*)+$/.test(v) && /[a-z]/.test(v)) return 'path';
  if (/^[A-Z][^,]*[a-z][^,]*(?:,\s?[A-Z][^,]*)+$/.test(v))
    return v.includes(', ') ? 'place-region' : 'place-region-tight';
  if (/^[A-Z][a-z]/.test(v)) {
    // A name's words are mostly capitalised ("Bank of America"); a sentence's are mostly not ("Customer wants a refund").
    const words = v.split(/\s+/);
    if (words.length === 1) return 'name';
    return words.length >= 3 && 2 * words.filter((w) => /^[a-z]/.test(w)).length > words.length
      ? 'text'
      : 'multi-word-name';
  }
  if (/^[a-z0-9_.\-/]+$/.test(v)) return 'lower';
  return 'text';
}

/** Shapes that are one kind of value (codes, numbers, names, places): a value of another family is no candidate. */
export function shapeFamily(shape: ValueShape): string {
  switch (shape) {
    case 'code2':
    case 'code3':
    case 'code4':
    case 'code':
    case 'pair':
    case 'id':
      return 'code';
    case 'int':
    case 'float':
    case 'long-number':
      return 'number';
    case 'name':
    case 'multi-word-name':
    case 'place-region':
    case 'place-region-tight':
      return 'name';
    default:
      return shape;
  }
}
