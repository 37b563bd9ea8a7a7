import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toAiSdk, toAnthropic, toOpenai, toOtel } from '../../../test/support/agent-log-writers.js';
import { bundledTrajectPaths } from '../bundled.js';
import { RecordSchema, type TaskRecord } from '../schema.js';
import { detectFormat, importAgentLogs } from './agent-logs.js';
import { DROP_FAILED, DROP_MISSING_TOOL } from './conversation.js';
import { readInputDocuments } from './read-inputs.js';
import { importTraject } from './traject.js';

const FIX = join(import.meta.dirname, '../../../test/fixtures/agent-logs');
const fx = (name: string) => join(FIX, name);
const PARIS = [
  { tool: 'geocode', args: { city: 'Paris' }, output: '{"lat":48.85,"lon":2.35}', status: 'ok' },
  { tool: 'get_weather', args: { lat: 48.85, lon: 2.35 }, output: '{"temp_c":18,"sky":"sunny"}', status: 'ok' },
];
const TWO_CITIES = [
  { tool: 'get_weather', args: { lat: 48.85, lon: 2.35 }, status: 'ok' },
  { tool: 'get_weather', args: { lat: 52.52, lon: 13.4 }, status: 'ok' },
];

function essentials(r: TaskRecord) {
  return { query: r.query, reference: r.reference, calls: r.calls };
}

describe('importAgentLogs: OpenAI Chat Completions', () => {
  const res = importAgentLogs('openai', [fx('openai.jsonl')]);
  it('reads queries, tool_calls with parsed arguments, tool messages by id and the final answer', () => {
    expect(res.records.map((r) => r.id)).toEqual(['paris', 'two-cities', 'openai-3']);
    for (const r of res.records) expect(RecordSchema.parse(r)).toEqual(r);
    expect(res.records[0]).toMatchObject({
      query: "What's the weather in Paris?",
      reference: 'It is 18 °C and sunny in Paris.',
      calls: PARIS,
    });
    // Two parallel calls of one turn keep their listed order; their results came back in reverse order.
    expect(res.records[1]!.calls).toMatchObject([
      { ...TWO_CITIES[0], output: '{"temp_c":18,"sky":"sunny"}' },
      { ...TWO_CITIES[1], output: '{"temp_c":12,"sky":"rain"}' },
    ]);
    expect(res.records[1]!.reference).toBe('Paris: 18 °C, sunny. Berlin: 12 °C, rain.');
    expect(res.counts).toMatchObject({
      conversations: 3,
      kept: 3,
      calls: 5,
      parallelTurns: 1,
      toolsDefined: 2,
      toolsInferred: 0,
    });
    expect(res.tools.map((t) => t.name)).toEqual(['geocode', 'get_weather']);
    expect(res.tools[1]!.inputSchema).toMatchObject({ type: 'object', required: ['lat', 'lon'] });
  });

  it('names every bad line by file, line and JSON path, and skips them only with skipInvalid', () => {
    const file = fx('openai-invalid.jsonl');
    let message = '';
    try {
      importAgentLogs('openai', [file]);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('2 of 4 openai conversations cannot be imported');
    expect(message).toContain(`${file}:2: not valid JSON`);
    expect(message).toContain(
      `${file}:4 ($.messages[1].tool_calls[0].function.arguments): the arguments are not valid JSON`,
    );
    const skipped = importAgentLogs('openai', [file], { skipInvalid: true });
    // A run that answered without a tool is a record with an empty reference log, not a problem.
    expect(skipped.records.map((r) => [r.id, r.calls.length, r.reference])).toEqual([
      ['paris', 2, 'It is 18 °C and sunny in Paris.'],
      ['openai-invalid-3', 0, 'Hi! No tools needed.'],
    ]);
    expect(skipped.counts).toMatchObject({ invalid: { 'not readable': 2 }, noCall: 1 });
  });

  it("the fix hint describes the input's own layout: a JSON array of runs, a JSON document, or JSON Lines", () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowscout-layout-'));
    const good = {
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: 'Sunny.' },
      ],
    };
    const bad = { messages: [{ role: 'assistant', content: [7] }] };
    const hintOf = (name: string, text: string): string => {
      const file = join(dir, name);
      writeFileSync(file, text);
      try {
        importAgentLogs('openai', [file]);
      } catch (e) {
        return (e as { hint?: string }).hint ?? '';
      }
      throw new Error(`${name} was imported`);
    };
    const array = hintOf('runs.json', JSON.stringify([good, bad], null, 2));
    expect(array).toContain('a JSON array of runs, each {"messages": [');
    expect(array).not.toContain('a line');
    const document = hintOf('run.json', JSON.stringify(bad, null, 2));
    expect(document).toContain('one JSON document: {"messages": [');
    expect(document).not.toContain('a line');
    const lines = hintOf('runs.jsonl', `${JSON.stringify(good)}\n${JSON.stringify(bad)}\n`);
    expect(lines).toContain('JSON Lines: one {"messages": [');
    expect(lines).toContain('a line');
  });
});

