import { edit, grouped, toolNode, top, type Gen } from './rule-edit.js';

/**
 * The rules of the table (rule-edits.ts) that answer feedback about a step's data: a source that
 * reproduces a parameter's reference values (a binding), hints learned from the reference calls,
 * and values of wrong arguments that stood in results the step does not receive.
 */

/**
 * A parameter a source reproduces in most records where the node made that call: bind it (with a
 * data edge from the source node when it does not feed the node yet); a binding that does not hold: unbind it.
 */
export const bindable: Gen<'bindable'> = (p, { workflow }) => {
  if (!toolNode(workflow, p.node)) return [];
  if (p.source === null) {
    return [
      edit(
        `unbind ${p.tool}.${p.param} at ${p.node}: its source reproduces the reference in ${p.reproduced}/${p.calls} records`,
        p.evidence,
        { op: 'set_binding', id: p.node, tool: p.tool, param: p.param, source: null },
      ),
    ];
  }
  const from = p.source.from === 'output' || p.source.from === 'extract' ? p.source.node : undefined;
  const feed =
    from && !workflow.edges.some((e) => e.from === from && e.to === p.node && e.kind === 'data')
      ? [{ op: 'add_edge' as const, from, to: p.node, kind: 'data' as const }]
      : [];
  const node = toolNode(workflow, p.node)!;
  const hint =
    !node.tools || node.tools.length === 0 || node.tools.includes(p.tool)
      ? []
      : [{ op: 'set_tool_hint' as const, id: p.node, tools: [...node.tools, p.tool] }];
  return [
    grouped(
      'bind',
      edit(
        `bind ${p.tool}.${p.param} at ${p.node} ← ${p.source.from}: reproduces the reference in ${p.reproduced}/${p.calls} records (now ${p.current})`,
        1.2 * p.evidence,
        ...hint,
        ...feed,
        { op: 'set_binding', id: p.node, tool: p.tool, param: p.param, source: p.source },
      ),
    ),
  ];
};

/**
 * Hints learned from the reference calls: one edit per tool on the node that calls it, all of them
 * also offered as one plan (their scores add up, so a search learns them together first).
 */
export const hints: Gen<'hints'> = (p, { workflow }) => {
  return p.proposals
    .filter((h) => toolNode(workflow, h.node))
    .map((h) => {
      const { tool: _tool, ...hint } = h.hint;
      return grouped(
        'hints',
        edit(`set_hint ${h.tool} at ${h.node}: learned from ${h.calls} reference calls`, 1.5 * Math.sqrt(h.calls), {
          op: 'set_hint',
          id: h.node,
          tool: h.tool,
          hint,
        }),
      );
    });
};

export const unseen: Gen<'unseen-values'> = (p, { workflow }) => {
  if (!toolNode(workflow, p.node)) return [];
  const sources = top(p.sources, 3).filter(
    (src) =>
      workflow.nodes.some((x) => x.id === src) &&
      !workflow.edges.some((e) => e.from === src && e.to === p.node && e.kind === 'data'),
  );
  if (sources.length === 0) return [];
  const edges = sources.map((from) => ({ op: 'add_edge' as const, from, to: p.node, kind: 'data' as const }));
  return [
    grouped(
      'feed results',
      edit(
        `add_edge ${sources.join(', ')} → ${p.node}: ${p.values} wrong arguments had their values in those results (${p.evidence} records)`,
        0.5 * p.evidence,
        ...edges,
      ),
    ),
  ];
};
