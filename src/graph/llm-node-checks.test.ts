import { describe, expect, it } from 'vitest';
import { workflowHash } from './hash.js';
import type { LlmNode, Workflow } from './schema.js';
import { validateWorkflow } from './validate.js';

// The structured fields of LLM nodes (question, choices, directives) under Valid(G, T).

const TOOLS = ['search_flights', 'flight_status', 'search_hotels'];

const router = (over: Partial<LlmNode> = {}): LlmNode => ({
  id: 'route',
  kind: 'llm',
  role: 'judge',
  prompt: 'Pick one for {{query}}:\n{{choices}}',
  output: {
    type: 'json',
    schema: {
      type: 'object',
      properties: { route: { type: 'string', enum: ['route_1', 'route_2', 'other'] } },
      required: ['route'],
    },
  },
  choices: {
    field: 'route',
    options: [
      { value: 'route_1', tools: ['search_flights', 'flight_status'], about: 'Flights', asks: ['flights'] },
      { value: 'route_2', tools: ['search_hotels'] },
    ],
    otherwise: 'other',
  },
  ...over,
});

const routed = (r: LlmNode = router(), answer: Partial<LlmNode> = {}): Workflow => ({
  version: 1,
  name: 'routed',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
    r,
    { id: 'flights', kind: 'tool', task: 'Flights', tools: ['search_flights'] },
    { id: 'hotels', kind: 'tool', task: 'Hotels', tools: ['search_hotels'] },
    { id: 'any', kind: 'tool', task: 'Anything' },
    {
      id: 'answer',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'Answer {{query}} from {{inputs}}',
      output: { type: 'text' },
      ...answer,
    },
  ],
  edges: [
    { from: 'plan', to: 'route', kind: 'data' },
    { from: 'route', to: 'flights', kind: 'data', when: { kind: 'field', field: 'route', op: 'eq', value: 'route_1' } },
    { from: 'route', to: 'hotels', kind: 'data', when: { kind: 'field', field: 'route', op: 'eq', value: 'route_2' } },
    { from: 'route', to: 'any', kind: 'data', when: { kind: 'field', field: 'route', op: 'eq', value: 'other' } },
    { from: 'flights', to: 'answer', kind: 'data' },
    { from: 'hotels', to: 'answer', kind: 'data' },
    { from: 'any', to: 'answer', kind: 'data' },
  ],
});

/** The problems as `flowscout validate` prints them, against T (`TOOLS`) or, with `'no tools'`, without it. */
const problems = (w: unknown, tools: string[] | 'no tools' = TOOLS) =>
  validateWorkflow(w, tools === 'no tools' ? undefined : tools).map((p) => `[${p.code}] ${p.path}: ${p.message}`);

describe('choices of a judge', () => {
  it('accepts a router whose options match its output, its guards and T, and a synthesizer with known directives', () => {
    expect(problems(routed(router(), { directives: ['results-only', 'brief'] }))).toEqual([]);
  });
  it('names a guard value no choice has, a value outside the enum, a value listed twice and a tool not in T', () => {
    const w = routed(
      router({
        choices: {
          field: 'route',
          options: [
            { value: 'route_1', tools: ['search_flight'] },
            { value: 'route_1', tools: [] },
          ],
          otherwise: 'none',
        },
      }),
    );
    expect(problems(w)).toMatchInlineSnapshot(`
      [
        "[choices] $.nodes[1].choices.options[1].value: the value 'route_1' is listed twice in the choices of node 'route'; give each branch its own value",
        "[choices] $.nodes[1].choices.otherwise: 'none' is not one of the values the field 'route' of node 'route' may take (route_1, route_2, other); add it to the field's enum or use one of those",
        "[unknown-tool] $.nodes[1].choices.options[0].tools[0]: tool 'search_flight' of option 'route_1' of node 'route' is not available; did you mean 'search_flights'? available: flight_status, search_flights, search_hotels",
        "[choices] $.edges[2].when.value: the edge route → hotels tests 'route' eq "route_2", which is none of the choices of node 'route' (route_1, route_1, none); test one of those or add an option for it",
        "[choices] $.edges[3].when.value: the edge route → any tests 'route' eq "other", which is none of the choices of node 'route' (route_1, route_1, none); test one of those or add an option for it",
      ]
    `);
    // Without T, the tools are not checked.
    expect(problems(w, 'no tools').some((p) => p.startsWith('[unknown-tool]'))).toBe(false);
  });
  it('names choices on a field the output does not declare, on a text node and on a node that is not a judge', () => {
    const undeclared = router();
    undeclared.choices = { ...undeclared.choices!, field: 'branch' };
    expect(problems(routed(undeclared))).toEqual([
      "[choices] $.nodes[1].choices.field: node 'route' does not declare the field 'branch' its choices answer in (declared: route); declare it as a string in its output schema",
    ]);
    const verify = routed();
    verify.nodes[1] = { ...router(), role: 'verify', output: { type: 'text' } };
    verify.edges = verify.edges.map(({ when: _when, ...e }) => e);
    expect(problems(verify)).toEqual([
      `[choices] $.nodes[1].choices: node 'route' is an llm node with role "verify", and only a judge picks a branch; remove "choices" or make the node a judge`,
      `[choices] $.nodes[1].choices.field: node 'route' has text output, so it cannot answer 'route'; give it output {"type": "json", "schema": …} declaring 'route' as a string`,
    ]);
  });
  it('refuses words with digits or capitals in an option (a value of a record is never one)', () => {
    const r = router();
    r.choices!.options[0]!.asks = ['flights', 'w6390527', 'Paris'];
    expect(problems(routed(r))).toEqual([
      '[schema] $.nodes[1].choices.options[0].asks[1]: must be a lower-case word without digits (words requests use, never an identifier or a value)',
      '[schema] $.nodes[1].choices.options[0].asks[2]: must be a lower-case word without digits (words requests use, never an identifier or a value)',
    ]);
  });
});

