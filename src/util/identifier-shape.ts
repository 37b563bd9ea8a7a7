/**
 * Whether a value is shaped like an identifier: something that points at one person, account or
 * record (an order id, an e-mail, a phone or card number, a name, a street address, a zip, a
 * payment id) rather than a value many requests share (a date, an amount, a unit, a status word).
 * The search refuses identifier-shaped constants; the runtime withholds a call whose key parts
 * (`keyParts` in key-parts.ts: the identifier-shaped value, or the tokens of any value that look like keys,
 * whatever the parameter is called) come from nowhere the run can vouch for (runtime/grounding.ts).
 *
 * Decided from the value's shape and, for the kinds a shape alone cannot tell (names, addresses,
 * zips, payment ids, short ids), from generic words of the parameter's name and its JSON Schema;
 * never from tool, domain or dataset names. A false positive costs little where it is used (a
 * value the request or an earlier output holds is grounded whatever its shape); a false negative
 * lets a value through, so the shapes lean towards "identifier".
 *
 * Identifiers, by their shape alone:
 * - e-mails (`ada@example.com`), UUIDs, hex strings of 16+ characters with letters and digits;
 * - SSN-like numbers (`123-45-6789`), card-like numbers (13–19 digits, grouped or not);
 * - phone numbers: `+` and 7–15 digits, a bracketed area code (`(555) 123-4567`), or 3-3-4 groups
 *   (`555.123.4567`);
 * - runs of 7 or more digits (`4202497723`, `#1234567`);
 * - one token of 5 or more characters holding letters and digits (`#W6390527`, `A-1003`,
 *   `usr_8f3k2`, `card-4242`);
 * - a street address: a house number, then words ending in a street word (`104 Station Avenue`).
 *
 * Identifiers judged with the parameter's name (its words: `orderId`, `order_id`, `order-id` → order, id):
 * - an id parameter (`id`, `uuid`, `ssn`, `iban`, …, or `number` / `code` / `ref` after a word such
 *   as order, account, booking, card): any token of 3+ characters with a digit (`1003`, `W12`);
 * - a person's name (`first_name`, `lastName`, `passenger_name`, `customer`, …; not a bare `name`,
 *   which names places and things as often as people): 1–4 words of letters, which for a person
 *   word alone (`customer`) must be two or more capitalised words;
 * - a street address (`address`, `street`, `address1`, …): any value with a digit or of two or more words;
 * - a zip (`zip`, `postcode`, `postal_code`): 3–10 characters holding a digit;
 * - a payment id (`payment`, `card`, `account` …): a token of 4+ characters with a digit or `_`;
 * - a phone (`phone`, `mobile`, `tel`, `fax`): 7 or more digits.
 *
 * Never identifiers: booleans, empty values, values the schema lists (`enum`, `const`, `default`)
 * or formats as a date or time, dates (`2024-05-01`, `05/01/2024`, `20240501`, `2024-05-01T10:00Z`),
 * times (`12:30`, `3pm`), plain and decimal numbers of up to 6 digits, amounts with a unit or
 * currency (`10kg`, `1080p`, `$15.99`, `20%`), ordinals (`21st`), quarters and fiscal years (`Q3`,
 * `FY2024`), numbers in a time or quantity parameter (`timestamp`, `amount`, `limit`), and words
 * without digits outside the name and address parameters above.
 */

/** The kind of identifier a value is shaped like. */
export type IdentifierKind =
  'email' | 'phone' | 'card' | 'ssn' | 'uuid' | 'id' | 'name' | 'address' | 'zip' | 'payment';

/** What is known of the parameter a value is passed as (both optional). */
export interface ParamContext {
  /** The parameter's (or an output field's) name, e.g. `order_id`, `firstName`. */
  name?: string;
  /** Its JSON Schema, e.g. `{ "type": "string", "enum": [...] }`. */
  schema?: Record<string, unknown>;
}

/** True when `value` is shaped like an identifier (see the module comment). */
export function isIdentifierShaped(value: unknown, param: ParamContext = {}): boolean {
  return identifierKind(value, param) !== undefined;
}

