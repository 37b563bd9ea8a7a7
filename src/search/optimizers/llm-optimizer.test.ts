import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '../../../test/support/llm-server.js';
import type { Workflow } from '../../graph/schema.js';
import { createLlmClient } from '../../llm/client.js';
import { resolveModel } from '../../llm/resolve-model.js';
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
    { id: 'reason', kind: 'llm', role: 'reason', prompt: 'Reason about {{query}} with {{inputs}}', output: { type: 'text' } },
    { id: 'synthesize', kind: 'llm', role: 'synthesize', prompt: 'Answer {{query}} from {{inputs}}', output: { type: 'text' } },
  ],
  edges: [
    { from: 'plan', to: 'reason', kind: 'data' },
    { from: 'reason', to: 'synthesize', kind: 'data' },
  ],
};
const feedback: Feedback = { records: 4, reward: 0.3, tc: 0.2, es: 0.4, patterns: [], worst: [], nodes: [], text: 'Scores on 4 records: reward 0.300. Problems found: answers miss the dates.' };
const tools = [{ name: 'lookup', description: 'Looks up a value.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }];

const BAD = { summary: 'drop the plan', edits: [{ op: 'remove_node', id: 'plan' }] };
const GOOD = { summary: 'stress the dates', edits: [{ op: 'set_prompt', id: 'synthesize', prompt: 'Answer {{query}} from {{inputs}}; give every date.' }] };
const TOOL = { summary: 'add a lookup', edits: [{ op: 'add_node', node: { kind: 'tool', id: 'look', task: 'look it up' }, from: ['plan'], to: ['reason'] }] };

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function optimizer(replies: unknown[]) {
  server = await startTestLlmServer({ script: replies.map((r) => (typeof r === 'string' ? { text: r } : { json: r })) });
  const model = await resolveModel(server.spec(), { env: {} });
  return createLlmOptimizer({ client: createLlmClient({ model, env: {}, maxRetries: 0 }) });
}

const input = { workflow, feedback, siblings: ['set_prompt reason: shorter'], tools, random: createRandom(1) };

describe('LLM optimizer', () => {
  it('asks with the workflow, the feedback, the tools, the templates, the siblings and the edit-plan schema, as structured output', async () => {
    const opt = await optimizer([GOOD]);
    const p = await opt.propose(input);
    expect(p.summary).toBe('stress the dates');
    expect(p.repaired).toBeUndefined();
    expect(p.workflow.nodes.find((n) => n.id === 'synthesize')).toMatchObject({ prompt: 'Answer {{query}} from {{inputs}}; give every date.' });
    const body = server!.requests[0]!.body;
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'edit_plan' } });
    const prompt = body.messages.map((m: { content: string }) => m.content).join('\n');
    for (const part of ['"id":"reason"', 'answers miss the dates', '- lookup: Looks up a value.', '- synthesize: Answer the request using the tool results below.', '- set_prompt reason: shorter', '"add_branch"', '## How tool nodes get their part of the request', 'a node\'s "mined" tools and its "tools" hint']) {
      expect(prompt).toContain(part);
    }
  });

  it('repairs an invalid plan once, sending back the exact problem', async () => {
    const opt = await optimizer([BAD, GOOD]);
    const p = await opt.propose(input);
    expect(p.repaired).toBe(true);
    expect(p.summary).toBe('stress the dates');
    const repair = server!.requests[1]!.body.messages.map((m: { content: string }) => m.content).join('\n');
    expect(repair).toContain('## Why it cannot be applied');
    expect(repair).toContain("edit 1 of 1 (remove_node 'plan'): 'plan' is the entry of the workflow and cannot be removed");
  });

  it('gives up after the repair round with an OptimizerError naming the last problem', async () => {
    const opt = await optimizer(['this is not json', BAD]);
    const err = await opt.propose(input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OptimizerError);
    expect((err as OptimizerError).message).toMatch(/invalid after one repair round: edit 1 of 1 \(remove_node 'plan'\)/);
    expect((err as OptimizerError).plans).toHaveLength(2);
    expect(server!.requests[1]!.body.messages.map((m: { content: string }) => m.content).join('\n')).toMatch(/not a usable JSON object/);
  });

  it('treats a plan that breaks the variant constraint as invalid', async () => {
    const opt = await optimizer([TOOL, GOOD]);
    const p = await opt.propose({ ...input, constraint: noToolNodes, toolNodesAllowed: false });
    expect(p.repaired).toBe(true);
    const first = server!.requests[0]!.body.messages.map((m: { content: string }) => m.content).join('\n');
    expect(first).toContain('Tool nodes are forbidden in this search');
    expect(server!.requests[1]!.body.messages.map((m: { content: string }) => m.content).join('\n')).toContain('tool nodes are forbidden in the LLM-only variant (found: look)');
  });
});
