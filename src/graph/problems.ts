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
  'guard-value', // a guard compares a declared field with a literal of another type
  'prompt-placeholder', // a stored prompt keeps a placeholder that is not filled at run time
  'binding', // a bound parameter names an unknown tool or parameter, or reads a node that is not upstream on every path
  'hint', // a hint names an unknown tool or parameter, or a tool twice at one node
  'question', // a question on a node that is not a judge
  'choices', // a judge's branches do not fit its output, its guards or its role
  'directives', // an unknown or repeated directive, or directives on a node that is not a synthesizer
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

/** How a node is named in messages. */
export function describeNode(n: { kind: string; role?: string }): string {
  return n.kind === 'llm' ? `an llm node with role "${n.role}"` : 'a tool node';
}

/** A readable, bounded list of ids for messages. */
export function listNames(names: string[]): string {
  if (names.length === 0) return '(none)';
  const shown = names.slice(0, 12).join(', ');
  return names.length > 12 ? `${shown}, … and ${names.length - 12} more` : shown;
}

/** Turns zod issues into problems whose messages name the expectation, not zod's internals. */
export function problemsFromZod(error: z.ZodError): Problem[] {
  const out: Problem[] = [];
  for (const issue of error.issues) {
    out.push({ code: 'schema', path: jsonPath(issue.path), message: describeIssue(issue) });
  }
  return out;
}

/** Issues carry the offending value when parsed with `reportInput: true`; absent means "missing". */
function inputOf(issue: z.core.$ZodIssue): { present: boolean; value: unknown } {
  return { present: 'input' in issue && issue.input !== undefined, value: (issue as { input?: unknown }).input };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const input = inputOf(issue);
  switch (issue.code) {
    case 'invalid_type':
      if (!input.present) return `is required (expected ${article(issue.expected)}); add it`;
      return `expected ${article(issue.expected)}, got ${describeValue(input.value)}`;
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}; remove ${issue.keys.length > 1 ? 'them' : 'it'} or check the spelling`;
    case 'invalid_value': {
      const allowed = issue.values.map((v) => JSON.stringify(v));
      const expectation = allowed.length === 1 ? `must be ${allowed[0]}` : `must be one of ${allowed.join(', ')}`;
      return input.present
        ? `${expectation} (got ${JSON.stringify(input.value)})`
        : `is required; use ${orList(allowed)}`;
    }
    case 'invalid_union': {
      const u = issue as { note?: string; discriminator?: string; options?: unknown[] };
      if (u.note === 'No matching discriminator') {
        const options = orList((u.options ?? []).map((o) => JSON.stringify(o)));
        const given = (input.value as Record<string, unknown> | undefined)?.[u.discriminator ?? ''];
        const what =
          given === undefined
            ? `"${u.discriminator}" is missing`
            : `"${u.discriminator}" ${JSON.stringify(given)} is not valid`;
        return `${what}; use ${options}`;
      }
      return describeUnion(issue.errors, input.value);
    }
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      if (issue.origin === 'array') return `must have at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_format':
      return input.present ? `${issue.message} (got ${JSON.stringify(input.value)})` : issue.message;
    default:
      return issue.message;
  }
}

/** A plain (non-discriminated) union: list the accepted types when every branch rejected the type. */
function describeUnion(branches: z.core.$ZodIssue[][], value: unknown): string {
  const expected = new Set<string>();
  const visit = (issues: z.core.$ZodIssue[]): boolean =>
    issues.every((i) => {
      if (i.code === 'invalid_type' && i.path.length === 0) return (expected.add(i.expected), true);
      if (i.code === 'invalid_union' && i.path.length === 0) return i.errors.every(visit);
      return false;
    });
  if (branches.every(visit)) return `expected ${orList([...expected].map(article))}, got ${describeValue(value)}`;
  // Report the branch that came closest (fewest issues), with its own wording.
  const best = [...branches].sort((a, b) => a.length - b.length)[0] ?? [];
  return best
    .map((i) => `${i.path.length > 0 ? `${jsonPath(i.path).slice(1).replace(/^\./, '')}: ` : ''}${describeIssue(i)}`)
    .join('; ');
}

function orList(items: string[]): string {
  return items.length <= 2 ? items.join(' or ') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function article(type: string): string {
  if (type === 'null' || type === 'undefined') return type;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A value in a few words for a message ("an object", "the string \"x\"", "a number 3"). */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${article(typeof v)} ${JSON.stringify(v)}`;
}

/** "did you mean …? available: …" for a tool name that is not in T. */
export function suggest(name: string, available: ReadonlySet<string>): string {
  if (available.size === 0) return 'no tools are loaded; pass the tools (e.g. --tools tools.json)';
  const ranked = [...available].sort((a, b) => distance(name, a) - distance(name, b) || (a < b ? -1 : 1));
  const close = ranked.filter((a) => distance(name, a) <= Math.max(3, Math.floor(name.length / 3))).slice(0, 3);
  const prefix = close.length > 0 ? `did you mean ${close.map((c) => `'${c}'`).join(' or ')}? ` : '';
  return `${prefix}available: ${listNames([...available].sort())}`;
}

/** Levenshtein distance, for "did you mean" suggestions. */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}
