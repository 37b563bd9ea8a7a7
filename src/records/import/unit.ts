/** A unit of agent-log input (one conversation-holding value), and a problem inside one. */

/** A problem inside one input unit: the parser throws it, the importer names it. */
export class UnitProblem extends Error {
  constructor(
    readonly path: string,
    message: string,
    /** Where the problem is when it is not in the unit's own file and line (a span of a trace). */
    readonly where?: { file: string; line?: number },
  ) {
    super(message);
  }
}

/** A unit of input: one conversation-holding value and where it is. */
export interface InputUnit {
  file: string;
  /** 1-based line of a JSONL file; undefined for a whole JSON file. */
  line?: number;
  /** Path of the unit inside its document (`$` or `$[3]`). */
  path: string;
  value: unknown;
}

/** A formatted location: `file:line ($.path)` or `file ($.path)`. */
export function unitLocation(unit: Pick<InputUnit, 'file' | 'line'>, path: string): string {
  return `${unit.file}${unit.line !== undefined ? `:${unit.line}` : ''} (${path})`;
}

/** A record id from where the unit stands: the file's name, and its line or JSON path. */
export function unitId(unit: InputUnit): string {
  const base = unit.file.replace(/^.*[\\/]/, '').replace(/\.(jsonl|json|ndjson)$/i, '');
  return unit.line !== undefined
    ? `${base}-${unit.line}`
    : unit.path === '$'
      ? base
      : `${base}-${unit.path.replace(/^\$\[?|\]$/g, '')}`;
}

/** A JSON path inside the unit at `base` (`$` is the unit itself). */
export function joinPath(base: string, path: string): string {
  return path === '$' ? base : base === '$' ? path : `${base}${path.slice(1)}`;
}

/** What went wrong with a unit, with where: the problem's own place when it names one. */
export function unitProblemText(where: Pick<InputUnit, 'file' | 'line'>, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof UnitProblem) return `${unitLocation(e.where ?? where, e.path)}: ${message}`;
  return `${where.file}${where.line !== undefined ? `:${where.line}` : ''}: ${message}`;
}
