/** What the cue model counts per tool and per parameter (cue-model.ts builds it; presence.ts reads it). */

export interface ParamStats {
  /** Calls of a tool that has this parameter (for a tool's own stats: its uses). */
  calls: number;
  /** Calls of the tool that set this parameter. */
  set: number;
  /** Set to the value the tool's schema declares as its default. */
  asDefault: number;
  /** Canonical value text → count, and one raw value per text (to return typed values). */
  values: Map<string, number>;
  raw: Map<string, unknown>;
  fromQuery: number;
  /** Of `fromQuery`: values passed in lower case that the request wrote capitalised (`Tokyo` → `tokyo`). */
  loweredFromQuery?: number;
  /** Of `fromQuery`: names the request wrote with spaces, passed joined by hyphens (`East Lansing` → `east-lansing`). */
  sluggedFromQuery?: number;
  fromOutput: number;
  /** Set but found neither in the query nor in an earlier output (a constant or an inferred value). */
  fromElsewhere: number;
  /** Query words right before the value (`b:<word>`, nearest two) and right after (`a:<word>`). */
  cues: Map<string, number>;
  shapes: Map<string, number>;
  /** JSON type of the recorded raw values (`string`, `number`, `boolean`, …) → count. */
  rawTypes: Map<string, number>;
  /** Keys of earlier outputs that held the value. */
  outputKeys: Map<string, number>;
  /** Query terms of the calls that set / did not set the parameter (for optional parameters). */
  termsWhenSet: Map<string, number>;
  termsWhenUnset: Map<string, number>;
  /** Calls whose clause (the part of the request that asked for the call) named the parameter (see presence.ts), and how many of them set it; same when not named. */
  whenNamed: { calls: number; set: number };
  whenUnnamed: { calls: number; set: number };
  /**
   * Calls whose request writes one of the parameter's recurring values (`writtenValues`), and how
   * many of them set the parameter (see presence.ts).
   */
  whenValueWritten?: { calls: number; set: number };
  /** Calls that passed a month's number (1-12) where the request named the month ("June" → 6). */
  monthFromQuery?: number;
}

export interface ToolStats {
  /** Calls of this tool in the records. */
  uses: number;
  params: Map<string, ParamStats>;
  /** Query clauses aligned with calls of this tool (retrieval expansion). */
  clauses: string[];
  /** The tool called right before (`^` at the start) → count. */
  previous: Map<string, number>;
  /** Position of the call in its record → count. */
  positions: Map<number, number>;
  /** The optional parameters a call set, as one key (`presencePattern`) → count (see presence.ts). */
  patterns?: Map<string, number>;
}
