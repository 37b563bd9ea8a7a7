import { describeBinding, resolveSource, upstreamOnEveryPath, type BindingInputs } from '../graph/bindings.js';
import type { PreparedWorkflow } from '../graph/prepare.js';
import type { BindingSource } from '../graph/schema.js';
import { canonicalArgs, stableStringify, type ParamSchema } from '../contracts/canonical-args.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import type { TaskRecord } from '../records/schema.js';
import type { CallAlignment } from './align-calls.js';
import type { BindablePattern } from './feedback-types.js';
import type { RecordEvaluation } from './types.js';
import { HINT_PARAMETERS } from './hints/learn-hints.js';
import { groupOf } from './hints/tool-evidence.js';
import { isIdentifierShaped } from '../util/identifier-shape.js';

/**
 * Binding evidence of the feedback (docs/DESIGN.md, "Search": bindings come from execution
 * feedback). For every (tool node, tool, parameter) whose calls the alignment pairs with reference
 * calls of the same tool, it tries sources that could give the parameter its value with no model —
 * a constant, a pattern over the request made from the shape of the reference values (alone, after
 * the word before them, or between the punctuation around them), a JSON path into the results of a
 * node upstream on every path — and reports the source that reproduces the reference value in most
 * of those records, when it does so in more records than the calls made now. A source is kept only
 * on evidence across records: a constant must be the reference value of most of them and of at
 * least three, seen in at least `HINT_PARAMETERS.minValueGroups` distinct groups (the rule every
 * value a workflow keeps follows: hints/learn-hints.ts), never identifier-shaped, and never a value a
 * request states (that value belongs to its request: a constant would copy it into every other
 * request's calls); a
 * pattern or path must reproduce each record's own value from that record's request or results.
 *
 * It also reports a bound parameter whose binding reproduces the reference in fewer than half of
 * the records (the edit then unbinds it).
 */

/** Records (with a paired call) a parameter needs before a source is proposed. */
const MIN_RECORDS = 3;
/** Share of those records a source must reproduce ("most"). */
const MOST = 0.6;
/** Below this share a binding is reported as not holding. */
const HOLDS = 0.5;

interface Pair {
  record: string;
  /** The group the record counts for (hints/tool-evidence.ts `groupOf`). */
  group: string;
  query: string;
  ref: unknown;
  got: unknown;
  outputs: Map<string, unknown>;
}

type Key = string;

const same = (a: unknown, b: unknown, schema: ParamSchema | undefined) =>
  a !== undefined &&
  stableStringify(canonicalArgs({ v: a }, { type: 'object', properties: { v: schema ?? {} } }).v) ===
    stableStringify(canonicalArgs({ v: b }, { type: 'object', properties: { v: schema ?? {} } }).v);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The character-class shape of a value: `AAPL` → `[A-Z]+`, `2024-01-05` → `\d+-\d+-\d+`, `New York` → `[A-Z][a-z]+\s+[A-Z][a-z]+`. */
export function shapePattern(value: string): string | undefined {
  if (value.length === 0 || value.length > 48) return undefined;
  const runs = value.match(/[A-Z][a-z]+|[A-Z]+(?![a-z])|[a-z]+|\d+|\s+|./g) ?? [];
  if (runs.length > 12) return undefined;
  return runs
    .map((r) =>
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
                : escapeRe(r),
    )
    .join('');
}

/** How a pattern of the value's shape alone begins. */
const BARE = '(?<![A-Za-z0-9])';

/** Candidate request patterns for one pair: the value's shape, alone, after the word before it, and between punctuation (`(ALB)`, `"Paris"`). */
function requestCandidates(p: Pair): string[] {
  if (typeof p.ref !== 'string' && typeof p.ref !== 'number') return [];
  const v = String(p.ref);
  const shape = shapePattern(v);
  if (!shape) return [];
  const at = p.query.indexOf(v);
  if (at < 0) return [];
  const out = [`${BARE}(${shape})(?![A-Za-z0-9])`];
  const before = /([A-Za-z]+)\s*$/.exec(p.query.slice(0, at))?.[1];
  if (before && before.length > 1) out.push(`\\b${escapeRe(before)}\\s+(${shape})(?![A-Za-z0-9])`);
  const pre = p.query[at - 1];
  const post = p.query[at + v.length];
  const punct = /[^\sA-Za-z0-9]/;
  if (pre && post && punct.test(pre) && punct.test(post)) out.push(`${escapeRe(pre)}(${shape})${escapeRe(post)}`);
  return out;
}

