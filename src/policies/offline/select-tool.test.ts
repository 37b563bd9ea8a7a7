import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { ToolNode, Workflow } from '../../graph/schema.js';
import { focusSpans, rankTools } from './select-tool.js';
import { MAX_REQUEST_PARTS, requestClauses } from '../../text/clauses.js';
import { createToolIndex, type ToolIndex } from '../../retrieval/tool-index.js';

const tools: ToolDescriptor[] = ['weather', 'forecast', 'tides', 'pollen'].map((t) => ({
  name: `get_${t}`,
  description: `The ${t} of a city.`,
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
}));

/** An index that counts the texts it is asked to rank. */
function counting(): { index: ToolIndex; ranked: () => number } {
  const inner = createToolIndex(tools);
  let n = 0;
  return { index: { rank: (text, c) => (n++, inner.rank(text, c)) }, ranked: () => n };
}

describe('focusSpans over a long request', () => {
  it('ranks each clause once per request (at most MAX_REQUEST_PARTS), not once per clause per call', () => {
    const cities = ['Oslo', 'Lima', 'Paris', 'Rome', 'Cairo'];
    const query = Array.from(
      { length: 200 },
      (_, i) => `Then get the ${['weather', 'forecast', 'tides', 'pollen'][i % 4]} of ${cities[i % 5]}.`,
    ).join(' ');
    const clauses = requestClauses(query);
    expect(clauses.length).toBeGreaterThan(150);
    const { index, ranked } = counting();
    const names = tools.map((t) => t.name);
    // One call per clause, as a repeating position makes: before, every call ranked every clause (200 × 200).
    for (const clause of clauses) focusSpans(query, clause, 'get_tides', names, index);
    expect(ranked()).toBeLessThanOrEqual(MAX_REQUEST_PARTS);
  });

  it('keeps the call clause and the clause where the tool ranks best, as before', () => {
    const query = 'Get the weather of Oslo. Then get the tides of Lima. Finally get the pollen of Rome.';
    const { index } = counting();
    const names = tools.map((t) => t.name);
    const spans = focusSpans(query, 'Get the weather of Oslo', 'get_tides', names, index);
    expect(spans.map(([a, b]) => query.slice(a, b))).toEqual(['Get the weather of Oslo', 'get the tides of Lima']);
  });
});

const EMPTY: Workflow = { version: 1, name: 'empty', nodes: [], edges: [] };

describe('rankTools at a mined position', () => {
  const candidates: ToolDescriptor[] = ['get_a', 'get_b', 'get_c'].map((name) => ({
    name,
    description: name,
    inputSchema: { type: 'object' },
  }));
  const CLAUSE = 'the clause';
  const TASK = 'the task';
  /** BM25 scores given outright: the clause fits get_a best and get_b nearly as well; the task names get_b. */
  const index = (clause: Record<string, number>): ToolIndex => ({
    rank: (text) =>
      Object.entries(text === CLAUSE ? clause : text === TASK ? { get_b: 1 } : {})
        .map(([name, score]) => ({ name, score }))
        .sort((x, y) => y.score - x.score),
  });
  const pick = (node: Partial<ToolNode>, clause: Record<string, number>) =>
    rankTools(
      {
        node: { id: 'step_1', kind: 'tool', task: TASK, ...node },
        workflow: EMPTY,
        query: CLAUSE,
        clause: CLAUSE,
        candidates,
        previousTool: undefined,
      },
      index(clause),
    )[0]!.name;

  it('calls a tool the runs used at this position over one the clause fits a little better', () => {
    // Before, the position's own tools weighed 0.1 and the clause's first choice won.
    expect(pick({ task: 'unrelated', mined: ['get_b', 'get_c'] }, { get_a: 1, get_b: 0.8 })).toBe('get_b');
    // Without that record, the clause decides; and a clearly better fit still wins over the record.
    expect(pick({ task: 'unrelated' }, { get_a: 1, get_b: 0.8 })).toBe('get_a');
    expect(pick({ task: 'unrelated', mined: ['get_b', 'get_c'] }, { get_a: 1, get_b: 0.5 })).toBe('get_a');
  });

  it('does not let the task of a position that lists several tools pull towards the one tool it names', () => {
    // The position lists both tools; its task (written from one of them) named get_b and, before, won the tie for it.
    expect(pick({ mined: ['get_a', 'get_b'] }, { get_a: 1, get_b: 0.95 })).toBe('get_a');
    expect(pick({ tools: ['get_a', 'get_b'] }, { get_a: 1, get_b: 0.95 })).toBe('get_a');
    // A generic position has no list: its task still counts.
    expect(pick({}, { get_a: 1, get_b: 0.95 })).toBe('get_b');
  });

  it('lets a hint of the position about a tool break a near tie only where the position lists at most one tool', () => {
    const rank = (node: Partial<ToolNode>, previousTool?: string) =>
      rankTools(
        {
          node: { id: 'step_1', kind: 'tool', task: 'unrelated', ...node },
          workflow: EMPTY,
          query: CLAUSE,
          clause: CLAUSE,
          candidates,
          previousTool,
        },
        index({ get_a: 1, get_b: 0.95 }),
      )[0]!.name;
    const knowsB = { hints: [{ tool: 'get_b' }] };
    expect(rank({ mined: ['get_a', 'get_b'], ...knowsB })).toBe('get_a');
    expect(rank(knowsB)).toBe('get_b');
    expect(rank({})).toBe('get_a');
    // The tool the hint says usually follows the previous call wins the near tie too.
    expect(rank({ hints: [{ tool: 'get_b', follows: { get_c: 0.8 } }] }, 'get_c')).toBe('get_b');
  });

  it('weighs what follows the previous call by how often each tool was called: a rare tool that always opens a run is seldom the opener', () => {
    const rank = (hints: ToolNode['hints']) =>
      rankTools(
        {
          node: { id: 'step_1', kind: 'tool', task: 'unrelated', hints },
          workflow: EMPTY,
          query: CLAUSE,
          clause: CLAUSE,
          candidates,
          previousTool: undefined,
        },
        index({ get_a: 0.95, get_b: 1 }),
      )[0]!.name;
    const opener = (uses: number) => [
      { tool: 'get_a', uses: 40, follows: { '^': 0.7 } },
      { tool: 'get_b', uses, follows: { '^': 1 } },
    ];
    // get_b opened all of its 3 runs, get_a 28 of its 40: the run's first call is far likelier get_a.
    expect(rank(opener(3))).toBe('get_a');
    // Called as often as get_a, get_b is the likelier opener.
    expect(rank(opener(40))).toBe('get_b');
  });

  it('takes the tool the runs called far more often when the clause fits two tools about as well', () => {
    const rank = (hints: ToolNode['hints']) =>
      rankTools(
        {
          node: { id: 'step_1', kind: 'tool', task: 'unrelated', hints },
          workflow: EMPTY,
          query: CLAUSE,
          clause: CLAUSE,
          candidates,
          previousTool: undefined,
        },
        index({ get_a: 1, get_b: 0.9 }),
      )[0]!.name;
    expect(
      rank([
        { tool: 'get_b', uses: 30 },
        { tool: 'get_a', uses: 2 },
      ]),
    ).toBe('get_b');
    expect(
      rank([
        { tool: 'get_b', uses: 3 },
        { tool: 'get_a', uses: 2 },
      ]),
    ).toBe('get_a');
    expect(rank(undefined)).toBe('get_a');
  });
});
