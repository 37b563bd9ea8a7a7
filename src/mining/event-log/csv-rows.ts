import { StringDecoder } from 'node:string_decoder';
import { FlowScoutError } from '../../errors/index.js';
import { limitError, readChunks, resolveLimits, type ReaderLimits } from './read-limits.js';

/**
 * A streaming CSV row reader: RFC 4180 quoting (`"a, b"`, `""` for a quote, newlines inside quotes),
 * `\n` or `\r\n` line ends, any one-character separator. Calls `onRow(fields, line)` with the
 * 1-based line on which the row starts. `.gz` files are gunzipped on the fly, up to
 * `maxUnpackedBytes`; a row (e.g. one whose quote never closes) longer than `maxTokenBytes`
 * characters is refused with INPUT_TOO_LARGE naming the line where it starts.
 */
export async function readCsvRows(
  file: string,
  separator: string,
  onRow: (fields: string[], line: number) => void,
  limits?: ReaderLimits,
): Promise<void> {
  const resolved = resolveLimits(limits);
  const decoder = new StringDecoder('utf8');
  const sep = separator.charCodeAt(0);
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let quoteSeen = false; // the previous char closed a quote (to detect "")
  let quoteLine = 0; // where the open quote opened
  let line = 1;
  let rowLine = 1;
  let rowHasContent = false;
  let lastCR = false; // a \r ended the previous chunk; a \n starting the next one belongs to it
  let consumed = 0; // characters before the current chunk
  let rowStart = 0; // character offset where the current row starts
  const endRow = () => {
    if (rowHasContent || fields.length > 0 || field.length > 0) {
      fields.push(field);
      onRow(fields, rowLine);
    }
    fields = [];
    field = '';
    rowHasContent = false;
  };
  const feed = (text: string) => {
    let start = 0;
    if (lastCR && text.charCodeAt(0) === 10) start = 1;
    lastCR = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inQuotes) {
        if (c === 34) {
          field += text.slice(start, i);
          inQuotes = false;
          quoteSeen = true;
          start = i + 1;
        } else if (c === 10) line++;
        continue;
      }
      if (c === 34) {
        field += text.slice(start, i);
        if (quoteSeen) field += '"';
        inQuotes = true;
        if (!quoteSeen) quoteLine = line;
        quoteSeen = false;
        rowHasContent = true;
        start = i + 1;
        continue;
      }
      quoteSeen = false;
      if (c === sep) {
        fields.push(field + text.slice(start, i));
        field = '';
        rowHasContent = true;
        start = i + 1;
      } else if (c === 10 || c === 13) {
        field += text.slice(start, i);
        if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
        else if (c === 13 && i === text.length - 1) lastCR = true;
        endRow();
        line++;
        rowLine = line;
        start = i + 1;
        rowStart = consumed + start;
      }
    }
    field += text.slice(start);
    consumed += text.length;
    if (consumed - rowStart > resolved.maxTokenBytes)
      throw limitError(file, 'maxTokenBytes', resolved.maxTokenBytes, `the row starting on line ${rowLine}`, rowLine);
  };
  let first = true;
  for await (const chunk of readChunks(file, resolved)) {
    let text = decoder.write(chunk);
    // A UTF-8 byte-order mark is not part of the header's first column name.
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    feed(text);
  }
  feed(decoder.end());
  if (inQuotes) {
    // Everything after it was read as one field: say so, rather than what that row then lacks.
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `the quote opened on line ${quoteLine} never closes, so the rest of the file reads as one field`,
      hint: 'Close that quote, or write a quote inside a quoted field as two ("").',
      location: { file, line: quoteLine },
    });
  }
  endRow();
}

/** Guesses the separator from the header line: the most frequent of `,` `;` tab `|`. */
export function guessSeparator(headerLine: string): string {
  let best = ',';
  let bestCount = 0;
  for (const sep of [',', ';', '\t', '|']) {
    const n = headerLine.split(sep).length - 1;
    if (n > bestCount) {
      best = sep;
      bestCount = n;
    }
  }
  return best;
}