/** Paths in `value` whose value equals `target` (indices both as found and as `[*]`), at most a few. */
function pathsTo(
  value: unknown,
  target: unknown,
  schema: ParamSchema | undefined,
  prefix = '',
  depth = 0,
  out: string[] = [],
): string[] {
  if (out.length >= 6 || depth > 6) return out;
  if (Array.isArray(value)) {
    value.slice(0, 50).forEach((v, i) => {
      const before = out.length;
      pathsTo(v, target, schema, `${prefix}[${i}]`, depth + 1, out);
      for (let k = before; k < out.length; k++) out.push(out[k]!.replace(`${prefix}[${i}]`, `${prefix}[*]`));
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, 80)) {
      if (!/^[^.[\]]+$/.test(k)) continue;
      pathsTo(v, target, schema, prefix ? `${prefix}.${k}` : k, depth + 1, out);
    }
  } else if (prefix && (typeof value === 'string' || typeof value === 'number') && same(value, target, schema))
    out.push(prefix);
  return [...new Set(out)];
}

/** A request pattern anchored on the words or punctuation around the value, not its shape alone. */
const anchored = (s: Extract<BindingSource, { from: 'request' }>) => !s.pattern.startsWith(BARE);

/** Binding evidence over the evaluation (see the module comment). */
export function bindablePatterns(
  prepared: PreparedWorkflow,
  xs: ReadonlyArray<{ r: RecordEvaluation; record: TaskRecord; a: CallAlignment }>,
  tools: readonly ToolDescriptor[],
  n: number,
): BindablePattern[] {
  const schemas = new Map(tools.map((t) => [t.name, t.inputSchema as { properties?: Record<string, ParamSchema> }]));
  const groups = new Map<Key, { node: string; tool: string; param: string; pairs: Pair[] }>();
  for (const { r, record, a } of xs) {
    const outputsByNode = new Map<string, unknown>();
    for (const o of r.trace.observations) {
      if (o.kind === 'tool' && o.status !== 'skipped')
        outputsByNode.set(
          o.nodeId,
          (o.calls ?? []).map((c) => ({
            tool: c.tool,
            args: c.args,
            status: c.status,
            ...(c.output !== undefined ? { output: c.output } : {}),
          })),
        );
      else if (o.kind === 'llm' && o.status === 'ok') outputsByNode.set(o.nodeId, o.output);
    }
    const pairs: Array<{ ref: number; pred: number; node: string }> = [];
    for (const [ref, node] of a.matchedNodes) pairs.push({ ref, pred: -1, node });
    for (const w of a.wrongArgs) pairs.push({ ref: w.refIndex, pred: w.predIndex, node: w.node });
    const seen = new Set<Key>();
    for (const p of pairs) {
      const refCall = record.calls[p.ref];
      if (!refCall) continue;
      const got = p.pred >= 0 ? (r.trace.calls[p.pred]?.args ?? {}) : refCall.args;
      const params = new Set([
        ...Object.keys(schemas.get(refCall.tool)?.properties ?? {}),
        ...Object.keys(refCall.args),
      ]);
      for (const param of params) {
        const key = `${p.node}\u0000${refCall.tool}\u0000${param}`;
        if (seen.has(key)) continue; // one pair per record: the evidence counts records
        seen.add(key);
        const g = groups.get(key) ?? { node: p.node, tool: refCall.tool, param, pairs: [] };
        groups.set(key, g);
        g.pairs.push({
          record: r.id,
          group: groupOf(record),
          query: record.query,
          ref: refCall.args[param],
          got: (got as Record<string, unknown>)[param],
          outputs: outputsByNode,
        });
      }
    }
  }
  const out: BindablePattern[] = [];
  const adj = prepared.adjacency;
  for (const g of groups.values()) {
    const node = adj.nodes.get(g.node);
    if (node?.kind !== 'tool') continue;
    const withValue = g.pairs.filter((p) => p.ref !== undefined);
    const schema = schemas.get(g.tool)?.properties?.[g.param];
    const current = g.pairs.filter((p) =>
      p.ref === undefined ? p.got === undefined : same(p.got, p.ref, schema),
    ).length;
    const existing = node.bind?.find((b) => b.tool === g.tool && b.param === g.param);
    const reproduces = (source: BindingSource) =>
      g.pairs.filter((p) => {
        const v = resolveSource(source, { query: p.query, outputs: p.outputs } satisfies BindingInputs);
        return p.ref === undefined ? v === undefined : same(v, p.ref, schema);
      }).length;
    if (existing && existing.source.from !== 'model') {
      const held = reproduces(existing.source);
      if (held < HOLDS * g.pairs.length) {
        out.push({
          kind: 'bindable',
          node: g.node,
          tool: g.tool,
          param: g.param,
          source: null,
          calls: g.pairs.length,
          reproduced: held,
          current,
          evidence: g.pairs.length - held,
          text: `binding ${describeBinding(existing)} at node ${g.node} reproduces the reference in only ${held}/${g.pairs.length} records`,
        });
      }
      continue;
    }
    if (withValue.length < MIN_RECORDS || withValue.length < MOST * g.pairs.length) continue;
    const candidates = new Map<string, BindingSource>();
    const add = (s: BindingSource) => candidates.set(stableStringify(s), s);
    // A constant: the most common reference value, if it is the value of most records, recurs in
    // enough groups to be the domain's and not one customer's, and is no identifier.
    const counts = new Map<string, { v: unknown; c: number; groups: Set<string> }>();
    for (const p of withValue) {
      const k = stableStringify(p.ref);
      const c = counts.get(k) ?? { v: p.ref, c: 0, groups: new Set<string>() };
      c.c++;
      c.groups.add(p.group);
      counts.set(k, c);
    }
    const top = [...counts.values()].sort((a, b) => b.c - a.c)[0];
    const stated = (v: unknown) =>
      (typeof v === 'string' || typeof v === 'number') &&
      String(v).length > 1 &&
      withValue.some((p) => p.query.toLowerCase().includes(String(v).toLowerCase()));
    if (
      top &&
      top.c >= MOST * g.pairs.length &&
      top.c >= MIN_RECORDS &&
      top.groups.size >= HINT_PARAMETERS.minValueGroups &&
      !isIdentifierShaped(top.v, { name: g.param }) &&
      !stated(top.v)
    )
      add({ from: 'const', value: top.v });
    const upstream = [...upstreamOnEveryPath(adj, g.node)].filter((id) => adj.nodes.get(id)?.kind === 'tool');
    for (const p of withValue.slice(0, 12)) {
      for (const pattern of requestCandidates(p)) add({ from: 'request', pattern });
      for (const u of upstream) {
        for (const out of (p.outputs.get(u) as Array<{ status: string; output?: unknown }> | undefined) ?? []) {
          if (out.status !== 'ok') continue;
          for (const path of pathsTo(out.output, p.ref, schema)) add({ from: 'output', node: u, path });
        }
      }
    }
    let best: { source: BindingSource; hits: number } | undefined;
    for (const s of candidates.values()) {
      const hits = reproduces(s);
      // Ties: a source that reads the record (request, results) over a constant; a pattern anchored on
      // its context over the bare shape (where the context is missing the policy decides; a bare
      // shape takes any token of that shape); then the first found.
      if (
        !best ||
        hits > best.hits ||
        (hits === best.hits && best.source.from === 'const' && s.from !== 'const') ||
        (hits === best.hits &&
          s.from === 'request' &&
          best.source.from === 'request' &&
          anchored(s) &&
          !anchored(best.source))
      )
        best = { source: s, hits };
    }
    if (!best || best.hits < MOST * g.pairs.length || best.hits <= current) continue;
    const b = { tool: g.tool, param: g.param, source: best.source };
    out.push({
      kind: 'bindable',
      node: g.node,
      tool: g.tool,
      param: g.param,
      source: best.source,
      calls: g.pairs.length,
      reproduced: best.hits,
      current,
      evidence: best.hits - current,
      text: `argument ${g.param} of ${g.tool} at node ${g.node}: ${describeBinding(b).split(' ← ')[1]} reproduces the reference in ${best.hits}/${g.pairs.length} records where the node made that call (the calls made now: ${current}/${g.pairs.length}; ${n} records evaluated); as an edit: ${JSON.stringify({ op: 'set_binding', id: g.node, tool: g.tool, param: g.param, source: best.source })}`,
    });
  }
  return out;
}