describe('importAgentLogs: Anthropic Messages', () => {
  it('reads tool_use / tool_result blocks; is_error makes a failed call, dropped unless keepFailed', () => {
    const res = importAgentLogs('anthropic', [fx('anthropic.jsonl')]);
    expect(res.records.map((r) => r.id)).toEqual(['paris', 'two-cities']);
    expect(res.records[0]).toMatchObject({
      query: "What's the weather in Paris?",
      reference: 'It is 18 °C and sunny in Paris.',
      calls: PARIS,
    });
    expect(res.records[1]!.calls).toMatchObject(TWO_CITIES);
    expect(res.counts.dropped).toEqual({ [DROP_FAILED]: 1 });
    const kept = importAgentLogs('anthropic', [fx('anthropic.jsonl')], { keepFailed: true });
    expect(kept.records[2]!.calls).toEqual([
      { tool: 'geocode', args: { city: 'Atlantis' }, output: 'city not found', status: 'error' },
    ]);
    expect(res.tools.map((t) => t.name)).toEqual(['geocode', 'get_weather']);
  });
});

describe('importAgentLogs: AI SDK messages and steps', () => {
  it('reads a ModelMessage array, {prompt, steps} and {messages, tools}; error outputs fail', () => {
    const res = importAgentLogs('ai-sdk', [fx('ai-sdk.jsonl')], { keepFailed: true });
    expect(res.records.map((r) => r.id)).toEqual(['ai-sdk-1', 'two-cities', 'lyon', 'failed']);
    expect(res.records[0]).toMatchObject({
      query: "What's the weather in Paris?",
      reference: 'It is 18 °C and sunny in Paris.',
    });
    expect(res.records[0]!.calls).toEqual([
      { tool: 'geocode', args: { city: 'Paris' }, output: { lat: 48.85, lon: 2.35 }, status: 'ok' },
      { tool: 'get_weather', args: { lat: 48.85, lon: 2.35 }, output: { temp_c: 18, sky: 'sunny' }, status: 'ok' },
    ]);
    expect(res.records[1]!.calls).toEqual([
      { ...TWO_CITIES[0], output: { temp_c: 18, sky: 'sunny' } },
      { ...TWO_CITIES[1], output: { temp_c: 12, sky: 'rain' } },
    ]);
    expect(res.records[1]!.reference).toBe('Paris: 18 °C, sunny. Berlin: 12 °C, rain.');
    expect(res.records[2]!.calls).toEqual([
      { tool: 'geocode', args: { city: 'Lyon' }, output: '45.76,4.84', status: 'ok' },
    ]);
    expect(res.records[3]!.calls[0]).toMatchObject({ status: 'error', output: 'city not found' });
    expect(res.counts.toolsDefined).toBe(2);
    expect(importAgentLogs('ai-sdk', [fx('ai-sdk.jsonl')]).counts.dropped).toEqual({ [DROP_FAILED]: 1 });
  });
});

