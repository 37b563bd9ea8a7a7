import { isErrorCode, type ErrorCode } from './codes.js';
import { FlowScoutError, type ErrorLocation } from './flowscout-error.js';
import { toFlowScoutError } from './to-flowscout-error.js';

/**
 * An error as data: what crosses a process or the network (a worker's failed job through Redis, an
 * HTTP error body) and becomes a FlowScoutError again on the other side with nothing lost — code,
 * message, hint and location. `toErrorShape` / `fromErrorShape` are the one pair every boundary
 * uses (`flowscout serve`, the web UI's API, the queue worker and the queue runner); the per-code
 * facts (exit status, HTTP status, retryable) are looked up from `code` in codes.ts, never sent.
 */
export interface ErrorShape<C extends string = ErrorCode> {
  code: C;
  message: string;
  hint?: string;
  location?: ErrorLocation;
}

/** The shape of anything thrown (through `toFlowScoutError`: an unknown error is INTERNAL). */
export function toErrorShape(thrown: unknown): ErrorShape {
  const e = toFlowScoutError(thrown);
  return {
    code: e.code,
    message: e.message,
    ...(e.hint !== undefined ? { hint: e.hint } : {}),
    ...(e.location !== undefined ? { location: e.location } : {}),
  };
}

/**
 * The FlowScoutError a shape stands for. `value` may be a shape, its JSON text, or anything else
 * (a foreign failure text, e.g. the queue's own "job stalled" reason): what is not a shape with a
 * known code becomes `fallback`'s code with the text as its message.
 */
export function fromErrorShape(value: unknown, fallback: ErrorCode = 'INTERNAL'): FlowScoutError {
  const shape = readShape(value);
  if (shape) {
    return new FlowScoutError({
      code: shape.code,
      message: shape.message,
      ...(shape.hint !== undefined ? { hint: shape.hint } : {}),
      ...(shape.location !== undefined ? { location: shape.location } : {}),
    });
  }
  return new FlowScoutError({
    code: fallback,
    message: typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)),
  });
}

function readShape(value: unknown): ErrorShape | undefined {
  let v = value;
  if (typeof v === 'string') {
    if (!v.startsWith('{')) return undefined;
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (!isErrorCode(o.code) || typeof o.message !== 'string') return undefined;
  const location = readLocation(o.location);
  return {
    code: o.code,
    message: o.message,
    ...(typeof o.hint === 'string' ? { hint: o.hint } : {}),
    ...(location ? { location } : {}),
  };
}

function readLocation(v: unknown): ErrorLocation | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const loc: ErrorLocation = {
    ...(typeof o.file === 'string' ? { file: o.file } : {}),
    ...(typeof o.line === 'number' ? { line: o.line } : {}),
    ...(typeof o.column === 'number' ? { column: o.column } : {}),
    ...(typeof o.path === 'string' ? { path: o.path } : {}),
  };
  return Object.keys(loc).length > 0 ? loc : undefined;
}
