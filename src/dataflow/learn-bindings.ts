import { canonicalArgs, stableStringify, type ParamSchema } from '../contracts/canonical-args.js';
import { isIdentifierShaped } from '../util/identifier-shape.js';
import { customerOf, knownValue, knownWord, toolWords } from './customers.js';
import { holdsValue, leavesOf, sameValue, valueText } from './locate.js';
import { readOutput } from './output-value.js';
import { resolveSource, valuesAtPath, type EarlierResult } from './resolve.js';
import type { BindingSource, Transform } from './schema.js';

/**
 * Arguments by example: for every parameter of every tool, where its value comes from, found as a
 * small program checked against the optimisation records' reference calls and the results recorded
 * before each of them. Enumeration, no rule for any tool, domain or dataset:
 *
 * - an earlier result: for each reference value found in an earlier call's result (as a leaf, or
 *   made from one by a transform: its last segment, a part of it split at a separator, a join with
 *   a sibling field, a number written with fewer decimals), the program reads that result's JSON
 *   path; a list item is chosen as the first, the last, or the one whose field the request names;
 *   the result is the latest call of that tool, or the latest result the path reaches at all;
 * - a request span: for each reference value the request writes, a pattern of the value's shape
 *   (character classes: `AAPL` → `[A-Z]+`), alone, after the word written right before it, or
 *   between the punctuation around it (`"Paris"`, `(ALB)`); resolved in the part of the request the
 *   call serves first;
 * - a constant: the value most calls pass, passed in at least `minConstantGroups` distinct groups,
 *   never shaped like an identifier, made only of words of the language or of the tools' texts
 *   where it has letters, and never a value a request states (it would copy one request's
 *   value into every other's calls).
 *
 * Every candidate program is then run on every reference call of the tool, with what its record
 * held before that call, and kept only when it reproduces the reference value in at least
 * `minHits` calls of `minGroups` groups and is right in `minPrecision` of the calls where it gives a
 * value (a call that passes no value for the parameter counts against a program that gives one).
 * The best program per parameter is proposed; the search keeps it only if D_val rises.
 */

/** A record as the learner reads it. */
export interface ExampleRecord {
  id: string;
  query: string;
  group?: string;
  meta?: Record<string, unknown>;
  calls: ReadonlyArray<{ tool: string; args: Record<string, unknown>; output?: unknown; status?: 'ok' | 'error' }>;
}

/** A tool as the learner reads it. */
export interface ExampleTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

/** A program found for one parameter, with what it reproduced. */
export interface LearnedBinding {
  tool: string;
  param: string;
  source: BindingSource;
  /** Reference calls of the tool it ran on, gave the reference value in, and gave another value in. */
  calls: number;
  hits: number;
  wrong: number;
  /** Distinct groups of its hits. */
  groups: number;
}

export const BINDING_PARAMETERS = {
  minHits: 3,
  minGroups: 2,
  minPrecision: 0.8,
  /** Distinct groups a constant must be passed in (as a hint's recurring value: learn-hints.ts). */
  minConstantGroups: 5,
  /** Share of a parameter's calls a constant must be passed in. */
  minConstantShare: 0.6,
  /** Earlier calls searched per reference value, latest first. */
  lookBack: 6,
  /** Candidate programs kept per parameter (the most often found). */
  maxCandidates: 60,
};

type Params = typeof BINDING_PARAMETERS;

interface Example {
  record: ExampleRecord;
  group: string;
  /** The reference value (undefined: the call passed none). */
  value: unknown;
  earlier: EarlierResult[];
}

const canon = (v: unknown, schema: ParamSchema | undefined) =>
  stableStringify(canonicalArgs({ v }, { type: 'object', properties: { v: schema ?? {} } }).v);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The character-class shape of a value: `AAPL` → `[A-Z]+`, `2024-01-05` → `\d+-\d+-\d+`, `New York` → `[A-Z][a-z]+\s+[A-Z][a-z]+`. */
