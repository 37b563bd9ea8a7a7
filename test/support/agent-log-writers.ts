import type { TaskRecord } from '../../src/records/schema.js';
import type { ToolDescriptor } from '../../src/contracts/tools.js';

/**
 * Writes FlowScout records in the agent-log formats the importers read (test-only: the round-trip
 * test converts TRAJECT-Bench records to each format and imports them back). `parallel` puts all of
 * a record's calls in one assistant turn, as an agent calling independent tools at once does.
 */

type Json = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function toOpenai(r: TaskRecord, tools: readonly ToolDescriptor[], parallel: boolean): Json {
  const messages: Json[] = [
    { role: 'system', content: 'You are a helpful agent.' },
    { role: 'user', content: r.query },
  ];
  const turns = parallel ? [r.calls.map((c, i) => ({ c, i }))] : r.calls.map((c, i) => [{ c, i }]);
  for (const turn of turns) {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: turn.map(({ c, i }) => ({
        id: `call_${i}`,
        type: 'function',
        function: { name: c.tool, arguments: JSON.stringify(c.args) },
      })),
    });
    for (const { c, i } of turn) messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: text(c.output) });
  }
  messages.push({ role: 'assistant', content: r.reference });
  return {
    id: r.id,
    messages,
    tools: tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    })),
  };
}

export function toAnthropic(r: TaskRecord, tools: readonly ToolDescriptor[], parallel: boolean): Json {
  const messages: Json[] = [{ role: 'user', content: r.query }];
  const turns = parallel ? [r.calls.map((c, i) => ({ c, i }))] : r.calls.map((c, i) => [{ c, i }]);
  for (const turn of turns) {
    messages.push({
      role: 'assistant',
      content: turn.map(({ c, i }) => ({ type: 'tool_use', id: `toolu_${i}`, name: c.tool, input: c.args })),
    });
    messages.push({
      role: 'user',
      content: turn.map(({ c, i }) => ({
        type: 'tool_result',
        tool_use_id: `toolu_${i}`,
        content: text(c.output),
        ...(c.status === 'error' ? { is_error: true } : {}),
      })),
    });
  }
  messages.push({ role: 'assistant', content: [{ type: 'text', text: r.reference }] });
  return {
    id: r.id,
    system: 'You are a helpful agent.',
    messages,
    tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
  };
}

export function toAiSdk(r: TaskRecord, tools: readonly ToolDescriptor[], parallel: boolean): Json {
  const messages: Json[] = [{ role: 'user', content: [{ type: 'text', text: r.query }] }];
  const turns = parallel ? [r.calls.map((c, i) => ({ c, i }))] : r.calls.map((c, i) => [{ c, i }]);
  for (const turn of turns) {
    messages.push({
      role: 'assistant',
      content: turn.map(({ c, i }) => ({ type: 'tool-call', toolCallId: `tc${i}`, toolName: c.tool, input: c.args })),
    });
    messages.push({
      role: 'tool',
      content: turn.map(({ c, i }) => ({
        type: 'tool-result',
        toolCallId: `tc${i}`,
        toolName: c.tool,
        output: typeof c.output === 'string' ? { type: 'text', value: c.output } : { type: 'json', value: c.output },
      })),
    });
  }
  messages.push({ role: 'assistant', content: [{ type: 'text', text: r.reference }] });
  return {
    id: r.id,
    messages,
    tools: Object.fromEntries(tools.map((t) => [t.name, { description: t.description, inputSchema: t.inputSchema }])),
  };
}

const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** One OTLP/JSON export per record: GenAI `execute_tool` spans, or the AI SDK's `ai.toolCall` spans. */
export function toOtel(r: TaskRecord, index: number, flavour: 'genai' | 'ai-sdk'): Json {
  const traceId = (index + 1).toString(16).padStart(32, '0');
  const t0 = 1_733_040_000_000_000_000n + BigInt(index) * 10_000_000_000n;
  const ms = 1_000_000n;
  const n = BigInt(r.calls.length);
  const spans: Json[] = [];
  const root = (attrs: Json[]) => ({
    traceId,
    spanId: 'r'.padStart(16, '0'),
    name: flavour === 'genai' ? 'invoke_agent' : 'ai.generateText',
    startTimeUnixNano: String(t0),
    endTimeUnixNano: String(t0 + (n + 2n) * 100n * ms),
    attributes: attrs,
  });
  if (flavour === 'genai') {
    spans.push(
      root([
        attr('gen_ai.operation.name', 'invoke_agent'),
        attr('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: r.query }] }])),
        attr(
          'gen_ai.output.messages',
          JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: r.reference }] }]),
        ),
      ]),
    );
  } else {
    spans.push(
      root([
        attr('ai.operationId', 'ai.generateText'),
        attr('ai.prompt', JSON.stringify({ prompt: r.query })),
        attr('ai.response.text', r.reference),
      ]),
    );
  }
  // Listed last-first: the importer orders calls by start time.
  r.calls.forEach((c, i) => {
    const start = t0 + BigInt(i + 1) * 100n * ms;
    const attrs =
      flavour === 'genai'
        ? [
            attr('gen_ai.operation.name', 'execute_tool'),
            attr('gen_ai.tool.name', c.tool),
            attr('gen_ai.tool.call.id', `c${i}`),
            attr('gen_ai.tool.call.arguments', JSON.stringify(c.args)),
            attr('gen_ai.tool.call.result', text(c.output)),
          ]
        : [
            attr('ai.operationId', 'ai.toolCall'),
            attr('ai.toolCall.name', c.tool),
            attr('ai.toolCall.id', `c${i}`),
            attr('ai.toolCall.args', JSON.stringify(c.args)),
            attr('ai.toolCall.result', JSON.stringify(c.output)),
          ];
    spans.splice(1, 0, {
      traceId,
      spanId: `s${i}`.padStart(16, '0'),
      parentSpanId: 'r'.padStart(16, '0'),
      name: flavour === 'genai' ? `execute_tool ${c.tool}` : 'ai.toolCall',
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + 50n * ms),
      attributes: attrs,
    });
  });
  return {
    resourceSpans: [
      { resource: { attributes: [attr('service.name', 'agent')] }, scopeSpans: [{ scope: { name: 'agent' }, spans }] },
    ],
  };
}
