import type { z } from 'zod';

/**
 * Turns zod issues into short messages a user can act on, with a JSON path (`$.calls[0].tool`),
 * so every reader of user files (records, predictions) names the field the same way.
 */

/** One problem found in a user file: where it is and what is wrong. */
export interface LineProblem {
  file: string;
  line: number;
  /** JSON path inside the line's object, e.g. `$.query`. */
  path?: string;
  message: string;
}

/** `records.jsonl:12 ($.query): is required (a string)` */
export function formatLineProblem(p: LineProblem): string {
  return `${p.file}:${p.line}${p.path ? ` (${p.path})` : ''}: ${p.message}`;
}

/** A JSON path from a zod path: `['calls', 0, 'tool']` → `$.calls[0].tool`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let s = '$';
  for (const key of path) {
    if (typeof key === 'number') s += `[${key}]`;
    else s += /^[A-Za-z_$][\w$]*$/.test(String(key)) ? `.${String(key)}` : `[${JSON.stringify(String(key))}]`;
  }
  return s;
}

/** Path and message of one zod issue, reading the offending value from `input` when useful. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): { path: string; message: string } {
  const path = jsonPath(issue.path);
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return { path, message: `is required (${article(issue.expected)})` };
      return { path, message: `must be ${article(issue.expected)}, found ${kindOf(value)}` };
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return { path, message: 'must not be empty' };
      return { path, message: issue.message };
    case 'unrecognized_keys':
      return {
        path,
        message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`,
      };
    case 'invalid_value':
      return {
        path,
        message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, found ${JSON.stringify(value)}`,
      };
    default:
      return { path, message: issue.message };
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function article(expected: string): string {
  if (expected === 'record') return 'an object';
  if (expected === 'array') return 'an array';
  if (expected === 'object') return 'an object';
  return `a ${expected}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`.slice(0, 60);
}
