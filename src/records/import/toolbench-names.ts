/**
 * ToolBench's name normalization (docs/DESIGN.md, "Data formats" §1), reproduced exactly so imported tool names equal the
 * function names ToolBench-style agents call: `standardize(api) + '_for_' + standardize(tool)`, cut
 * to its last 64 characters.
 */

/** ToolBench's limit on an OpenAI function name: longer names keep their last 64 characters. */
export const FUNCTION_NAME_MAX = 64;

/** Words ToolBench renames to `is_<word>` (its `change_name`). */
export const RESERVED_NAMES = ['from', 'class', 'return', 'false', 'true', 'id', 'and'] as const;

// ToolBench's character class is `[^\u4e00-\u9fa5^a-z^A-Z^0-9^_]`: the stray `^`s inside it mean a
// literal '^' is kept too. Reproduced on purpose, so names match upstream byte for byte.
const NOT_KEPT = /[^\u4e00-\u9fa5^a-zA-Z0-9_]/g;

/**
 * ToolBench `standardize`: every character other than a-z, A-Z, 0-9, `_`, `^` and CJK becomes `_`,
 * runs of `_` collapse, the result is lower-cased, leading/trailing `_` are stripped, and `get_` is
 * prefixed when it starts with a digit. "Yahoo Finance_v2" → `yahoo_finance_v2`, "24 hours tickers"
 * → `get_24_hours_tickers`.
 */
export function standardize(name: string): string {
  let s = name.replace(NOT_KEPT, '_').replace(/_{2,}/g, '_').toLowerCase();
  s = s.replace(/^_+/, '').replace(/_+$/, '');
  if (s.length > 0 && /^[0-9]/.test(s)) s = `get_${s}`;
  return s;
}

/** ToolBench `change_name`: the reserved words (`id`, `from`, …) become `is_<word>`; others unchanged. */
export function changeName(name: string): string {
  return (RESERVED_NAMES as readonly string[]).includes(name) ? `is_${name}` : name;
}

/** A parameter name as ToolBench trajectories write it: `securityId` → `securityid`, `id` → `is_id`. */
export function standardizeParamName(name: string): string {
  return changeName(standardize(name));
}

/**
 * The function name ToolBench offers the model for API `apiName` of tool `toolName`:
 * `change_name(standardize(api)) + '_for_' + standardize(tool)`, keeping its last 64 characters.
 */
export function toolbenchFunctionName(apiName: string, toolName: string): string {
  const full = `${changeName(standardize(apiName))}_for_${standardize(toolName)}`;
  return full.length > FUNCTION_NAME_MAX ? full.slice(-FUNCTION_NAME_MAX) : full;
}

/** An API identified by its display names. */
export interface ApiRef {
  tool: string;
  api: string;
}

/** A function name that two or more different APIs map to (after normalization and truncation). */
export interface NameCollision {
  name: string;
  apis: ApiRef[];
}

/**
 * Finds function names shared by different APIs (e.g. two long names that agree in their last 64
 * characters). The same API listed twice is not a collision.
 */
export function findNameCollisions(apis: readonly ApiRef[]): NameCollision[] {
  const byName = new Map<string, ApiRef[]>();
  for (const ref of apis) {
    const name = toolbenchFunctionName(ref.api, ref.tool);
    const list = byName.get(name) ?? [];
    if (!list.some((r) => r.tool === ref.tool && r.api === ref.api)) list.push(ref);
    byName.set(name, list);
  }
  return [...byName].filter(([, list]) => list.length > 1).map(([name, list]) => ({ name, apis: list }));
}

/**
 * Maps a called function name to one of the offered names the way docs/DESIGN.md, "Data formats" §1 asks: exact match
 * first, else the longest offered name that the called name ends with (a model that wrote an
 * untruncated name still matches the 64-character offered one).
 * Never splits on `_for_`, since tool and API names may contain it. Undefined when nothing matches.
 */
export function matchFunctionName(called: string, offered: readonly string[]): string | undefined {
  if (offered.includes(called)) return called;
  const candidates = offered.filter((name) => name.length > 0 && called.endsWith(name));
  candidates.sort((a, b) => b.length - a.length);
  return candidates[0];
}
