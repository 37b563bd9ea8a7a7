import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mockModel, userText } from '../../test/support/mock-model.js';
import { makeLlmNode, PROMPT_TEMPLATES } from '../graph/prompt-templates.js';
import type { LlmNode, Workflow } from '../graph/schema.js';
import { SYNTHESIZE_DIRECTIVES } from '../graph/synthesize-variants.js';
import { validateWorkflow } from '../graph/validate.js';
import { createLlmClient } from '../llm/client.js';
import { createLlmPolicy } from './llm-policy.js';
import { renderInputs } from './llm-prompts.js';
import { createOfflinePolicy } from './offline/offline-policy.js';
import type { LlmNodeRequest, NodeInput } from './types.js';

// What a model reads of an LLM node's structured fields (question, choices, directives), through the
// LLM policy and the AI SDK's mock model; and workflows written before the fields, which keep running.

const query = 'Weather in Paris tomorrow?';
const inputs: NodeInput[] = [
  {
    nodeId: 'lookup',
    kind: 'tool',
    status: 'ok',
    output: [{ tool: 'forecast', args: { city: 'Paris' }, status: 'ok', output: { temp_c: 21 } }],
  },
];
const request = (node: LlmNode, workflow?: Workflow): LlmNodeRequest => ({
  query,
  node,
  workflow: workflow ?? { version: 1, name: 'w', nodes: [node], edges: [] },
  inputs,
  context: query,
  scratch: new Map(),
});

/** The user text the LLM policy sends for `node`. */
async function sent(node: LlmNode, reply: { text: string } | { json: unknown }): Promise<string> {
  const model = mockModel([reply]);
  const client = createLlmClient({ model, spec: 'mock:model', env: {}, sleep: async () => {}, timeoutMs: 2000 });
  await createLlmPolicy({ client, tools: [] }).runLlmNode(request(node));
  return userText(model.doGenerateCalls[0]!);
}

describe('a node rendered for a model from its fields', () => {
  it("sends a synthesizer's directive sentences, in its order, after its prompt", async () => {
    const node: LlmNode = { ...makeLlmNode('synthesize', 'answer'), directives: ['results-only', 'brief'] };
    const text = await sent(node, { text: 'It will be 21 °C.' });
    const tail = [`- ${SYNTHESIZE_DIRECTIVES['results-only'].sentence}`, `- ${SYNTHESIZE_DIRECTIVES.brief.sentence}`];
    expect(text.endsWith(tail.join('\n'))).toBe(true);
    expect(text).toContain(`Request: ${query}`);
    expect(text).toContain('"temp_c":21');
  });

  it("sends a judge's question and a router's choices", async () => {
    const judge = makeLlmNode('judge', 'gate', { field: 'needed', question: 'Does the request ask about tomorrow?' });
    expect(await sent(judge, { json: { needed: true } })).toContain(
      'Answer one yes/no question about this request: Does the request ask about tomorrow?',
    );
    const router: LlmNode = {
      ...makeLlmNode('judge', 'route', {
        prompt: 'Pick the route for {{query}}:\n\n{{choices}}',
        output: {
          type: 'json',
          schema: {
            type: 'object',
            properties: { route: { type: 'string', enum: ['r1', 'other'] } },
            required: ['route'],
          },
        },
      }),
      choices: {
        field: 'route',
        options: [{ value: 'r1', tools: ['forecast'], about: 'Forecasts' }],
        otherwise: 'other',
      },
    };
    const text = await sent(router, { json: { route: 'r1' } });
    expect(text).toContain('- r1: calls forecast. About: Forecasts.\n- other: none of the above.');
    expect(text).not.toContain('{{');
  });
});

describe('a workflow written before the fields (route table, question or directive sentences in its prompt text)', () => {
  const file = new URL('../../test/fixtures/workflows/searched/travel-best.workflow.json', import.meta.url);
  const old = JSON.parse(readFileSync(file, 'utf8')) as Workflow;
  const synth = old.nodes.find((n) => n.id === 'synthesize') as LlmNode;

  it('still validates, and a model reads its synthesize prompt as written', async () => {
    expect(validateWorkflow(old)).toEqual([]);
    expect(synth.directives).toBeUndefined();
    const text = await sent(synth, { text: 'It will be 21 °C.' });
    expect(text).toContain('Follow these instructions:');
    expect(text).toContain(`- ${SYNTHESIZE_DIRECTIVES['plain-words'].sentence}`);
    // Its own text, as it was always sent: only the request and the results filled in.
    const results = renderInputs({ inputs, context: query });
    expect(text).toBe(synth.prompt.replace('{{query}}', query).replace('{{inputs}}', results));
  });

  it('runs offline, its synthesizer deciding without the sentences (as the role template does)', async () => {
    const policy = createOfflinePolicy({ tools: [] });
    const answer = (node: LlmNode) => policy.runLlmNode(request(node, old)).then((r) => r.output);
    const asTemplate = await answer({ ...synth, prompt: PROMPT_TEMPLATES.synthesize });
    expect(await answer(synth)).toBe(asTemplate);
    // With the same directives as a field, it writes as they ask.
    expect(await answer({ ...synth, directives: ['results-only', 'one-fact-per-line'] })).not.toBe(asTemplate);
  });
});
