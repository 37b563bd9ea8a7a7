import type { Adjacency } from './graph-utils.js';
import { describeNode, listNames, suggest, type Problem } from './problems.js';
import { llmFieldProblems } from './llm-node-checks.js';
import { NODE_FIELD_PLACEHOLDERS, PLACEHOLDERS, RUNTIME_PLACEHOLDERS, placeholdersIn } from './prompt-templates.js';
import { declaredField, type FieldGuard, type ToolNode, type Workflow } from './schema.js';
import { bindingRegex, parseJsonPath } from '../dataflow/resolve.js';
import { upstreamOnEveryPath } from './graph-utils.js';

/** The tools T a workflow is checked against: names, or anything with a `name` (with `inputSchema`, bound parameters are checked against it). */
export type ToolNames = Iterable<string | { name: string; inputSchema?: unknown }>;

/**
 * The per-node and per-edge rules of Valid(G, T) (docs/DESIGN.md, "The workflow IR"): tool hints in T,
 * guards that read what their source declares (and compare with a value of the declared type), retry
 * attempts in 1..5, and prompts that only keep run-time placeholders. `validate.ts` adds the graph rules.
 */
export function nodeProblems(w: Workflow, adj: Adjacency, tools: ToolNames | undefined): Problem[] {
  const problems: Problem[] = [];
  const push = (code: Problem['code'], path: string, message: string) => problems.push({ code, path, message });

  const schemas = new Map<string, unknown>();
  let available: Set<string> | undefined;
  if (tools !== undefined) {
    const names = new Set<string>();
    available = names;
    for (const t of tools) {
      names.add(typeof t === 'string' ? t : t.name);
      if (typeof t !== 'string' && t.inputSchema !== undefined) schemas.set(t.name, t.inputSchema);
    }
    w.nodes.forEach((n, i) => {
      if (n.kind !== 'tool') return;
      n.tools?.forEach((name, j) => {
        if (!names.has(name)) {
          push(
            'unknown-tool',
            `$.nodes[${i}].tools[${j}]`,
            `tool '${name}' used by node '${n.id}' is not available; ${suggest(name, names)}`,
          );
        }
      });
    });
  }

  w.edges.forEach((e, i) => {
    if (!e.when) return;
    const src = adj.nodes.get(e.from);
    if (!src) return;
    const path = `$.edges[${i}].when`;
    if (e.when.kind === 'status') {
      if (src.kind !== 'tool') {
        push(
          'guard-source',
          path,
          `a status guard reads a tool node's status, but '${src.id}' is ${describeNode(src)}; guard on a field of its JSON output instead ({"kind": "field", "field": …, "op": …})`,
        );
      }
      return;
    }
    if (src.kind !== 'llm') {
      push(
        'guard-source',
        path,
        `a field guard reads an llm node's JSON output, but '${src.id}' is a tool node; use {"kind": "status", "status": "ok" | "error"}`,
      );
      return;
    }
    if (src.output.type !== 'json') {
      push(
        'guard-field',
        `${path}.field`,
        `guard reads field '${e.when.field}' but node '${src.id}' has text output; give it output {"type": "json", "schema": …} declaring '${e.when.field}'`,
      );
      return;
    }
    const declared = declaredField(src.output.schema, e.when.field);
    if (!declared) {
      push(
        'guard-field',
        `${path}.field`,
        `guard reads field '${e.when.field}' which node '${src.id}' does not declare (declared: ${listNames(Object.keys(src.output.schema.properties))}); guard on a declared field or add '${e.when.field}' to the node's output schema`,
      );
      return;
    }
    const mismatch = valueMismatch(e.when, declared);
    if (mismatch) push('guard-value', `${path}.value`, mismatch);
  });

  w.nodes.forEach((n, i) => {
    if (n.kind === 'tool' && n.bind) problems.push(...bindingProblems(n, i, adj, schemas));
    if (n.kind === 'tool' && n.hints) problems.push(...hintProblems(n, i, schemas));
  });

  w.nodes.forEach((n, i) => {
    if (n.kind === 'tool' && n.retry && (n.retry.attempts < 1 || n.retry.attempts > 5)) {
      push(
        'retry-range',
        `$.nodes[${i}].retry.attempts`,
        `retry attempts must be between 1 and 5 (got ${n.retry.attempts}); attempts counts the first call, so 1 means no retry`,
      );
    }
    if (n.kind === 'llm') {
      for (const name of placeholdersIn(n.prompt)) {
        if ((RUNTIME_PLACEHOLDERS as readonly string[]).includes(name)) continue;
        const fieldOf = (NODE_FIELD_PLACEHOLDERS as readonly string[]).includes(name) ? name : undefined;
        if (fieldOf !== undefined && n[fieldOf as 'question' | 'choices'] !== undefined) continue;
        const runtime = RUNTIME_PLACEHOLDERS.map((p) => `{{${p}}}`).join(' and ');
        if (fieldOf !== undefined) {
          push(
            'prompt-placeholder',
            `$.nodes[${i}].prompt`,
            `prompt of node '${n.id}' uses {{${name}}}, which the node's "${name}" field fills, but the node has no "${name}"; give it one or write the text in its place`,
          );
          continue;
        }
        const what =
          name in PLACEHOLDERS
            ? `{{${name}}}, which is only filled when a node is built from a template`
            : `the unknown placeholder {{${name}}}`;
        push(
          'prompt-placeholder',
          `$.nodes[${i}].prompt`,
          `prompt of node '${n.id}' uses ${what}; a stored prompt may only use ${runtime} (and {{question}} / {{choices}} with the node's field of that name), so write the text in its place`,
        );
      }
    }
  });
  problems.push(...llmFieldProblems(w, available));
  return problems;
}