export function shapePattern(value: string): string | undefined {
  if (value.length === 0 || value.length > 48) return undefined;
  const runs = value.match(/[A-Z][a-z]+|[A-Z]+(?![a-z])|[a-z]+|\d+|\s+|./g) ?? [];
  if (runs.length > 12) return undefined;
  const cls = (r: string) =>
    /^[A-Z][a-z]+$/.test(r)
      ? '[A-Z][a-z]+'
      : /^[A-Z]+$/.test(r)
        ? '[A-Z]+'
        : /^[a-z]+$/.test(r)
          ? '[a-z]+'
          : /^\d+$/.test(r)
            ? '\\d+'
            : /^\s+$/.test(r)
              ? '\\s+'
              : escapeRe(r);
  return runs.map(cls).join('');
}

/** How a pattern of the value's shape alone begins (no letter or digit right before it). */
const BARE = '(?<![A-Za-z0-9])';

/** Request patterns for a value the request writes: its shape alone, after the word before it, between punctuation. */
function requestPrograms(
  query: string,
  value: unknown,
  words: ReadonlySet<string>,
): Array<Extract<BindingSource, { from: 'request' }>> {
  if (typeof value !== 'string' && typeof value !== 'number') return [];
  const v = String(value);
  const shape = shapePattern(v);
  const at = query.indexOf(v);
  if (!shape || at < 0) return [];
  const out = [`${BARE}(${shape})(?![A-Za-z0-9])`];
  const before = /([A-Za-z]+)\s*$/.exec(query.slice(0, at))?.[1];
  // The word before the value becomes part of the program: only a word of the language or the tools.
  if (before && before.length > 1 && knownWord(before, words))
    out.push(`\\b${escapeRe(before)}\\s+(${shape})(?![A-Za-z0-9])`);
  const pre = query[at - 1];
  const post = query[at + v.length];
  if (pre && post && /[^\sA-Za-z0-9]/.test(pre) && /[^\sA-Za-z0-9]/.test(post))
    out.push(`${escapeRe(pre)}(${shape})${escapeRe(post)}`);
  return out.map((pattern) => ({ from: 'request' as const, pattern }));
}

const SEPARATORS = [',', ' ', ', ', ';', '|', '-', '_', ':', '/'];

