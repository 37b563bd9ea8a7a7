import {
  identifierKind,
  isTimeLike,
  paramWords,
  QUANTITY_WORDS,
  schemaLists,
  THOUSANDS,
  TIME_FORMATS,
  TIME_WORDS,
  type ParamContext,
} from './identifier-shape.js';
import { isLanguageWord } from './words.js';

/**
 * The parts of a value that look like keys — what points at one record, person or account — judged
 * by what each part is, not by the parameter's name (runtime/grounding.ts withholds a read when one
 * of them comes from nowhere the run can vouch for). The whole value when `identifierKind` takes it
 * for an identifier; otherwise the value is cut into tokens at spaces and at the separators of URL
 * paths and query strings (`/orders?id=1007` → orders, id, 1007) and each token is judged:
 *
 * - a key: a token `identifierKind` knows by its shape alone (an e-mail, a UUID, a phone or card
 *   number, a run of 7+ digits, a mixed token such as `A-1003` or `usr_8f3k2`); a number of three or
 *   more digits (`1007`), unless the parameter is a quantity, a time or a measure (`limit`,
 *   `amount`, `year`, `radius`: its words); a code of letters and digits of three or more
 *   characters (`B12`); a word of three or more letters that is not a word of the language
 *   (util/words.ts: `lindqvist`, `Lindqvist`, `XKQWPL`) — names and codes;
 * - not a key: words of the language (any case: `order`, `Paris`), words of one or two letters
 *   (`US`, `en`), capitals of three to five letters (a ticker, an airport or a currency: `AAPL`,
 *   `KJFK`, `USD`), numbers of one or two digits, decimals (`48.85`, `12.50`) and numbers with
 *   thousands separators (`1,250,000`), dates, times, amounts
 *   with a unit or currency and quarters (as `identifierKind`), a URL's scheme and the words of its
 *   structure (`https`, `www`, `com`, `api`, …), and values the schema lists or formats as a time.
 *
 * A word of the language passes whoever it names: a name made of words (`jun park`) is not seen.
 */
export function keyParts(value: unknown, param: ParamContext = {}): string[] {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') return [];
  if (typeof value === 'number' && !Number.isInteger(value)) return [];
  const text = String(value).trim();
  if (text === '') return [];
  const schema = param.schema;
  if (schema && schemaLists(schema, value)) return [];
  if (typeof schema?.format === 'string' && TIME_FORMATS.has(schema.format)) return [];
  if (text.length <= 200 && identifierKind(value, param) !== undefined) return [text];
  const words = paramWords(param.name);
  const quantity = words.some((w) => QUANTITY_WORDS.has(w) || TIME_WORDS.has(w) || MEASURE_WORDS.has(w));
  const named: ParamContext = param.name === undefined ? {} : { name: param.name };
  const out: string[] = [];
  for (const piece of text.split(PIECE_SEPARATORS)) {
    const token = piece.replace(/^[^\p{L}\p{N}#+]+|[^\p{L}\p{N}]+$/gu, '');
    if (token === '' || (piece.endsWith(':') && WEB_WORDS.has(token.toLowerCase()))) continue;
    if (token.length <= 200 && identifierKind(token, named) !== undefined) out.push(token);
    else if (isTimeLike(token) || THOUSANDS.test(token) || token.split(',').every((x) => DECIMAL.test(x))) continue;
    else for (const part of token.split(/[^\p{L}\p{N}]+/u)) if (isKeyPart(part, quantity)) out.push(part);
  }
  return out;
}

/** A decimal number (`48.85`, `-74.006`, `12,50`): an amount or a coordinate; `40.7,-74.0` is a pair of them. */
const DECIMAL = /^[-+]?\d+[.,]\d+$/;
/** Parameters of measures besides quantities and times (`radius`, `zoom`): their numbers are no keys. */
const MEASURE_WORDS = new Set([
  'radius',
  'range',
  'zoom',
  'level',
  'depth',
  'days',
  'hours',
  'minutes',
  'seconds',
  'km',
  'meters',
  'metres',
  'miles',
]);

/** Where a value is cut into tokens: spaces, URL path and query separators, brackets, quotes, and commas outside a number. */
const PIECE_SEPARATORS = /[\s/?&=;|()[\]{}<>"'`]+|,(?!\d)|(?<!\d),/u;
/** The words of a URL's structure (its scheme, a host's usual parts, file types): no record's key. */
const WEB_WORDS = new Set(
  'http https ftp mailto www com org net edu gov io co api html htm php asp aspx json xml csv txt'.split(' '),
);

/** One token without separators (see `keyParts`). */
function isKeyPart(part: string, quantity: boolean): boolean {
  if (part.length <= 2) return false;
  if (/^\d+$/.test(part)) return !quantity;
  if (/\d/.test(part)) return !isTimeLike(part);
  // Capitals of three to five letters are a public code (a ticker, an airport, a currency: AAPL, KJFK, USD).
  if (/^\p{Lu}{3,5}$/u.test(part)) return false;
  return !WEB_WORDS.has(part.toLowerCase()) && !isLanguageWord(part);
}