/**
 * A tool node's bindings: one per (tool, parameter); the tool among the node's hinted tools; the
 * parameter in the tool's schema (when the schema is known); a pattern that compiles; a path that
 * parses and reads a node upstream of this one on every path, which feeds it by a data edge (an
 * `output` source a tool node, an `extract` source an llm node with JSON output declaring the field).
 */
function bindingProblems(n: ToolNode, i: number, adj: Adjacency, schemas: ReadonlyMap<string, unknown>): Problem[] {
  const out: Problem[] = [];
  const push = (path: string, message: string) => out.push({ code: 'binding', path, message });
  const seen = new Set<string>();
  let upstream: Set<string> | undefined;
  n.bind!.forEach((b, j) => {
    const at = `$.nodes[${i}].bind[${j}]`;
    const key = `${b.tool}\u0000${b.param}`;
    if (seen.has(key))
      push(
        at,
        `parameter '${b.param}' of '${b.tool}' is bound twice at node '${n.id}'; keep one binding per parameter`,
      );
    seen.add(key);
    if (n.tools && n.tools.length > 0 && !n.tools.includes(b.tool))
      push(
        `${at}.tool`,
        `node '${n.id}' binds a parameter of '${b.tool}', which is not among its tools (${listNames(n.tools)}); add the tool to "tools" or remove the binding`,
      );
    else if (schemas.size > 0 && !schemas.has(b.tool))
      push(`${at}.tool`, `node '${n.id}' binds a parameter of '${b.tool}', which is not an available tool`);
    const schema = schemas.get(b.tool) as { properties?: Record<string, unknown> } | undefined;
    if (schema && !(b.param in (schema.properties ?? {}))) {
      push(
        `${at}.param`,
        `'${b.tool}' has no parameter '${b.param}' (its parameters: ${listNames(Object.keys(schema.properties ?? {}))}); bind one of those`,
      );
    }
    const s = b.source;
    if (s.from === 'request' && !bindingRegex(s))
      push(
        `${at}.source.pattern`,
        `the pattern ${JSON.stringify(s.pattern)} is not a valid regular expression; fix it`,
      );
    if (s.from === 'output' && !parseJsonPath(s.path))
      push(
        `${at}.source.path`,
        `the path ${JSON.stringify(s.path)} is not a JSON path (write it like "results[0].id" or "items[*].name")`,
      );
    if (s.from === 'output' && (s.pick === 'match') !== (s.by !== undefined))
      push(
        `${at}.source.by`,
        s.by === undefined
          ? 'pick "match" needs "by": the field of a list item the request names'
          : '"by" is read only with pick "match"; remove it or set pick to "match"',
      );
    if (s.from === 'output' && s.pick === 'match' && !s.path.includes('[*]'))
      push(`${at}.source.path`, 'pick "match" chooses among list items: write the list in the path with [*]');
    if ((s.from !== 'output' && s.from !== 'extract') || s.node === undefined) return;
    const src = adj.nodes.get(s.node);
    if (!src) {
      push(`${at}.source.node`, `the binding reads node '${s.node}', which does not exist`);
      return;
    }
    upstream ??= upstreamOnEveryPath(adj, n.id);
    if (!upstream.has(s.node))
      push(
        `${at}.source.node`,
        `the binding reads '${s.node}', which is not upstream of '${n.id}' on every path; read a node every path to '${n.id}' passes through`,
      );
    else if (s.from === 'extract' && !(adj.in.get(n.id) ?? []).some((e) => e.from === s.node && e.kind === 'data')) {
      push(
        `${at}.source.node`,
        `the binding reads '${s.node}', which does not feed '${n.id}'; add a data edge ${s.node} → ${n.id}`,
      );
    }
    if (s.from === 'output' && src.kind !== 'tool')
      push(
        `${at}.source`,
        `an "output" binding reads a tool node's results, but '${s.node}' is ${describeNode(src)}; use "extract" for an llm node's field`,
      );
    if (s.from === 'extract') {
      if (src.kind !== 'llm' || src.output.type !== 'json')
        push(
          `${at}.source`,
          `an "extract" binding reads a field of an llm node's JSON output, but '${s.node}' is ${src.kind === 'llm' ? 'an llm node with text output' : 'a tool node'}`,
        );
      else if (!declaredField(src.output.schema, s.field))
        push(
          `${at}.source.field`,
          `node '${s.node}' does not declare field '${s.field}' (declared: ${listNames(Object.keys(src.output.schema.properties))})`,
        );
    }
  });
  return out;
}

