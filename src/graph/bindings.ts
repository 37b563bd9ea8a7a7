import type { Adjacency } from './graph-utils.js';
import type { BindingSource, ToolBinding, ToolNode } from './schema.js';

/**
 * Argument bindings of tool nodes (docs/DESIGN.md, "The workflow IR": a tool node ⟨t, ϑt⟩ may bind
 * parameters of its tools to a source). Pure: resolving a binding needs the request and the outputs
 * of the node's upstream nodes, nothing else, so the interpreter, compiled modules, LangGraph exports
 * and `serve` resolve it alike, with no model. A binding that yields nothing leaves the parameter to
 * the policy.
 */

/** What a binding can read: the request, and the outputs of upstream nodes by id. */
export interface BindingInputs {
  query: string;
  /** Tool nodes: their calls (`{tool, args, status, output}`); LLM nodes: text or JSON. */
  outputs: ReadonlyMap<string, unknown>;
}

/** One step of a JSON path: a key, an index, or every item of a list. */
type Step = { key: string } | { index: number } | { each: true };

/** Parses `a.b[0].c`, `$.items[*].id`, `[0].name`; undefined when the path is malformed. */
export function parseJsonPath(path: string): Step[] | undefined {
  const steps: Step[] = [];
  let rest = path.trim().replace(/^\$\.?/, '');
  while (rest.length > 0) {
    let m = /^\[(\d+|\*)\]\.?/.exec(rest);
    if (m) {
      steps.push(m[1] === '*' ? { each: true } : { index: Number(m[1]) });
      rest = rest.slice(m[0].length);
      continue;
    }
    m = /^([^.[\]]+)\.?/.exec(rest);
    if (!m) return undefined;
    steps.push({ key: m[1]! });
    rest = rest.slice(m[0].length);
  }
  return steps;
}

/** Every value `path` reaches in `value`, in document order. */
export function valuesAtPath(value: unknown, path: string): unknown[] {
  const steps = parseJsonPath(path);
  if (!steps) return [];
  let current: unknown[] = [value];
  for (const s of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if ('each' in s) {
        if (Array.isArray(v)) next.push(...v);
      } else if ('index' in s) {
        if (Array.isArray(v) && s.index < v.length) next.push(v[s.index]);
      } else if (v !== null && typeof v === 'object' && !Array.isArray(v) && s.key in (v as object)) {
        next.push((v as Record<string, unknown>)[s.key]);
      }
    }
    current = next;
  }
  return current.filter((v) => v !== undefined && v !== null && v !== '');
}

/** The results of a tool node's ok calls (its output is the list of its calls). */
export function callOutputs(output: unknown): unknown[] {
  if (!Array.isArray(output)) return output === undefined ? [] : [output];
  return output
    .filter((c) => c && typeof c === 'object' && (c as { status?: unknown }).status === 'ok' && 'output' in c)
    .map((c) => (c as { output: unknown }).output);
}

