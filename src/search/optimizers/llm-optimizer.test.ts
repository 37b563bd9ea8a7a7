import { describe, expect, it } from 'vitest';
import { mockModel, roles, userText } from '../../../test/support/mock-model.js';
import type { Workflow } from '../../graph/schema.js';
import { createLlmClient } from '../../llm/client.js';
import { createRandom } from '../../util/random.js';
import type { Feedback } from '../../evaluate/feedback-types.js';
import { noToolNodes } from '../search-context.js';
import { createLlmOptimizer } from './llm-optimizer.js';
import { OptimizerError } from './optimizer-error.js';

const workflow: Workflow = {
  version: 1,
  name: 'w',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan {{query}}', output: { type: 'text' } },
    {
      id: 'reason',
      kind: 'llm',
      role: 'reason',
      prompt: 'Reason about {{query}} with {{inputs}}',
      output: { type: 'text' },
    },
    {
      id: 'synthesize',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'Answer {{query}} from {{inputs}}',
      output: { type: 'text' },
    },
  ],
  edges: [
    { from: 'plan', to: 'reason', kind: 'data' },
    { from: 'reason', to: 'synthesize', kind: 'data' },
  ],
};
const feedback: Feedback = {
  records: 4,
  reward: 0.3,
  tc: 0.2,
  es: 0.4,
  patterns: [],
  worst: [],
  nodes: [],
  text: 'Scores on 4 records: reward 0.300. Problems found: answers miss the dates.',
};
const tools = [
  {
    name: 'lookup',
    description: 'Looks up a value.',
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  },
];

const BAD = { summary: 'drop the plan', edits: [{ op: 'remove_node', id: 'plan' }] };
const GOOD = {
  summary: 'stress the dates',
  edits: [{ op: 'set_prompt', id: 'synthesize', prompt: 'Answer {{query}} from {{inputs}}; give every date.' }],
};
const TOOL = {
  summary: 'add a lookup',
  edits: [{ op: 'add_node', node: { kind: 'tool', id: 'look', task: 'look it up' }, from: ['plan'], to: ['reason'] }],
};

/** The optimizer over a mock model at the AI SDK contract; `model.doGenerateCalls` are the structured requests it sent. */
function optimizer(replies: unknown[]) {
  const model = mockModel(replies.map((r) => (typeof r === 'string' ? { text: r } : { json: r })));
  return {
    opt: createLlmOptimizer({ client: createLlmClient({ model, spec: 'mock:model', env: {}, maxRetries: 0 }) }),
    model,
  };
}

const input = { workflow, feedback, siblings: ['set_prompt reason: shorter'], tools, random: createRandom(1) };

describe('LLM optimizer', () => {
  it('asks with the workflow, the feedback, the tools, the templates, the siblings and the edit-plan schema, as structured output', async () => {
    const { opt, model } = optimizer([GOOD]);
    const p = await opt.propose(input);
    expect(p.summary).toBe('stress the dates');
    expect(p.repaired).toBeUndefined();
    expect(p.workflow.nodes.find((n) => n.id === 'synthesize')).toMatchObject({
      prompt: 'Answer {{query}} from {{inputs}}; give every date.',
    });
    expect(model.doGenerateCalls).toHaveLength(1);
    const call = model.doGenerateCalls[0]!;
    // Structured output: the edit-plan JSON schema as the response format, with every edit op; no tools offered.
    expect(call.responseFormat).toMatchObject({ type: 'json', name: 'edit_plan' });
    expect(JSON.stringify((call.responseFormat as { schema?: unknown }).schema)).toContain('"add_branch"');
    expect(call.tools ?? []).toEqual([]);
    expect(roles(call).at(-1)).toBe('user');
    // The caller's data reaches the request: the workflow, the feedback, the tools, the role templates, the siblings.
    const prompt = call.prompt
      .map((m) => (typeof m.content === 'string' ? m.content : userText({ ...call, prompt: [m] })))
      .join('\n');
    for (const part of [
      '"id":"reason"',
      feedback.text,
      `lookup: ${tools[0]!.description}`,
      'synthesize: Answer the request using the tool results below.',
      input.siblings[0]!,
    ]) {
      expect(prompt).toContain(part);
    }
  });

  it('repairs an invalid plan once, sending back the exact problem', async () => {
    const { opt, model } = optimizer([BAD, GOOD]);
    const p = await opt.propose(input);
    expect(p.repaired).toBe(true);
    expect(p.summary).toBe('stress the dates');
    expect(model.doGenerateCalls).toHaveLength(2);
    const repairCall = model.doGenerateCalls[1]!;
    expect(repairCall.responseFormat).toMatchObject({ type: 'json', name: 'edit_plan' });
    const repair = userText(repairCall);
    expect(repair).toContain(
      "edit 1 of 1 (remove_node 'plan'): 'plan' is the entry of the workflow and cannot be removed",
    );
  });

  it('gives up after the repair round with an OptimizerError naming the last problem', async () => {
    const { opt, model } = optimizer(['this is not json', BAD]);
    const err = await opt.propose(input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OptimizerError);
    expect((err as OptimizerError).message).toMatch(
      /invalid after one repair round: edit 1 of 1 \(remove_node 'plan'\)/,
    );
    expect((err as OptimizerError).plans).toHaveLength(2);
    expect(model.doGenerateCalls).toHaveLength(2);
    // The repair request carries the unusable answer back to the model.
    expect(userText(model.doGenerateCalls[1]!)).toContain('this is not json');
  });

  it('treats a plan that breaks the variant constraint as invalid', async () => {
    const { opt, model } = optimizer([TOOL, GOOD]);
    const p = await opt.propose({ ...input, constraint: noToolNodes, toolNodesAllowed: false });
    expect(p.repaired).toBe(true);
    expect(p.summary).toBe('stress the dates');
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(userText(model.doGenerateCalls[1]!)).toContain(
      'tool nodes are forbidden in the LLM-only variant (found: look)',
    );
  });
});
