/**
 * A nesting limit for JSON read from the user's files. V8 parses very deep JSON, but everything that
 * walks the value afterwards (schemas, canonical arguments, hashing) recurses, so 100,000 nested
 * brackets would end in a stack overflow far from the file. Text nested deeper than this is refused
 * before it is parsed, naming where the limit is crossed.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * The limit for a value that an importer parses out of a string and nests inside a record (tool
 * arguments, outputs): the record's own levels stay within MAX_JSON_DEPTH, so what an import writes
 * is never refused when a search reads it.
 */
export const MAX_VALUE_DEPTH = MAX_JSON_DEPTH - 8;

/** Thrown by `parseJsonBounded` for text nested deeper than the limit; `offset` is where it is crossed. */
export class JsonTooDeepError extends Error {
  constructor(
    readonly offset: number,
    readonly limit: number,
  ) {
    super(`nested more than ${limit} levels deep (the most FlowScout reads)`);
    this.name = 'JsonTooDeepError';
  }
}

/** The offset of the bracket that opens level `limit + 1`, or undefined (a linear scan; strings skipped). */
export function jsonDepthExceeded(text: string, limit: number = MAX_JSON_DEPTH): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip a string: up to the next quote that no backslash escapes.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) {
      if (++depth > limit) return i;
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
  return undefined;
}

/** `JSON.parse`, refusing text nested deeper than `limit` with a JsonTooDeepError. */
export function parseJsonBounded(text: string, limit: number = MAX_JSON_DEPTH): unknown {
  const at = jsonDepthExceeded(text, limit);
  if (at !== undefined) throw new JsonTooDeepError(at, limit);
  return JSON.parse(text);
}