/** The regular expression of a `request` binding, or undefined when it does not compile. */
export function bindingRegex(source: Extract<BindingSource, { from: 'request' }>): RegExp | undefined {
  try {
    return new RegExp(source.pattern, source.flags ?? '');
  } catch {
    return undefined;
  }
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The value a source gives for this request and these upstream outputs, or undefined. */
export function resolveSource(source: BindingSource, inputs: BindingInputs): unknown {
  switch (source.from) {
    case 'const':
      return source.value;
    case 'model':
      return undefined;
    case 'request': {
      const re = bindingRegex(source);
      const m = re?.exec(inputs.query);
      const v = m?.[source.group ?? 1];
      return v === undefined || v === '' ? undefined : v;
    }
    case 'known': {
      let best: { at: number; value: string } | undefined;
      for (const value of source.values) {
        const at = inputs.query.search(new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRe(value)}(?=$|[^\\p{L}\\p{N}])`, 'iu'));
        if (at >= 0 && (!best || at < best.at)) best = { at, value };
      }
      return best?.value;
    }
    case 'extract': {
      const out = inputs.outputs.get(source.node);
      if (!out || typeof out !== 'object' || Array.isArray(out)) return undefined;
      const v = valuesAtPath(out, source.field)[0];
      return v;
    }
    case 'output': {
      const found = callOutputs(inputs.outputs.get(source.node)).flatMap((o) => valuesAtPath(o, source.path));
      return source.pick === 'last' ? found.at(-1) : found[0];
    }
  }
}

/** Converts a value a source gave to the parameter's declared type when that is lossless. */
export function coerceToParam(value: unknown, prop: { type?: string | string[] } | undefined): unknown {
  const types = new Set(prop?.type === undefined ? [] : Array.isArray(prop.type) ? prop.type : [prop.type]);
  if (
    typeof value === 'string' &&
    (types.has('number') || types.has('integer')) &&
    !types.has('string') &&
    /^-?\d+(\.\d+)?$/.test(value)
  )
    return Number(value);
  if (typeof value === 'number' && types.has('string') && !types.has('number') && !types.has('integer'))
    return String(value);
  if (typeof value === 'string' && types.has('boolean') && !types.has('string') && /^(true|false)$/i.test(value))
    return value.toLowerCase() === 'true';
  return value;
}

/** The bound values of `tool` at `node` for these inputs (parameters whose source gave nothing are left out). */
export function boundArgs(
  node: ToolNode,
  tool: string,
  inputs: BindingInputs,
  inputSchema?: unknown,
): Record<string, unknown> {
  const props =
    (inputSchema as { properties?: Record<string, { type?: string | string[] }> } | undefined)?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const b of node.bind ?? []) {
    if (b.tool !== tool) continue;
    const v = resolveSource(b.source, inputs);
    if (v !== undefined) out[b.param] = coerceToParam(v, props[b.param]);
  }
  return out;
}

/** The node ids a binding reads (none for const, request, known, model). */
export function bindingSourceNode(source: BindingSource): string | undefined {
  return source.from === 'extract' || source.from === 'output' ? source.node : undefined;
}

/** One short line for people and prompts: `symbol ← request /…/`, `id ← fetch.results[0].id`. */
export function describeBinding(b: ToolBinding): string {
  const s = b.source;
  const src =
    s.from === 'const'
      ? `constant ${JSON.stringify(s.value)}`
      : s.from === 'request'
        ? `request /${s.pattern}/${s.flags ?? ''}${s.group !== undefined && s.group !== 1 ? ` group ${s.group}` : ''}`
        : s.from === 'known'
          ? `request, one of ${s.values.length} known values`
          : s.from === 'extract'
            ? `${s.node}.${s.field}`
            : s.from === 'output'
              ? `${s.node} → ${s.path}${s.pick === 'last' ? ' (last)' : ''}`
              : 'model';
  return `${b.tool}.${b.param} ← ${src}`;
}

/**
 * Nodes that lie on every path from the entries to `id` (its dominators, `id` excluded): a binding
 * may only read one of them, since on any other path it would not have run.
 */
export function upstreamOnEveryPath(adj: Adjacency, id: string): Set<string> {
  const memo = new Map<string, Set<string>>();
  const visiting = new Set<string>();
  const dom = (n: string): Set<string> => {
    const hit = memo.get(n);
    if (hit) return hit;
    if (visiting.has(n)) return new Set();
    visiting.add(n);
    const preds = (adj.in.get(n) ?? []).map((e) => e.from);
    let acc: Set<string> | undefined;
    for (const p of preds) {
      const d = new Set(dom(p));
      d.add(p);
      acc = acc ? new Set([...acc].filter((x) => d.has(x))) : d;
    }
    visiting.delete(n);
    const result = acc ?? new Set<string>();
    memo.set(n, result);
    return result;
  };
  return dom(id);
}