/** The kind of identifier `value` is shaped like, or undefined when it is none (see the module comment). */
export function identifierKind(value: unknown, param: ParamContext = {}): IdentifierKind | undefined {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') return undefined;
  if (typeof value === 'number' && !Number.isInteger(value)) return undefined;
  const text = String(value).trim();
  if (text === '' || text.length > 200) return undefined;
  const schema = param.schema;
  if (schema && schemaLists(schema, value)) return undefined;
  const format = typeof schema?.format === 'string' ? schema.format : undefined;
  if (format && TIME_FORMATS.has(format)) return undefined;
  // The common case first: a short plain number is an identifier only in an id, zip or address parameter.
  if (/^\d{1,6}$/.test(text)) {
    const w = paramWords(param.name);
    if (w.length === 0) return undefined;
    if (w.some((x) => ZIP_WORDS.has(x)) && text.length >= 3) return 'zip';
    if (w.some((x) => ADDRESS_WORDS.has(x))) return 'address';
    return text.length >= 3 && isIdParam(w) ? 'id' : undefined;
  }
  const words = paramWords(param.name);

  if (EMAIL.test(text)) return 'email';
  if (UUID.test(text)) return 'uuid';
  if (SSN.test(text)) return 'ssn';
  if (CARD.test(text)) return 'card';
  if (PHONE.test(text) && digitCount(text) >= 7 && digitCount(text) <= 15 && !THOUSANDS.test(text)) return 'phone';
  if (isTimeLike(text)) return undefined;
  if (LONG_DIGITS.test(text) && !isQuantity(words, text)) {
    if (words.some((w) => PHONE_WORDS.has(w))) return 'phone';
    return digitCount(text) >= 13 && digitCount(text) <= 19 ? 'card' : 'id';
  }
  if (HEX.test(text) && /\d/.test(text) && /[a-f]/i.test(text)) return 'id';
  if (STREET_ADDRESS.test(text) || SHORT_STREET_ADDRESS.test(text)) return 'address';
  if (isMixedToken(text)) return 'id';

  // Judged with the parameter's name.
  if (words.length === 0) return undefined;
  const has = (set: ReadonlySet<string>) => words.some((w) => set.has(w));
  const token = !/\s/.test(text);
  if (has(PHONE_WORDS) && digitCount(text) >= 7) return 'phone';
  if (has(ZIP_WORDS) && text.length >= 3 && text.length <= 10 && /\d/.test(text) && /^[A-Za-z0-9 -]+$/.test(text))
    return 'zip';
  if (has(ADDRESS_WORDS) && !has(EMAIL_WORDS) && (/\d/.test(text) || text.split(/\s+/).length >= 2)) return 'address';
  if (has(PAYMENT_WORDS) && token && text.length >= 4 && /[\d_]/.test(text) && !/^\d{1,6}$/.test(text))
    return 'payment';
  if (isIdParam(words) && token && text.length >= 3 && /\d/.test(text)) return 'id';
  if (isPersonParam(words) && PERSON_NAME.test(text)) {
    const capitalised = text.split(/\s+/).filter((w) => /^\p{Lu}/u.test(w)).length;
    if (words.includes('name') || capitalised >= 2 || words.some((w) => NAME_COMPOUNDS.has(w))) return 'name';
  }
  return undefined;
}

/** The lower-case words of a parameter name: `orderId`, `order_id`, `order-id`, `Order ID` → order, id. */
export function paramWords(name: string | undefined): readonly string[] {
  if (!name) return [];
  let words = WORDS_CACHE.get(name);
  if (!words) {
    if (WORDS_CACHE.size >= 2_000) WORDS_CACHE.clear();
    WORDS_CACHE.set(name, (words = splitName(name)));
  }
  return words;
}

/** Parameter names repeat across calls: their words are kept (a bounded cache). */
const WORDS_CACHE = new Map<string, readonly string[]>();

