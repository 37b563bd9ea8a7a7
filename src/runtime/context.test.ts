import { describe, expect, it } from 'vitest';
import type { NodeInput } from '../policies/types.js';
import { renderContext } from './context.js';

const llm = (nodeId: string, output: string): NodeInput => ({
  nodeId,
  kind: 'llm',
  role: 'extract',
  output,
  status: 'ok',
});
const tool = (nodeId: string, output: unknown): NodeInput => ({
  nodeId,
  kind: 'tool',
  status: 'ok',
  output: [{ tool: 't', args: { k: 1 }, status: 'ok', output }],
});

describe('renderContext', () => {
  it('renders the query and each input section in the given order', () => {
    expect(renderContext('q?', [llm('e', 'facts'), tool('t1', { a: 1 })], 1000)).toBe(
      'Query: q?\n\n[e] (llm extract)\nfacts\n\n[t1] (tool, ok)\nt {"k":1} → {"a":1}',
    );
  });

  it('fits the budget, gives short sections their full text and shares the rest', () => {
    const text = renderContext(
      'query',
      [llm('short', 'tiny'), llm('long1', 'a'.repeat(3000)), llm('long2', 'b'.repeat(3000))],
      1000,
    );
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text).toContain('[short] (llm extract)\ntiny');
    const a = /a{10,}/.exec(text)![0].length;
    const b = /b{10,}/.exec(text)![0].length;
    expect(Math.abs(a - b)).toBeLessThan(5);
    expect(text).toMatch(/truncated \d+ chars/);
  });

  it('cuts a huge query when it alone exceeds the budget', () => {
    expect(renderContext('x'.repeat(10_000), [], 200).length).toBeLessThanOrEqual(200);
  });
});