describe('importAgentLogs: OpenTelemetry traces', () => {
  it('one trace = one record: GenAI execute_tool and AI SDK ai.toolCall spans ordered by start time, across lines', () => {
    const res = importAgentLogs('otel', [fx('otel-genai.json'), fx('otel-ai-sdk.jsonl')], { keepFailed: true });
    expect(res.records.map((r) => r.id)).toEqual([
      '5b8efff798038103d269b633813fc60c',
      '0af7651916cd43dd8448eb211c80319c',
      '1bf7651916cd43dd8448eb211c80319d',
    ]);
    expect(res.records[0]).toMatchObject({
      query: "What's the weather in Paris?",
      reference: 'It is 18 °C and sunny in Paris.',
      calls: PARIS,
    });
    expect(res.records[1]!.query).toBe('Compare the weather at 48.85,2.35 and 52.52,13.40.');
    expect(res.records[1]!.calls).toEqual([
      { ...TWO_CITIES[0], output: { temp_c: 18, sky: 'sunny' } },
      { ...TWO_CITIES[1], output: { temp_c: 12, sky: 'rain' } },
    ]);
    expect(res.records[2]!.calls).toEqual([
      { tool: 'geocode', args: { city: 'Atlantis' }, output: 'city not found', status: 'error' },
    ]);
    // Traces carry no tool definitions: descriptors are inferred from the recorded calls.
    expect(res.counts).toMatchObject({ toolsDefined: 0, toolsInferred: 2 });
    expect(res.tools.find((t) => t.name === 'get_weather')!.inputSchema).toEqual({
      type: 'object',
      properties: { lat: { type: 'number' }, lon: { type: 'number' } },
      required: ['lat', 'lon'],
    });
  });

  it('names a span whose arguments are not JSON by file, line and JSON path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'otel-bad-'));
    const file = join(dir, 'bad.jsonl');
    const doc = toOtel(
      { id: 'x', query: 'q', reference: 'r', calls: [{ tool: 't', args: { a: 1 }, output: 'o', status: 'ok' }] },
      0,
      'genai',
    ) as {
      resourceSpans: Array<{
        scopeSpans: Array<{ spans: Array<{ attributes: Array<{ key: string; value: { stringValue: string } }> }> }>;
      }>;
    };
    const args = doc.resourceSpans[0]!.scopeSpans[0]!.spans[1]!.attributes.find(
      (a) => a.key === 'gen_ai.tool.call.arguments',
    )!;
    args.value.stringValue = '{"a": 1';
    writeFileSync(file, `${JSON.stringify(doc)}\n`);
    expect(() => importAgentLogs('otel', [file])).toThrow(
      `${file}:1 ($.resourceSpans[0].scopeSpans[0].spans[1].attributes["gen_ai.tool.call.arguments"]): the arguments are not valid JSON`,
    );
  });
});

describe('detectFormat', () => {
  it('tells every fixture format from its content', () => {
    const cases: Array<[string, string]> = [
      ['openai.jsonl', 'openai'],
      ['anthropic.jsonl', 'anthropic'],
      ['ai-sdk.jsonl', 'ai-sdk'],
      ['otel-genai.json', 'otel'],
      ['otel-ai-sdk.jsonl', 'otel'],
    ];
    for (const [file, format] of cases) expect(detectFormat(readInputDocuments([fx(file)]))).toBe(format);
    expect(importAgentLogs('auto', [fx('anthropic.jsonl')]).format).toBe('anthropic');
  });

  it("says a file of FlowScout's own records needs no import, and names the keys of a file it cannot read", () => {
    const dir = mkdtempSync(join(tmpdir(), 'detect-'));
    const records = join(dir, 'records.jsonl');
    const record = { id: 'a', query: 'Weather in Oslo?', reference: 'Sunny.', calls: [{ tool: 'w', args: {} }] };
    writeFileSync(records, `${JSON.stringify(record)}\n`);
    expect(() => detectFormat(readInputDocuments([records]))).toThrow(
      /records\.jsonl already holds FlowScout records \(id, query, reference, calls\): there is nothing to import/,
    );
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, `${JSON.stringify({ id: 'a', query: 'q', calls: 3 })}\n`);
    expect(() => detectFormat(readInputDocuments([other]))).toThrow(
      /cannot tell the format of .*keys seen in the items: id, query, calls/,
    );
  });
});

