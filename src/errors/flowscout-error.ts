import type { ErrorCode } from './codes.js';

/** Where in the user's input a problem sits: a file, a line/column, a JSON path. */
export interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
  /** JSON path such as `$.nodes[2].retry.attempts`. */
  path?: string;
}

export interface FlowScoutErrorOptions {
  code: ErrorCode;
  message: string;
  /** What the user should do next; appended to the message when printed. */
  hint?: string;
  location?: ErrorLocation;
  /** Structured detail (e.g. the list of validation problems). Never holds secrets. */
  details?: unknown;
  cause?: unknown;
}

/**
 * The one error class of FlowScout. Every message says what went wrong, where, and what to do,
 * e.g. "Tool 'search_web' used by node 'n3' is not available; available: fetch_page, summarize."
 */
export class FlowScoutError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly location: ErrorLocation | undefined;
  readonly details: unknown;

  constructor(opts: FlowScoutErrorOptions) {
    super(opts.message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'FlowScoutError';
    this.code = opts.code;
    this.hint = opts.hint;
    this.location = opts.location;
    this.details = opts.details;
  }

  /** The message as the CLI prints it: location prefix, message, hint. */
  describe(): string {
    // Messages that already name their file (`records.jsonl:3: …`) are not prefixed with it again.
    const file = this.location?.file;
    const where = file && this.message.includes(file) ? '' : formatLocation(this.location);
    const hint = this.hint ? `\n  ${this.hint}` : '';
    return `${where}${this.message}${hint}`;
  }
}

/** `file:line:column: ` or `file ($.path): ` prefix, empty when nothing is known. */
export function formatLocation(loc: ErrorLocation | undefined): string {
  if (!loc) return '';
  let s = loc.file ?? '';
  if (loc.line !== undefined) s += `${s ? ':' : 'line '}${loc.line}`;
  if (loc.column !== undefined) s += `:${loc.column}`;
  if (loc.path) s += s ? ` (${loc.path})` : loc.path;
  return s ? `${s}: ` : '';
}

/** Type guard that works across module copies (checks the name and code, not the prototype). */
export function isFlowScoutError(e: unknown): e is FlowScoutError {
  return e instanceof FlowScoutError || (e instanceof Error && e.name === 'FlowScoutError' && 'code' in e);
}
