import {
  trace as otelTrace,
  type Attributes,
  type AttributeValue,
  type Context,
  type Span,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type Tracer,
} from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { createToolRegistry } from '../tools/registry.js';
import { executeWorkflow } from './execute.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';

interface Recorded {
  name: string;
  attributes: Attributes;
  status?: SpanStatus;
  parent?: string;
  spanId: string;
  ended: boolean;
}

/** A Tracer that keeps spans in memory, written against the @opentelemetry/api interface only. */
function memoryTracer(): Tracer & { spans: Recorded[] } {
  const spans: Recorded[] = [];
  let next = 1;
  const startSpan = (name: string, options?: SpanOptions, ctx?: Context): Span => {
    const rec: Recorded = {
      name,
      attributes: { ...(options?.attributes ?? {}) },
      spanId: String(next++).padStart(16, '0'),
      ended: false,
    };
    const parent = ctx ? otelTrace.getSpan(ctx) : undefined;
    if (parent) rec.parent = parent.spanContext().spanId;
    spans.push(rec);
    const spanContext: SpanContext = { traceId: '1'.repeat(32), spanId: rec.spanId, traceFlags: 1 };
    const span: Span = {
      spanContext: () => spanContext,
      setAttribute: (k: string, v: AttributeValue) => ((rec.attributes[k] = v), span),
      setAttributes: (a: Attributes) => (Object.assign(rec.attributes, a), span),
      addEvent: () => span,
      addLink: () => span,
      addLinks: () => span,
      setStatus: (s: SpanStatus) => ((rec.status = s), span),
      updateName: (n: string) => ((rec.name = n), span),
      end: () => void (rec.ended = true),
      isRecording: () => !rec.ended,
      recordException: () => undefined,
    };
    return span;
  };
  return {
    spans,
    startSpan,
    startActiveSpan: ((name: string, ...rest: unknown[]) => {
      const fn = rest[rest.length - 1] as (s: Span) => unknown;
      return fn(startSpan(name, (rest.length > 1 ? rest[0] : undefined) as SpanOptions | undefined));
    }) as Tracer['startActiveSpan'],
  };
}

const workflow: Workflow = {
  version: 1,
  name: 'weather',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'plan', output: { type: 'text' } },
    { id: 'fetch', kind: 'tool', task: 'get the weather', tools: ['get_weather'] },
    { id: 'broken', kind: 'tool', task: 'fails', tools: ['broken'] },
    {
      id: 'synth',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'answer',
      output: { type: 'text' },
      model: 'openai:gpt-4o-mini',
    },
  ],
  edges: [
    { from: 'plan', to: 'fetch', kind: 'data' },
    { from: 'plan', to: 'broken', kind: 'data' },
    { from: 'fetch', to: 'synth', kind: 'data' },
    { from: 'broken', to: 'synth', kind: 'data' },
  ],
};

describe('OpenTelemetry spans', () => {
  it('emits one invoke_agent span per run and one GenAI span per node, with usage', async () => {
    const tracer = memoryTracer();
    const tools = createToolRegistry([
      {
        name: 'get_weather',
        description: 'w',
        inputSchema: { type: 'object', properties: {} },
        execute: async () => 'sunny',
      },
      {
        name: 'broken',
        description: 'b',
        inputSchema: { type: 'object', properties: {} },
        execute: async () => {
          throw new Error('down');
        },
      },
    ]);
    const policy = createScriptedPolicy({
      llm: (req) => ({
        output: 'ok',
        model: req.node.model ?? 'test:small',
        usage: { llmCalls: 1, inputTokens: 10, outputTokens: 3, costUsd: 0 },
      }),
    });
    await executeWorkflow(workflow, { query: 'q', recordId: 'r1' }, { policy, tools, tracer, concurrency: 1 });
    const [run, ...nodes] = tracer.spans;
    expect(run).toMatchObject({
      name: 'invoke_agent weather',
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.usage.input_tokens': 20,
        'gen_ai.usage.output_tokens': 6,
        'flowscout.record.id': 'r1',
      },
      ended: true,
    });
    expect(nodes.map((s) => s.name)).toEqual([
      'chat test:small',
      'execute_tool broken',
      'execute_tool get_weather',
      'chat openai:gpt-4o-mini',
    ]);
    expect(nodes.every((s) => s.parent === run!.spanId && s.ended)).toBe(true);
    expect(nodes[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'test:small',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(nodes[2]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'flowscout.node.status': 'ok',
    });
    expect(nodes[1]!.status).toMatchObject({ code: 2, message: "broken: 'broken' failed: down" });
  });
});
