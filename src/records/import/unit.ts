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
