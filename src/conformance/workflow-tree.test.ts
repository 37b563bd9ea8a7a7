import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Edge, Workflow, WorkflowNode } from '../graph/schema.js';
import { formatProcessTree } from '../mining/process-tree/format.js';
import { TreeAligner } from './aligner.js';
import { workflowProcessTree, workflowRoutes } from './workflow-tree.js';

const repo = resolve(import.meta.dirname, '../..');
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(repo, 'test/fixtures/workflows', name), 'utf8')) as Workflow;

const llm = (id: string, role: 'plan' | 'judge' | 'synthesize' = 'plan'): WorkflowNode => ({
  id,
  kind: 'llm',
  role,
  prompt: 'x {{query}}',
  output:
    role === 'judge'
      ? { type: 'json', schema: { type: 'object', properties: { go: {}, route: {} } } }
      : { type: 'text' },
});
const tool = (id: string, tools: string[], extra: Partial<WorkflowNode> = {}): WorkflowNode =>
  ({ id, kind: 'tool', task: id, tools, ...extra }) as WorkflowNode;
const edge = (from: string, to: string, when?: Edge['when']): Edge => ({
  from,
  to,
  kind: 'data',
  ...(when ? { when } : {}),
});
const workflow = (nodes: WorkflowNode[], edges: Edge[]): Workflow => ({ version: 1, name: 'w', nodes, edges });
const tree = (w: Workflow, anyTool?: string[]) => formatProcessTree(workflowProcessTree(w, anyTool ? { anyTool } : {}));
const fits = (w: Workflow, runs: string[][]) => {
  const a = new TreeAligner(workflowProcessTree(w));
  return runs.map((r) => a.align(r).cost);
};

describe('workflowProcessTree', () => {
  it('reads the graphs of the bundled example workflows', () => {
    expect(tree(fixture('valid/linear.json'))).toBe('get_current_weather');
    expect(tree(fixture('valid/conditional-branch.json'))).toBe(
      "->( 'get_current_weather', X( 'get_forecast', tau ) )",
    );
    expect(tree(fixture('valid/calls-many.json'))).toBe("*( tau, 'get_current_weather' )");
    // Positions that name no tool accept any tool of the log; parallel positions interleave.
    expect(tree(fixture('valid/parallel.json'), ['quote', 'news'])).toBe(
      "+( X( 'quote', 'news' ), X( 'quote', 'news' ) )",
    );
    expect(tree(fixture('valid/retry.json'), ['search'])).toBe("*( 'search', tau )");
  });

  it('makes a routed workflow a choice among its routes and the fallback, and gives each route its own tree', () => {
    const route = (value: string) => ({ kind: 'field' as const, field: 'route', op: 'eq' as const, value });
    const w = workflow(
      [
        llm('plan'),
        llm('route', 'judge'),
        tool('a1', ['a']),
        tool('a2', ['b']),
        tool('o1', ['c', 'd'], { calls: 'many' }),
        llm('answer', 'synthesize'),
      ],
      [
        edge('plan', 'route'),
        edge('route', 'a1', route('route_1')),
        edge('a1', 'a2'),
        edge('route', 'o1', route('other')),
        edge('a1', 'answer'),
        edge('a2', 'answer'),
        edge('o1', 'answer'),
      ],
    );
    expect(tree(w)).toBe("X( ->( 'a', 'b' ), *( tau, X( 'c', 'd' ) ) )");
    expect(workflowRoutes(w)).toEqual(['route_1']);
    expect(formatProcessTree(workflowProcessTree(w, { route: 'route_1' }))).toBe("->( 'a', 'b' )");
    expect(fits(w, [['a', 'b'], ['c', 'd', 'c'], [], ['a', 'c']])).toEqual([0, 0, 0, 1]);
  });

  it('makes a judge-gated step and a status fallback optional, and keeps unguarded fan-out parallel', () => {
    const w = workflow(
      [
        llm('plan'),
        tool('first', ['search']),
        tool('fallback', ['backup']),
        llm('judge', 'judge'),
        tool('extra', ['details']),
        tool('left', ['l']),
        tool('right', ['r']),
        llm('answer', 'synthesize'),
      ],
      [
        edge('plan', 'first'),
        edge('first', 'fallback', { kind: 'status', status: 'error' }),
        edge('first', 'judge'),
        edge('fallback', 'judge'),
        edge('judge', 'extra', { kind: 'field', field: 'go', op: 'truthy' }),
        edge('judge', 'left'),
        edge('extra', 'left'),
        edge('judge', 'right'),
        edge('extra', 'right'),
        edge('left', 'answer'),
        edge('right', 'answer'),
      ],
    );
    expect(tree(w)).toBe("->( 'search', X( 'backup', tau ), X( 'details', tau ), +( 'l', 'r' ) )");
    expect(
      fits(w, [
        ['search', 'r', 'l'],
        ['search', 'backup', 'details', 'l', 'r'],
        ['search', 'details'],
      ]),
    ).toEqual([0, 0, 2]);
  });

  it('reads a graph that is not series-parallel as its first nodes before the rest, keeping its runs', () => {
    // a → c, b → c, b → d: the "N" order.
    const w = workflow(
      [
        llm('plan'),
        tool('a', ['a']),
        tool('b', ['b']),
        tool('c', ['c']),
        tool('d', ['d']),
        llm('answer', 'synthesize'),
      ],
      [
        edge('plan', 'a'),
        edge('plan', 'b'),
        edge('a', 'c'),
        edge('b', 'c'),
        edge('b', 'd'),
        edge('c', 'answer'),
        edge('d', 'answer'),
      ],
    );
    expect(tree(w)).toBe("->( +( 'a', 'b' ), +( 'c', 'd' ) )");
    // The runtime's order (topological, ties by id) fits.
    expect(fits(w, [['a', 'b', 'c', 'd']])).toEqual([0]);
  });

  it('reads the searched Travel workflow: every tool position in order, each a choice of its mined tools', () => {
    const t = workflowProcessTree(fixture('searched/travel-best.workflow.json'));
    const printed = formatProcessTree(t);
    expect(printed.startsWith('->(')).toBe(true);
    expect(printed).toContain('auto_suggest_for_priceline_com_provider');
    expect(new TreeAligner(t).cheapestRun()).toBeGreaterThan(0);
  });
});