describe('round trip: TRAJECT-Bench records → each format → import', () => {
  const travel = bundledTrajectPaths('Travel');
  const seq = importTraject(travel.trajQuery, travel.tools);
  const par = importTraject(
    join(import.meta.dirname, '../../../test/fixtures/records/traject-parallel/simple_ver.json'),
    join(import.meta.dirname, '../../../test/fixtures/records/traject-parallel/Travel_tool.json'),
  );
  const sets = [
    { name: 'sequential Travel', records: seq.records.slice(0, 25), tools: seq.tools, parallel: false },
    { name: 'parallel Travel', records: par.records, tools: par.tools, parallel: true },
  ];
  const dir = mkdtempSync(join(tmpdir(), 'roundtrip-'));
  const write = (name: string, lines: unknown[]) => {
    const file = join(dir, name);
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    return file;
  };

  for (const set of sets) {
    it(`${set.name}: the same records, calls and tools come back from every format`, () => {
      expect(set.records.length).toBeGreaterThan(1);
      const expected = set.records.map(essentials);
      const slug = set.name.replace(/\s+/g, '-');
      for (const [format, writer] of [
        ['openai', toOpenai],
        ['anthropic', toAnthropic],
        ['ai-sdk', toAiSdk],
      ] as const) {
        const file = write(
          `${slug}.${format}.jsonl`,
          set.records.map((r) => writer(r, set.tools, set.parallel)),
        );
        const back = importAgentLogs(format, [file], { domain: 'Travel' });
        expect(
          back.records.map((r) => r.id),
          format,
        ).toEqual(set.records.map((r) => r.id));
        expect(back.records.map(essentials), format).toEqual(expected);
        expect(back.tools, format).toEqual(set.tools);
        expect(back.counts.parallelTurns, format).toBe(
          set.parallel ? set.records.filter((r) => r.calls.length > 1).length : 0,
        );
      }
      for (const flavour of ['genai', 'ai-sdk'] as const) {
        const file = write(
          `${slug}.otel-${flavour}.jsonl`,
          set.records.map((r, i) => toOtel(r, i, flavour)),
        );
        const back = importAgentLogs('otel', [file]);
        expect(back.records.map(essentials), flavour).toEqual(expected);
        const used = new Set(set.records.flatMap((r) => r.calls.map((c) => c.tool)));
        expect(new Set(back.tools.map((t) => t.name)), flavour).toEqual(used);
      }
    });
  }

  it('a record whose call names a tool absent from the definitions is dropped unless keepFailed, and counted', () => {
    const r = set0();
    const file = write('missing.openai.jsonl', [
      toOpenai(
        r,
        seq.tools.filter((t) => t.name !== r.calls[0]!.tool),
        false,
      ),
    ]);
    const res = importAgentLogs('openai', [file]);
    expect(res.records).toHaveLength(0);
    expect(res.counts.dropped).toEqual({ [DROP_MISSING_TOOL]: 1 });
    const kept = importAgentLogs('openai', [file], { keepFailed: true });
    expect(kept.records).toHaveLength(1);
    expect(kept.counts).toMatchObject({
      keptMissingToolCalls: r.calls.filter((c) => c.tool === r.calls[0]!.tool).length,
      toolsInferred: 1,
    });
  });
  const set0 = () => seq.records[0]!;
});