describe('placeholders of node fields', () => {
  it('accepts {{question}} and {{choices}} only on a node that has the field', () => {
    const noChoices = router({ prompt: 'Pick one for {{query}}: {{question}}\n{{choices}}' });
    delete noChoices.choices;
    expect(problems(routed(noChoices), 'no tools')).toEqual([
      `[prompt-placeholder] $.nodes[1].prompt: prompt of node 'route' uses {{question}}, which the node's "question" field fills, but the node has no "question"; give it one or write the text in its place`,
      `[prompt-placeholder] $.nodes[1].prompt: prompt of node 'route' uses {{choices}}, which the node's "choices" field fills, but the node has no "choices"; give it one or write the text in its place`,
    ]);
    expect(
      problems(routed(router({ prompt: 'Pick one for {{query}}: {{question}}\n{{choices}}', question: 'Which?' }))),
    ).toEqual([]);
  });
  it('names a question on a node that is not a judge', () => {
    expect(problems(routed(router(), { question: 'Why?' }))).toEqual([
      `[question] $.nodes[5].question: node 'answer' is an llm node with role "synthesize", and only a judge answers a question; remove "question" or make the node a judge`,
    ]);
  });
});

describe('directives of a synthesizer', () => {
  it('names an unknown directive, a repeated one, and directives on a node that is not a synthesizer', () => {
    expect(problems(routed(router(), { directives: ['brief', 'short', 'brief'] }))).toMatchInlineSnapshot(`
      [
        "[directives] $.nodes[5].directives[1]: 'short' is not a directive of the template library; use one of answer-first, results-only, every-result, answered-only, failures-brief, one-fact-per-line, all-figures, brief, plain-words",
        "[directives] $.nodes[5].directives[2]: the directive 'brief' is listed twice at node 'answer'; keep one (the order says which of two directives wins)",
      ]
    `);
    const w = routed();
    (w.nodes[0] as LlmNode).directives = ['brief'];
    expect(problems(w)).toEqual([
      `[directives] $.nodes[0].directives: node 'plan' is an llm node with role "plan", and directives say how a synthesizer writes the answer; remove "directives" or make the node a synthesizer`,
    ]);
  });
});

describe('the hash of the structured fields', () => {
  it('changes with a question, an option, the order of options or of directives, and not with an empty directive list', () => {
    const base = routed();
    const h = workflowHash(base);
    const withQuestion = structuredClone(base);
    (withQuestion.nodes[1] as LlmNode).question = 'Which route?';
    const reordered = structuredClone(base);
    (reordered.nodes[1] as LlmNode).choices!.options.reverse();
    const otherTools = structuredClone(base);
    (otherTools.nodes[1] as LlmNode).choices!.options[1]!.tools = ['flight_status'];
    const hashes = [withQuestion, reordered, otherTools].map(workflowHash);
    expect(new Set([h, ...hashes]).size).toBe(4);
    const d1 = workflowHash(routed(router(), { directives: ['brief', 'plain-words'] }));
    const d2 = workflowHash(routed(router(), { directives: ['plain-words', 'brief'] }));
    expect(d1).not.toBe(d2);
    expect(workflowHash(routed(router(), { directives: [] }))).toBe(h);
  });
});