function splitName(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export const TIME_FORMATS = new Set(['date', 'date-time', 'time', 'duration']);

const EMAIL = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SSN = /^\d{3}-\d{2}-\d{4}$/;
const CARD = /^\d{4}(?:[ -]\d{4}){2,3}(?:[ -]?\d{1,3})?$|^\d{4}[ -]\d{6}[ -]\d{5}$/;
const PHONE = /^(?:\+\d[\d\s().-]{5,}\d|\(\d{2,4}\)\s?\d[\d\s.-]{4,}\d|\d{3}[\s.-]\d{3}[\s.-]\d{4})$/;
/** 1 000 000, 1,000,000, 1.000.000: a number with thousands separators. */
export const THOUSANDS = /^\d{1,3}(?:[ ,.]\d{3})+$/;
const LONG_DIGITS = /^#?\d{7,}$/;
const HEX = /^(?:0x)?[0-9a-f]{16,}$/i;
/** Street words written out, and their abbreviations (which need a street name before them: `12 Elm St`). */
const STREET_WORDS =
  'street|road|avenue|lane|way|drive|boulevard|court|place|terrace|parkway|highway|square|close|crescent|circle|trail|broadway|alley|row|walk|strasse|straße';
const STREET_ABBREVIATIONS = 'st|rd|ave|ln|dr|blvd|ct|pl|pkwy|hwy|sq|cir';
const HOUSE_NUMBER = '^\\d{1,6}[A-Za-z]?,?\\s+';
const STREET_ADDRESS = new RegExp(
  `${HOUSE_NUMBER}(?:[\\p{L}'.-]+\\s+){0,4}(?:${STREET_WORDS})\\.?(?:[\\s,].*)?$`,
  'iu',
);
const SHORT_STREET_ADDRESS = new RegExp(
  `${HOUSE_NUMBER}(?:[\\p{L}'.-]+\\s+){1,4}(?:${STREET_ABBREVIATIONS})\\.?(?:[\\s,].*)?$`,
  'iu',
);
const PERSON_NAME = /^\p{L}[\p{L}'.-]*(?:\s+\p{L}[\p{L}'.-]*){0,3}$/u;

/** Measurement units, currencies and resolutions that follow a number (`10kg`, `1080p`, `5min`). */
const UNITS = new Set(
  (
    'mm cm m km in inch inches ft feet mi mile miles yd nm um kg g mg lb lbs oz t ton tons l ml cl dl gal ' +
    'b kb mb gb tb pb kib mib gib bit bits bps kbps mbps gbps hz khz mhz ghz w kw mw kwh wh v mv a ma mah ' +
    's sec secs second seconds ms min mins minute minutes h hr hrs hour hours d day days w wk wks week weeks ' +
    'mo mos month months y yr yrs year years am pm p k x pct px pt em rem dpi fps rpm mph kph kmh kn knots ' +
    'c f k usd eur gbp jpy cny inr aud cad chf st nd rd th'
  ).split(' '),
);
const CURRENCY_PREFIX = /^[$€£¥₹]|^(?:usd|eur|gbp|jpy)\s?\d/i;

/** True for dates, times, ISO date-times and durations, and numbers with a unit, a currency or `%`. */
export function isTimeLike(text: string): boolean {
  const t = text.toLowerCase();
  if (
    /^\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?(?:[t\s]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s?(?:z|[+-]\d{2}:?\d{2})?)?$/.test(t)
  )
    return true;
  if (/^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$/.test(t)) return true;
  if (/^(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])$/.test(t)) return true;
  if (/^\d{1,2}:\d{2}(?::\d{2})?\s?(?:am|pm)?$/.test(t)) return true;
  if (/^p(?:\d+[ymwd])*(?:t(?:\d+[hms])+)?$/.test(t) && t.length > 1) return true;
  if (/^(?:q[1-4]|h[12]|fy)[\s-]?(?:\d{2}|\d{4})?$|^(?:19|20)\d{2}[\s-]?(?:q[1-4]|h[12])$/.test(t)) return true;
  if (/^\d{4}-w\d{2}$/.test(t)) return true;
  if (CURRENCY_PREFIX.test(t) && /^[^a-z]*(?:usd|eur|gbp|jpy)?\s?[\d.,]+[kmb]?$/i.test(t.replace(/^[$€£¥₹]/, '')))
    return true;
  if (/^[-+]?\d{1,3}(?:\.\d+)?°?\s?[nsew]$/.test(t)) return true; // a latitude or longitude
  const unit = /^[-+~]?\d+(?:[.,]\d+)?\s?(%|°[cf]?|[a-z]{1,7})$/.exec(t);
  if (unit && (unit[1]!.startsWith('%') || unit[1]!.startsWith('°') || UNITS.has(unit[1]!))) return true;
  if (/^\d+(?:\.\d+)?\s?x\s?\d+(?:\.\d+)?$/.test(t)) return true; // 1920x1080
  if (/^v?\d+(?:\.\d+){1,3}$/.test(t)) return true; // versions and dotted numbers
  return false;
}

function digitCount(text: string): number {
  let n = 0;
  for (const ch of text) if (ch >= '0' && ch <= '9') n++;
  return n;
}

