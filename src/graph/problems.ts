import type { z } from 'zod';

/** Why a workflow is not Valid(G, T). Closed set, so callers and tests can match on it. */
export const PROBLEM_CODES = [
  'schema', // the shape does not match the IR schema
  'duplicate-id',
  'duplicate-edge',
  'missing-node', // an edge names a node that does not exist
  'cycle',
  'no-entry',
  'multiple-entries',
  'entry-role',
  'no-exit',
  'multiple-exits',
  'exit-role',
  'unreachable', // not reachable from the entry
  'dead-end', // cannot reach the exit
  'unknown-tool',
  'guard-field',
  'guard-source',
  'retry-range',
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** One reason a workflow is invalid: where (a JSON path), what, and what to do about it. */
export interface Problem {
  code: ProblemCode;
  /** JSON path into the workflow document, e.g. `$.nodes[2].retry.attempts`. */
  path: string;
  message: string;
}

/** `['nodes', 2, 'id']` → `$.nodes[2].id`. */
export function jsonPath(segments: ReadonlyArray<PropertyKey>): string {
  let out = '$';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (typeof s === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(String(s))}]`;
  }
  return out;
}

/** Turns zod issues into problems whose messages name the expectation, not zod's internals. */
export function problemsFromZod(error: z.ZodError): Problem[] {
  const out: Problem[] = [];
  for (const issue of error.issues) {
    out.push({ code: 'schema', path: jsonPath(issue.path), message: describeIssue(issue) });
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      const received = (issue as { input?: unknown }).input;
      if (received === undefined) return `is required (expected ${issue.expected}); add it`;
      return `expected ${issue.expected}, got ${describeValue(received)}`;
    }
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}; remove ${issue.keys.length > 1 ? 'them' : 'it'} or check the spelling`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union': {
      const note = (issue as { note?: string }).note;
      if (note === 'No matching discriminator') {
        const disc = (issue as { discriminator?: string }).discriminator ?? 'kind';
        return `has no valid "${disc}"; use ${disc === 'kind' ? '"llm" or "tool" for a node, "field" or "status" for a guard' : `a valid "${disc}"`}`;
      }
      return `does not match any allowed form: ${issue.message}`;
    }
    case 'too_small':
      if (issue.origin === 'string') return `must not be empty`;
      return issue.message;
    case 'invalid_format':
      return `${issue.message}`;
    default:
      return issue.message;
  }
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${typeof v === 'object' ? '' : JSON.stringify(v)}`.trim();
}