/**
 * A tool node's hints: one per tool; the tool an available one (when T is known); its parameters in
 * the tool's schema; a combination or a repeated parameter naming parameters the tool has.
 */
function hintProblems(n: ToolNode, i: number, schemas: ReadonlyMap<string, unknown>): Problem[] {
  const out: Problem[] = [];
  const push = (path: string, message: string) => out.push({ code: 'hint', path, message });
  const seen = new Set<string>();
  n.hints!.forEach((h, j) => {
    const at = `$.nodes[${i}].hints[${j}]`;
    if (seen.has(h.tool)) push(`${at}.tool`, `node '${n.id}' has two hints about '${h.tool}'; keep one`);
    seen.add(h.tool);
    if (schemas.size === 0) return;
    const schema = schemas.get(h.tool) as { properties?: Record<string, unknown> } | undefined;
    if (!schema) {
      push(
        `${at}.tool`,
        `node '${n.id}' has a hint about '${h.tool}', which is not an available tool; remove the hint`,
      );
      return;
    }
    const names = Object.keys(schema.properties ?? {});
    const check = (param: string, path: string) => {
      if (!names.includes(param))
        push(path, `'${h.tool}' has no parameter '${param}' (its parameters: ${listNames(names)}); hint one of those`);
    };
    for (const param of Object.keys(h.params ?? {})) check(param, `${at}.params.${param}`);
    if (h.repeat) check(h.repeat, `${at}.repeat`);
    (h.together ?? []).forEach((c, k) => c.params.forEach((param) => check(param, `${at}.together[${k}].params`)));
  });
  return out;
}

/** A guard that compares a declared boolean/number/string field with a literal of another type can never behave as meant. */
function valueMismatch(guard: FieldGuard, declared: Record<string, unknown>): string | undefined {
  if (guard.value === undefined) return undefined;
  const types = ([] as unknown[]).concat(declared.type ?? []).filter((t): t is string => typeof t === 'string');
  if (types.length === 0) return undefined;
  const values = Array.isArray(guard.value) ? guard.value : [guard.value];
  for (const v of values) {
    const vt = v === null ? 'null' : typeof v;
    const ok = types.some(
      (t) =>
        t === vt || (t === 'integer' && vt === 'number' && Number.isInteger(v)) || (t === 'number' && vt === 'number'),
    );
    if (!ok) {
      const fix = types.includes('boolean')
        ? 'compare with true or false, or use op "truthy" / "falsy"'
        : `compare with ${types.join(' or ')} values`;
      return `guard compares field '${guard.field}' (declared ${types.join(' | ')}) with ${JSON.stringify(v)}, which can never match as meant; ${fix}`;
    }
  }
  if (
    ['gt', 'gte', 'lt', 'lte'].includes(guard.op) &&
    !types.some((t) => t === 'number' || t === 'integer' || t === 'string')
  ) {
    return `op '${guard.op}' orders values, but field '${guard.field}' is declared ${types.join(' | ')}; use "eq" / "ne" or a numeric field`;
  }
  return undefined;
}