/** One token of 5+ characters (a leading `#` aside) with letters and digits, joined by `_ - . / : #` at most. */
function isMixedToken(text: string): boolean {
  const t = text.replace(/^#/, '');
  if (t.length < 5 || /\s/.test(t)) return false;
  if (/^[a-z]+[_-]?\d{1,2}$/.test(t)) return false; // a numbered field name: address1, line_2
  if (!/^[\p{L}\p{N}][\p{L}\p{N}_./:#-]*$/u.test(t)) return false;
  return /\p{L}/u.test(t) && /\d/.test(t);
}

const ID_WORDS = new Set(['id', 'ids', 'uuid', 'guid', 'identifier', 'ssn', 'iban', 'passport', 'sku', 'pnr']);
const ID_SUFFIXES = new Set(['number', 'no', 'num', 'nr', 'code', 'ref', 'reference']);
const ID_OWNERS = new Set([
  'order',
  'account',
  'reservation',
  'booking',
  'confirmation',
  'invoice',
  'ticket',
  'tracking',
  'member',
  'membership',
  'customer',
  'user',
  'policy',
  'case',
  'card',
  'license',
  'licence',
  'serial',
  'transaction',
  'payment',
  'claim',
  'shipment',
  'parcel',
  'employee',
  'patient',
  'student',
  'contract',
  'loyalty',
  'voucher',
  'record',
]);
export const QUANTITY_WORDS = new Set([
  'amount',
  'price',
  'cost',
  'total',
  'quantity',
  'qty',
  'count',
  'limit',
  'size',
  'volume',
  'population',
  'budget',
  'salary',
  'income',
  'balance',
  'max',
  'min',
  'offset',
  'page',
  'per',
  'rate',
  'score',
  'weight',
  'height',
  'width',
  'length',
  'distance',
  'duration',
  'capacity',
  'lat',
  'lon',
  'lng',
  'latitude',
  'longitude',
]);
/** A run of digits in a quantity parameter, or shaped like a Unix time (10 or 13 digits) in a time parameter. */
function isQuantity(words: readonly string[], text: string): boolean {
  if (words.some((w) => QUANTITY_WORDS.has(w))) return true;
  return /^1\d{9}(?:\d{3})?$/.test(text) && words.some((w) => TIME_WORDS.has(w));
}
export const TIME_WORDS = new Set([
  'time',
  'timestamp',
  'ts',
  'date',
  'datetime',
  'epoch',
  'year',
  'month',
  'day',
  'hour',
  'start',
  'end',
  'from',
  'to',
  'since',
  'until',
  'before',
  'after',
  'at',
  'created',
  'updated',
]);
const PHONE_WORDS = new Set(['phone', 'mobile', 'tel', 'telephone', 'fax', 'cell', 'msisdn']);
const ZIP_WORDS = new Set(['zip', 'zipcode', 'postal', 'postcode', 'postalcode']);
const ADDRESS_WORDS = new Set(['address', 'address1', 'address2', 'street', 'addr', 'streetaddress']);
const EMAIL_WORDS = new Set(['email', 'mail', 'e']);
const PAYMENT_WORDS = new Set(['payment', 'card', 'iban', 'account', 'wallet', 'paypal', 'method']);
const PERSON_WORDS = new Set([
  'customer',
  'passenger',
  'guest',
  'recipient',
  'holder',
  'cardholder',
  'contact',
  'person',
  'sender',
  'traveler',
  'traveller',
  'patient',
  'employee',
  'client',
  'owner',
  'user',
]);
const NAME_WORDS = new Set(['first', 'last', 'full', 'given', 'family', 'middle', 'sur']);
const NAME_COMPOUNDS = new Set(['firstname', 'lastname', 'fullname', 'surname', 'givenname', 'familyname', 'username']);

function isIdParam(words: readonly string[]): boolean {
  if (words.some((w) => ID_WORDS.has(w))) return true;
  const last = words[words.length - 1]!;
  return ID_SUFFIXES.has(last) && words.slice(0, -1).some((w) => ID_OWNERS.has(w));
}

function isPersonParam(words: readonly string[]): boolean {
  if (words.some((w) => NAME_COMPOUNDS.has(w))) return true;
  if (words.includes('name')) return words.some((w) => NAME_WORDS.has(w) || PERSON_WORDS.has(w));
  return words.length <= 2 && words.some((w) => PERSON_WORDS.has(w)) && !words.some((w) => ID_SUFFIXES.has(w));
}

/** Values the schema itself lists: enum members, a const, the default. */
export function schemaLists(schema: Record<string, unknown>, value: unknown): boolean {
  const same = (x: unknown) => x === value || (x !== null && typeof x !== 'object' && String(x) === String(value));
  if (Array.isArray(schema.enum) && schema.enum.some(same)) return true;
  if ('const' in schema && same(schema.const)) return true;
  return 'default' in schema && same(schema.default);
}
