import { choiceValues } from './node-prompt.js';
import { describeNode, listNames, suggest, type Problem } from './problems.js';
import { declaredField, type LlmNode, type Workflow } from './schema.js';
import { isSynthesizeDirective, SYNTHESIZE_DIRECTIVE_IDS } from './synthesize-variants.js';

/**
 * The rules of Valid(G, T) for an LLM node's structured fields (docs/DESIGN.md, "The workflow IR"):
 * a `question` belongs to a judge; a judge's `choices` answer in a string field its JSON output
 * declares (every value among the field's `enum` when it has one), name each value once, list tools
 * of T, and every guard on that field of an edge out of the judge compares with one of its values; a
 * synthesizer's `directives` are known ids, each once. `available` is T's tool names (undefined: T
 * is not known, tools are not checked).
 */
export function llmFieldProblems(w: Workflow, available: ReadonlySet<string> | undefined): Problem[] {
  const problems: Problem[] = [];
  w.nodes.forEach((n, i) => {
    if (n.kind !== 'llm') return;
    const at = `$.nodes[${i}]`;
    if (n.question !== undefined && n.role !== 'judge')
      problems.push({
        code: 'question',
        path: `${at}.question`,
        message: `node '${n.id}' is ${describeNode(n)}, and only a judge answers a question; remove "question" or make the node a judge`,
      });
    if (n.choices !== undefined) problems.push(...choiceProblems(n, at, w.edges, available));
    if (n.directives !== undefined) problems.push(...directiveProblems(n, at));
  });
  return problems;
}

function choiceProblems(
  n: LlmNode,
  at: string,
  edges: Workflow['edges'],
  available: ReadonlySet<string> | undefined,
): Problem[] {
  const out: Problem[] = [];
  const push = (path: string, message: string, code: Problem['code'] = 'choices') => out.push({ code, path, message });
  const choices = n.choices!;
  const field = choices.field;
  if (n.role !== 'judge')
    push(
      `${at}.choices`,
      `node '${n.id}' is ${describeNode(n)}, and only a judge picks a branch; remove "choices" or make the node a judge`,
    );
  const values = choiceValues(choices);
  const seen = new Set<string>();
  values.forEach((v, j) => {
    const path = j < choices.options.length ? `${at}.choices.options[${j}].value` : `${at}.choices.otherwise`;
    if (seen.has(v))
      push(path, `the value '${v}' is listed twice in the choices of node '${n.id}'; give each branch its own value`);
    seen.add(v);
  });
  if (choices.fallback !== undefined && !choices.options.some((o) => o.value === choices.fallback))
    push(
      `${at}.choices.fallback`,
      `the fallback '${choices.fallback}' of node '${n.id}' is none of its options (${listNames(choices.options.map((o) => o.value))}); name one of them or remove it`,
    );
  if (n.output.type !== 'json') {
    push(
      `${at}.choices.field`,
      `node '${n.id}' has text output, so it cannot answer '${field}'; give it output {"type": "json", "schema": …} declaring '${field}' as a string`,
    );
  } else {
    const declared = declaredField(n.output.schema, field);
    if (!declared) {
      push(
        `${at}.choices.field`,
        `node '${n.id}' does not declare the field '${field}' its choices answer in (declared: ${listNames(Object.keys(n.output.schema.properties))}); declare it as a string in its output schema`,
      );
    } else {
      const types = ([] as unknown[]).concat(declared.type ?? []);
      if (types.length > 0 && !types.includes('string'))
        push(
          `${at}.choices.field`,
          `the field '${field}' of node '${n.id}' is declared ${types.join(' | ')}, but an option's value is a string; declare it as a string`,
        );
      if (Array.isArray(declared.enum)) {
        const allowed = declared.enum.map(String);
        values.forEach((v, j) => {
          if (allowed.includes(v)) return;
          const path = j < choices.options.length ? `${at}.choices.options[${j}].value` : `${at}.choices.otherwise`;
          push(
            path,
            `'${v}' is not one of the values the field '${field}' of node '${n.id}' may take (${listNames(allowed)}); add it to the field's enum or use one of those`,
          );
        });
      }
    }
  }
  if (available !== undefined)
    choices.options.forEach((o, j) =>
      o.tools.forEach((t, k) => {
        if (!available.has(t))
          push(
            `${at}.choices.options[${j}].tools[${k}]`,
            `tool '${t}' of option '${o.value}' of node '${n.id}' is not available; ${suggest(t, available)}`,
            'unknown-tool',
          );
      }),
    );
  edges.forEach((e, index) => {
    const g = e.when;
    if (e.from !== n.id || !g || g.kind !== 'field' || g.field !== field || g.value === undefined) return;
    if (!['eq', 'ne', 'in', 'not_in'].includes(g.op)) return;
    for (const v of Array.isArray(g.value) ? g.value : [g.value]) {
      if (typeof v === 'string' && seen.has(v)) continue;
      push(
        `$.edges[${index}].when.value`,
        `the edge ${n.id} → ${e.to} tests '${field}' ${g.op} ${JSON.stringify(v)}, which is none of the choices of node '${n.id}' (${listNames(values)}); test one of those or add an option for it`,
      );
    }
  });
  return out;
}

function directiveProblems(n: LlmNode, at: string): Problem[] {
  const out: Problem[] = [];
  if (n.role !== 'synthesize')
    out.push({
      code: 'directives',
      path: `${at}.directives`,
      message: `node '${n.id}' is ${describeNode(n)}, and directives say how a synthesizer writes the answer; remove "directives" or make the node a synthesizer`,
    });
  const seen = new Set<string>();
  n.directives!.forEach((d, j) => {
    if (!isSynthesizeDirective(d))
      out.push({
        code: 'directives',
        path: `${at}.directives[${j}]`,
        message: `'${d}' is not a directive of the template library; use one of ${SYNTHESIZE_DIRECTIVE_IDS.join(', ')}`,
      });
    else if (seen.has(d))
      out.push({
        code: 'directives',
        path: `${at}.directives[${j}]`,
        message: `the directive '${d}' is listed twice at node '${n.id}'; keep one (the order says which of two directives wins)`,
      });
    seen.add(d);
  });
  return out;
}
