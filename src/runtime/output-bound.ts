/**
 * The bound on what a run keeps of one tool output. A tool may answer with megabytes (a whole
 * table, a file, a page); the run's trace, `serve`'s answers and the store keep at most
 * `maxOutputChars` characters of each output (`RunOptions.maxOutputChars`, default
 * `DEFAULT_MAX_OUTPUT_CHARS`; `flowscout run` and `serve` take `--max-output-chars`). A longer
 * output is cut there and ends with a marker that says where it was cut and how much was cut
 * (`OUTPUT_CUT_MARKER`). A text output stays text; any other output longer than the limit as JSON
 * becomes the text of its first characters of JSON, since a cut JSON value is no value. What the
 * tool returned in full is dropped as soon as its call ends. Outputs within the limit are kept as
 * they are (the same object, not a copy).
 */

/** Characters of one tool output a run keeps by default (as text, or as JSON text for other values). */
export const DEFAULT_MAX_OUTPUT_CHARS = 200_000;

/** How the marker at the end of a cut output begins. */
export const OUTPUT_CUT_MARKER = '…[tool output cut by FlowScout';

/** `output` within `max` characters (see the module comment); `max` of `Infinity` keeps everything. */
export function boundOutput(output: unknown, max: number): unknown {
  if (output === null || output === undefined || typeof output === 'boolean' || typeof output === 'number')
    return output;
  if (typeof output === 'string') return output.length <= max ? output : cut(output, max, 'text');
  if (typeof output !== 'object' || !mayExceed(output, max)) return output;
  let json: string | undefined;
  try {
    json = JSON.stringify(output);
  } catch {
    return output;
  }
  return json === undefined || json.length <= max ? output : cut(json, max, 'JSON');
}

/** True when `text` ends with the marker of a cut output. */
export function wasCut(text: unknown): boolean {
  return typeof text === 'string' && text.includes(OUTPUT_CUT_MARKER);
}

function cut(text: string, max: number, what: 'text' | 'JSON'): string {
  let keep = Math.max(0, Math.floor(max));
  // Never split a surrogate pair.
  if (keep > 0 && keep < text.length && /[\uD800-\uDBFF]/.test(text[keep - 1]!)) keep--;
  const marker =
    `${OUTPUT_CUT_MARKER}: the output was ${text.length} characters of ${what}; ` +
    `characters ${keep + 1}–${text.length} (${text.length - keep}) were cut here; ` +
    `the limit is ${max} characters per output (maxOutputChars, --max-output-chars)]`;
  // A copy of its own: a slice would keep the whole output alive in memory.
  return structuredClone(`${text.slice(0, keep)}${marker}`);
}

/**
 * Whether `value`'s JSON may be longer than `max`, by a walk that stops as soon as it knows: it
 * counts a lower bound (each string and key at its length, other leaves and separators at one), and
 * JSON is at most six times that (an escaped character takes six), so only a value over a sixth of
 * the limit is measured exactly.
 */
function mayExceed(value: object, max: number): boolean {
  return new SizeWalk(max / 6).exceeds(value, 0);
}

/** The walk of `mayExceed` (a class rather than a closure: every output goes through it). */
class SizeWalk {
  private size = 0;
  constructor(private readonly budget: number) {}

  exceeds(v: unknown, depth: number): boolean {
    if (depth > 256) return true;
    if (typeof v === 'string') this.size += v.length + 2;
    else if (Array.isArray(v)) {
      this.size += 2;
      for (const x of v) {
        if (this.exceeds(x, depth + 1)) return true;
        this.size += 1;
      }
    } else if (v !== null && typeof v === 'object') {
      this.size += 2;
      for (const k in v) {
        this.size += k.length + 3;
        if (this.exceeds((v as Record<string, unknown>)[k], depth + 1)) return true;
      }
    } else this.size += 4;
    return this.size > this.budget;
  }
}
