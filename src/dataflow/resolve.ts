import { holdsValue } from './locate.js';
import { readOutput } from './output-value.js';
import type { BindingSource, ToolBinding, Transform } from './schema.js';

/**
 * Resolving argument bindings (docs/DESIGN.md, "The workflow IR": a tool node ⟨t, ϑt⟩ may bind
 * parameters of its tools to a source). Pure: a binding reads the request (and the part of it the
 * call serves), the results of earlier calls and nothing else, so the interpreter, compiled modules,
 * LangGraph exports and `serve` resolve it alike, with no model. A binding that yields nothing
 * leaves the parameter to the policy.
 */

/** An earlier call of the run as a binding reads it. */
export interface EarlierResult {
  tool: string;
  status?: 'ok' | 'error';
  output?: unknown;
  /** The node that made it. */
  nodeId?: string;
}

/** What a binding can read. */
export interface BindingInputs {
  query: string;
  /** The part of the request the call serves, when the policy says: request sources read it first. */
  part?: string;
  /** Outputs of the node's data predecessors by node id (tool nodes: their calls; LLM nodes: text or JSON). */
  outputs: ReadonlyMap<string, unknown>;
  /** Every call made before this one in the run (its ancestors' and this step's own), in run order. */
  earlier?: readonly EarlierResult[];
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

/** Every value `path` reaches in `value`, in document order (text is read as the structure it holds). */
export function valuesAtPath(value: unknown, path: string): unknown[] {
  const steps = parseJsonPath(path);
  if (!steps) return [];
  let current: unknown[] = [readOutput(value) ?? value];
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

/** The texts a request source reads, most specific first: the call's part, then the whole request. */
const requestTexts = (inputs: BindingInputs) =>
  inputs.part !== undefined && inputs.part !== inputs.query ? [inputs.part, inputs.query] : [inputs.query];

/** The value `t` makes of `value` found at `holder` (the object that holds it), or undefined. */
export function applyTransform(t: Transform | undefined, value: unknown, holder: unknown): unknown {
  if (!t) return value;
  if (t.op === 'number') {
    const n = typeof value === 'number' ? value : Number(String(value).trim());
    if (!Number.isFinite(n) || String(value).trim() === '') return undefined;
    return t.digits === undefined ? n : n.toFixed(t.digits);
  }
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value);
  if (t.op === 'last-segment') {
    const parts = text.split(/[/:#]/).filter((p) => p.length > 0);
    return parts.length > 1 ? parts.at(-1) : undefined;
  }
  if (t.op === 'split') {
    const parts = text.split(t.sep);
    if (parts.length < 2) return undefined;
    const v = parts.at(t.index)?.trim();
    return v ? v : undefined;
  }
  const other =
    holder !== null && typeof holder === 'object' && !Array.isArray(holder)
      ? (holder as Record<string, unknown>)[t.with]
      : undefined;
  if (other === undefined || other === null || typeof other === 'object') return undefined;
  return t.withFirst ? `${String(other)}${t.sep}${text}` : `${text}${t.sep}${String(other)}`;
}

/** The value an output source gives from one result, or undefined. */
export function fromResult(
  source: Extract<BindingSource, { from: 'output' }>,
  result: unknown,
  query: string,
): unknown {
  const read = readOutput(result) ?? result;
  const cut = source.path.lastIndexOf('[*]');
  const list = cut >= 0 ? source.path.slice(0, cut + 3) : undefined;
  const rest = cut >= 0 ? source.path.slice(cut + 3).replace(/^\./, '') : source.path;
  // The objects that hold the values (for `join`), and the values, in document order.
  const found: Array<{ value: unknown; holder: unknown }> = [];
  const items = list !== undefined ? valuesAtPath(read, list) : [read];
  for (const item of items) {
    if (source.pick === 'match') {
      const key = source.by !== undefined ? valuesAtPath(item, source.by)[0] : undefined;
      if (key === undefined || !holdsValue(query, key)) continue;
    }
    const holderPath = rest.includes('.') ? rest.slice(0, rest.lastIndexOf('.')) : '';
    const holder = holderPath ? valuesAtPath(item, holderPath)[0] : item;
    for (const value of rest ? valuesAtPath(item, rest) : [item]) found.push({ value, holder });
    if (source.pick === 'match' && found.length > 0) break;
  }
  const chosen = source.pick === 'last' ? found.at(-1) : found[0];
  if (!chosen || (typeof chosen.value === 'object' && chosen.value !== null)) return undefined;
  return applyTransform(source.transform, chosen.value, chosen.holder);
}

/** The earlier results an output source may read, latest first. */
function resultsFor(source: Extract<BindingSource, { from: 'output' }>, inputs: BindingInputs): unknown[] {
  const earlier = inputs.earlier ?? [];
  const ok = (c: EarlierResult) => c.status !== 'error' && c.output !== undefined;
  if (source.node !== undefined) {
    const own = earlier.filter((c) => ok(c) && c.nodeId === source.node).map((c) => c.output);
    const given = callOutputs(inputs.outputs.get(source.node));
    const extract = inputs.outputs.get(source.node);
    const all = own.length > 0 ? own : given.length > 0 ? given : extract !== undefined ? [extract] : [];
    return all.slice().reverse();
  }
  return earlier
    .filter((c) => ok(c) && (source.tool === undefined || c.tool === source.tool))
    .map((c) => c.output)
    .reverse();
}

/** The value a source gives for this request and these earlier results, or undefined. */
export function resolveSource(source: BindingSource, inputs: BindingInputs): unknown {
  switch (source.from) {
    case 'const':
      return source.value;
    case 'model':
      return undefined;
    case 'request': {
      const re = bindingRegex(source);
      for (const text of requestTexts(inputs)) {
        const m = re?.exec(text);
        const v = m?.[source.group ?? 1];
        if (v !== undefined && v !== '') return v;
      }
      return undefined;
    }
    case 'known': {
      for (const text of requestTexts(inputs)) {
        let best: { at: number; value: string } | undefined;
        for (const value of source.values) {
          const at = text.search(new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRe(value)}(?=$|[^\\p{L}\\p{N}])`, 'iu'));
          if (at >= 0 && (!best || at < best.at)) best = { at, value };
        }
        if (best) return best.value;
      }
      return undefined;
    }
    case 'extract': {
      const out = inputs.outputs.get(source.node);
      if (!out || typeof out !== 'object' || Array.isArray(out)) return undefined;
      return valuesAtPath(out, source.field)[0];
    }
    case 'output': {
      const query = inputs.part ?? inputs.query;
      for (const result of resultsFor(source, inputs)) {
        const v = fromResult(source, result, query);
        if (v !== undefined) return v;
      }
      return undefined;
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

/** The bound values of `tool` for these inputs (parameters whose source gave nothing are left out). */
export function boundArgs(
  bindings: readonly ToolBinding[] | undefined,
  tool: string,
  inputs: BindingInputs,
  inputSchema?: unknown,
): Record<string, unknown> {
  const props =
    (inputSchema as { properties?: Record<string, { type?: string | string[] }> } | undefined)?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const b of bindings ?? []) {
    if (b.tool !== tool) continue;
    const v = resolveSource(b.source, inputs);
    if (v !== undefined) out[b.param] = coerceToParam(v, props[b.param]);
  }
  return out;
}

/** The node id a binding reads (only `extract` and node-bound `output` sources name one). */
export function bindingSourceNode(source: BindingSource): string | undefined {
  return source.from === 'extract' || (source.from === 'output' && source.node !== undefined) ? source.node : undefined;
}
