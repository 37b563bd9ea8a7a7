import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { JsonSchema } from '../contracts/tools.js';

/**
 * Argument validation against a tool's JSON-Schema input (docs/DESIGN.md, "The workflow IR": the registry validates
 * the arguments against the tool's input schema before calling). ajv compiles each schema once. Scalar types are
 * coerced the way the canonical argument form coerces them (`"5"` for a number parameter is accepted
 * as 5), so a call that TC counts as correct is never rejected here; unknown keywords and formats in
 * imported schemas are ignored rather than fatal.
 */

/** Valid (with the coerced copy) or not (with every problem, by JSON path). */
export type ArgsCheck = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

/** Validates arguments of one tool; returns the coerced copy to pass to the tool. */
export type ArgsValidator = (args: Record<string, unknown>) => ArgsCheck;

/** A new ajv instance with FlowScout's options. Its first compile costs ~50-100 ms; prefer `sharedAjv`. */
export function createAjv(): Ajv {
  return new Ajv({
    strict: false,
    allErrors: true,
    coerceTypes: true,
    validateFormats: false,
    logger: false,
    verbose: true,
  });
}

let shared: Ajv | undefined;

/**
 * One ajv instance for the process: registries are created per run in evaluations and searches, and
 * a fresh instance pays its warm-up on every first call; ajv also caches compiled schemas by object.
 */
export function sharedAjv(): Ajv {
  return (shared ??= createAjv());
}

/** Compiles `schema` once; a schema ajv rejects yields a validator that always explains that. */
export function compileArgsValidator(ajv: Ajv, tool: string, schema: JsonSchema): ArgsValidator {
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return () => ({
      ok: false,
      message: `tool '${tool}' has an invalid input schema (${why}); fix the tool's inputSchema`,
    });
  }
  return (args) => {
    let copy: Record<string, unknown>;
    try {
      copy = flatCopy(args) ?? structuredClone(args);
    } catch {
      return {
        ok: false,
        message: `arguments for '${tool}' are not plain data (they hold a function or similar); pass JSON values`,
      };
    }
    if (validate(copy)) return { ok: true, args: copy };
    const problems = (validate.errors ?? []).map(describeAjvError);
    const unique = [...new Set(problems)];
    return { ok: false, message: `invalid arguments for '${tool}': ${unique.join('; ')}` };
  };
}

/**
 * The copy `structuredClone` would make of arguments that are one plain object of primitive values
 * (the common case, copied without the serializer); undefined for anything else.
 */
function flatCopy(args: Record<string, unknown>): Record<string, unknown> | undefined {
  if (Object.getPrototypeOf(args) !== Object.prototype) return undefined;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(args)) {
    const v = args[k];
    if ((typeof v === 'object' && v !== null) || typeof v === 'function' || typeof v === 'symbol') return undefined;
    if (k === '__proto__') return undefined;
    out[k] = v;
  }
  return out;
}

/** `{instancePath: '/a/0', keyword: 'type', params: {type: 'number'}}` → `$.a[0]: expected number, got string "x"`. */
export function describeAjvError(e: ErrorObject): string {
  const path = pointerToPath(e.instancePath);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${joinPath(path, String(p.missingProperty))}: required but missing`;
    case 'type':
      return `${path}: expected ${String(p.type)}, got ${describe(e.data)}`;
    case 'enum':
      return `${path}: must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${describe(e.data)}`;
    case 'additionalProperties':
      return `${joinPath(path, String(p.additionalProperty))}: not a parameter of this tool; remove it`;
    case 'const':
      return `${path}: must be ${JSON.stringify(p.allowedValue)}`;
    default:
      return `${path}: ${e.message ?? e.keyword}`;
  }
}

function pointerToPath(pointer: string): string {
  if (!pointer) return '$';
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : joinPath(acc, seg)), '$');
}

function joinPath(base: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `string ${JSON.stringify(v.length > 30 ? `${v.slice(0, 30)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