/** The transforms that make `leaf` (held by `holder`) into `target`, none first. */
function transformsTo(leaf: unknown, holder: unknown, target: string): Array<Transform | undefined> {
  const out: Array<Transform | undefined> = [];
  if (sameValue(leaf, target)) out.push(undefined);
  const text = valueText(leaf);
  if (text === undefined) return out;
  const n = Number(text);
  const t = Number(target);
  if (out.length === 0 && Number.isFinite(n) && Number.isFinite(t) && text !== '' && target !== '') {
    const digits = (target.split('.')[1] ?? '').length;
    if (n.toFixed(digits) === target) out.push({ op: 'number', digits });
  }
  if (text.length > target.length && text.includes(target)) {
    const segs = text.split(/[/:#]/).filter(Boolean);
    if (segs.length > 1 && segs.at(-1) === target) out.push({ op: 'last-segment' });
    for (const sep of SEPARATORS) {
      const parts = text.split(sep).map((p) => p.trim());
      const at = parts.indexOf(target);
      if (parts.length > 1 && at >= 0) {
        out.push({ op: 'split', sep, index: at === parts.length - 1 && at > 0 ? -1 : at });
        break;
      }
    }
  }
  if (holder !== null && typeof holder === 'object' && !Array.isArray(holder) && target.startsWith(text)) {
    for (const sep of [',', ', ', ' ', ';']) {
      if (!target.startsWith(text + sep)) continue;
      const rest = target.slice(text.length + sep.length);
      for (const [k, v] of Object.entries(holder as Record<string, unknown>))
        if (sameValue(v, rest)) out.push({ op: 'join', with: k, sep });
    }
  }
  if (holder !== null && typeof holder === 'object' && !Array.isArray(holder) && target.endsWith(text)) {
    for (const sep of [',', ', ', ' ', ';']) {
      if (!target.endsWith(sep + text)) continue;
      const rest = target.slice(0, target.length - text.length - sep.length);
      for (const [k, v] of Object.entries(holder as Record<string, unknown>))
        if (sameValue(v, rest)) out.push({ op: 'join', with: k, sep, withFirst: true });
    }
  }
  return out;
}

/** The object a leaf path's value sits in (`a.b[0].c` → `a.b[0]`). */
const holderPath = (path: string) => {
  const m = /^(.*)(\.[^.[\]]+|\[\d+\])$/.exec(path);
  return m ? m[1]! : '';
};

/**
 * The output programs that read `target` from one earlier result: the leaf path with its last list
 * index turned into a pick (first, last, or the item whose field the request names), every other index
 * kept as it is.
 */
function outputPrograms(
  result: unknown,
  tool: string,
  target: string,
  query: string,
): Array<Extract<BindingSource, { from: 'output' }>> {
  const read = readOutput(result);
  const out: Array<Extract<BindingSource, { from: 'output' }>> = [];
  if (read === undefined || read === null || typeof read !== 'object') {
    // A result that is the value itself (a lookup that answers with an id): the whole result, `$`.
    const whole = read ?? result;
    if (whole === null || typeof whole === 'object') return [];
    for (const transform of transformsTo(whole, undefined, target)) {
      const base = { from: 'output' as const, path: '$', ...(transform ? { transform } : {}) };
      out.push({ ...base, tool }, base);
    }
    return out;
  }
  for (const leaf of leavesOf(read)) {
    const hp = holderPath(leaf.path);
    const holder = hp ? valuesAtPath(read, hp)[0] : read;
    const transforms = transformsTo(leaf.value, holder, target);
    if (transforms.length === 0) continue;
    const m = /^(.*)\[(\d+)\](.*)$/.exec(leaf.path);
    const variants: Array<{ path: string; pick?: 'first' | 'last' | 'match'; by?: string }> = [];
    if (!m) variants.push({ path: leaf.path });
    else {
      const [, list, idx, rest] = m;
      const items = valuesAtPath(read, `${list}[*]`);
      const k = Number(idx);
      const path = `${list}[*]${rest}`;
      if (k === 0) variants.push({ path });
      if (k === items.length - 1 && items.length > 1) variants.push({ path, pick: 'last' });
      const item = items[k];
      if (item !== null && typeof item === 'object' && !Array.isArray(item))
        for (const [key, v] of Object.entries(item as Record<string, unknown>)) {
          if (typeof v !== 'string' || v.length < 2 || !/^[^.[\]]+$/.test(key) || !holdsValue(query, v)) continue;
          // The named item must be the only one the request names by that field.
          const named = items.filter(
            (x) => x && typeof x === 'object' && holdsValue(query, (x as Record<string, unknown>)[key]),
          );
          if (named.length === 1) variants.push({ path, pick: 'match', by: key });
        }
      if (variants.length === 0 && items.length > 1) continue;
    }
    for (const v of variants)
      for (const transform of transforms) {
        const base = {
          from: 'output' as const,
          path: v.path,
          ...(v.pick ? { pick: v.pick } : {}),
          ...(v.by ? { by: v.by } : {}),
        };
        const withT = transform ? { ...base, transform } : base;
        out.push({ ...withT, tool }, withT);
      }
  }
  return out;
}

/** Learns one program per parameter where one holds (see the module comment). */
export function learnBindings(
  records: readonly ExampleRecord[],
  tools: readonly ExampleTool[],
  params: Params = BINDING_PARAMETERS,
): LearnedBinding[] {
  const schemas = new Map(
    tools.map((t) => [
      t.name,
      (t.inputSchema as { properties?: Record<string, ParamSchema> } | undefined)?.properties ?? {},
    ]),
  );
  // Every reference call of a known tool, per (tool, parameter), with what its record held before it.
  const examples = new Map<string, { tool: string; param: string; list: Example[] }>();
  for (const record of records) {
    // Hits and constants count distinct customers, not one customer's many tasks (customers.ts).
    const group = customerOf(record);
    record.calls.forEach((call, i) => {
      const props = schemas.get(call.tool);
      if (!props || call.status === 'error') return;
      const earlier: EarlierResult[] = record.calls
        .slice(0, i)
        .filter((c) => c.status !== 'error' && c.output !== undefined)
        .map((c) => ({ tool: c.tool, status: 'ok', output: c.output }));
      for (const param of new Set([...Object.keys(props), ...Object.keys(call.args)])) {
        const key = `${call.tool}\u0000${param}`;
        const e = examples.get(key) ?? { tool: call.tool, param, list: [] };
        examples.set(key, e);
        const v = call.args[param];
        e.list.push({ record, group, value: v === null || v === '' ? undefined : v, earlier });
      }
    });
  }
  const words = toolWords(tools);
  const learned: LearnedBinding[] = [];
  for (const { tool, param, list } of examples.values()) {
    const schema = schemas.get(tool)?.[param];
    const withValue = list.filter((x) => x.value !== undefined && typeof x.value !== 'object');
    if (withValue.length < params.minHits) continue;
    // Candidates, counted by how many examples they were found in.
    const found = new Map<string, { source: BindingSource; n: number }>();
    const add = (s: BindingSource) => {
      const k = stableStringify(s);
      const c = found.get(k);
      if (c) c.n++;
      else found.set(k, { source: s, n: 1 });
    };
    for (const x of withValue) {
      const target = valueText(x.value)!;
      const seen = new Set<string>();
      if (holdsValue(x.record.query, x.value)) {
        for (const r of requestPrograms(x.record.query, x.value, words)) add(r);
        continue;
      }
      for (const e of x.earlier.slice(-params.lookBack).reverse())
        for (const s of outputPrograms(e.output, e.tool, target, x.record.query)) {
          const k = stableStringify(s);
          if (!seen.has(k)) {
            seen.add(k);
            add(s);
          }
        }
    }
    const constant = constantOf(withValue, list.length, schema, param, params, words);
    if (constant !== undefined) add({ from: 'const', value: constant });
    const candidates = [...found.values()].sort((a, b) => b.n - a.n).slice(0, params.maxCandidates);
    let best: LearnedBinding | undefined;
    for (const { source } of candidates) {
      let hits = 0;
      let wrong = 0;
      const groups = new Set<string>();
      for (const x of list) {
        const v = resolveSource(source, { query: x.record.query, outputs: new Map(), earlier: x.earlier });
        if (v === undefined) continue;
        if (x.value !== undefined && canon(v, schema) === canon(x.value, schema)) {
          hits++;
          groups.add(x.group);
        } else wrong++;
      }
      if (hits < params.minHits || groups.size < params.minGroups || hits < params.minPrecision * (hits + wrong))
        continue;
      const cand: LearnedBinding = { tool, param, source, calls: list.length, hits, wrong, groups: groups.size };
      if (!best || better(cand, best)) best = cand;
    }
    if (best) learned.push(best);
  }
  return learned.sort((a, b) => a.tool.localeCompare(b.tool) || a.param.localeCompare(b.param));
}

/** More right answers net of wrong ones first; then a program that names its tool, with no transform, then the first item. */
function better(a: LearnedBinding, b: LearnedBinding): boolean {
  const net = (x: LearnedBinding) => x.hits - 2 * x.wrong;
  if (net(a) !== net(b)) return net(a) > net(b);
  const rank = (x: LearnedBinding) => {
    const s = x.source;
    if (s.from === 'request') return s.pattern.startsWith(BARE) ? 8 : 7;
    if (s.from !== 'output') return 9;
    return (s.tool ? 0 : 4) + (s.transform ? 2 : 0) + (s.pick === 'match' ? 1 : s.pick === 'last' ? 1 : 0);
  };
  return rank(a) < rank(b);
}

/** The constant a parameter takes, if one qualifies (see the module comment). */
function constantOf(
  withValue: readonly Example[],
  calls: number,
  schema: ParamSchema | undefined,
  param: string,
  params: Params,
  words: ReadonlySet<string>,
): unknown {
  const counts = new Map<string, { v: unknown; n: number; groups: Set<string> }>();
  for (const x of withValue) {
    const k = canon(x.value, schema);
    const c = counts.get(k) ?? { v: x.value, n: 0, groups: new Set<string>() };
    c.n++;
    c.groups.add(x.group);
    counts.set(k, c);
  }
  const top = [...counts.values()].sort((a, b) => b.n - a.n)[0];
  if (!top || top.n < params.minConstantShare * calls || top.groups.size < params.minConstantGroups) return undefined;
  if (isIdentifierShaped(top.v, { name: param })) return undefined;
  // Letters in a constant are words of the language or of the tools' texts, never a name or a code.
  if (!knownValue(top.v, words)) return undefined;
  const text = valueText(top.v);
  if (text !== undefined && text.length > 1 && withValue.some((x) => holdsValue(x.record.query, top.v)))
    return undefined;
  return top.v;
}
