import type { ToolOrigin } from '../contracts/tools.js';

/**
 * A tool's `execute` may return a plain value (an `ok` outcome) or throw (an `error` outcome). Sources
 * that need to say more — an MCP result flagged `isError`, a replay hit or miss, a simulated answer —
 * return a tagged result made with `toolResult`, which the registry unwraps.
 */

const TAG = Symbol.for('flowscout.toolResult');

/** What a source can report beyond the output itself. */
export interface ToolResultFields {
  status: 'ok' | 'error';
  output?: unknown;
  error?: string;
  origin?: ToolOrigin;
  /** Replay sources: whether the recorded-response cache answered the call. */
  cache?: 'hit' | 'miss';
}

/** A result made by `toolResult` (tagged so it cannot be confused with a tool's own output). */
export interface TaggedToolResult extends ToolResultFields {
  readonly [TAG]: true;
}

/** Wraps a result so the registry keeps its status, origin and cache outcome. */
export function toolResult(fields: ToolResultFields): TaggedToolResult {
  return { ...fields, [TAG]: true };
}

/** True for values made by `toolResult`. */
export function isToolResult(value: unknown): value is TaggedToolResult {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TAG] === true;
}
