import type { TaskRecord } from '../../src/records/schema.js';
import type { RecordedRequest, ScriptedReply } from './llm-server.js';

/** The query a prompt's request line states (its first line that starts `Request: `), as a model reads it. */
function readRequestLine(prompt: string): string | undefined {
  return /^Request: (.*)$/m.exec(prompt)?.[1];
}

/**
 * A scripted model for the test LLM server (tests and benchmarks only): it answers every kind of
 * request FlowScout sends the way a compliant model would, so cost can be measured on real
 * workflows without a model. It reads the request the way a model would — the tools it is offered,
 * the request text, the upstream results — and, knowing the records, picks the reference call that
 * the request still needs among the tools it was shown (so replay tools answer with recorded
 * outputs, and the prompts downstream carry real tool results):
 *
 * - tool plans (`tool_calls` JSON): each new step of a record (its "Step:" line) takes the record's
 *   next reference call, in order, when its tool is offered (the same step asks again → the same
 *   call); else the first offered tool with its required arguments set to placeholders;
 * - G0's router: the route that calls the record's own tools in order, else `other`;
 * - other JSON answers: an object with a default value per declared property;
 * - G-Eval judge prompts: a score digit (the joint form: a JSON object of four); a synthesize node (system text about the final answer): the
 *   record's reference answer; other text: a short fixed answer;
 * - ReAct (requests with `tools`): the record's next reference call while one is left and offered,
 *   then a short final answer.
 */
export function scriptedModel(records: readonly TaskRecord[]): (req: RecordedRequest) => ScriptedReply {
  const byQuery = records.map((r) => ({ record: r, query: r.query }));
  // The request's own line first: a router's prompt also lists past requests of other records.
  const recordIn = (text: string) => {
    const own = readRequestLine(text);
    return byQuery.find((x) => x.query === own)?.record ?? byQuery.find((x) => text.includes(x.query))?.record;
  };
  const steps = new Map<string, Map<string, number>>();
  const callFor = (record: TaskRecord, step: string): number => {
    let seen = steps.get(record.id);
    if (!seen) steps.set(record.id, (seen = new Map()));
    let i = seen.get(step);
    if (i === undefined) seen.set(step, (i = seen.size));
    return i;
  };
  return (req) => {
    const body = req.body ?? {};
    const messages: Array<{ role: string; content: unknown }> = Array.isArray(body.messages) ? body.messages : [];
    const text = messages
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')))
      .join('\n');
    const record = recordIn(text);
    if (Array.isArray(body.tools) && body.tools.length > 0) {
      const offered = new Set<string>(body.tools.map((t: { function?: { name?: string } }) => t.function?.name ?? ''));
      const done = messages.filter((m) => m.role === 'tool').length;
      const next = record?.calls[done];
      if (next && offered.has(next.tool)) return { toolCalls: [{ name: next.tool, arguments: next.args }] };
      return { text: ANSWER };
    }
    const format = body.response_format?.json_schema;
    if (format?.name === 'tool_calls') {
      const offered: string[] = format.schema?.properties?.calls?.items?.properties?.tool?.enum ?? [];
      const step = /^Step: .*$/m.exec(text)?.[0] ?? '';
      const pick = record ? record.calls[callFor(record, step)] : undefined;
      if (pick && offered.includes(pick.tool)) return { json: { calls: [{ tool: pick.tool, args: pick.args }] } };
      const tool = offered[0];
      return { json: { calls: tool ? [{ tool, args: placeholderArgs(text, tool) }] : [] } };
    }
    if (format?.schema) {
      const route = record ? routeOf(text, record) : undefined;
      return { json: route ? { route } : defaults(format.schema) };
    }
    if (/Evaluation form \(reply with the JSON object/.test(text))
      return { text: '{"correctness": 4, "completeness": 4, "relevance": 5, "clarity": 4}' };
    if (/Evaluation form/.test(text)) return { text: '4' };
    // The final answer: the record's reference answer (a model that answers well, at its length).
    const system = messages.find((m) => m.role === 'system')?.content;
    if (record && typeof system === 'string' && /final answer/.test(system)) return { text: record.reference };
    return { text: ANSWER };
  };
}

/**
 * A router's answer (G0's `route` judge shows its choices as `- route_k: calls a → b. About: ….
 * Keywords: ….` lines): the route that calls the record's own tools in order, else `other`, as a
 * model that reads the request well would choose. Undefined when the prompt lists no routes. The
 * scripted model reads the prompt as a model would; FlowScout itself never parses it back.
 */
function routeOf(text: string, record: TaskRecord): string | undefined {
  const routes = [...text.matchAll(/^- ([A-Za-z_][A-Za-z0-9_-]*): calls (.+?)\.(?: About: |$)/gm)].map((m) => ({
    value: m[1]!,
    tools: m[2]!.split(' → '),
  }));
  if (routes.length === 0) return undefined;
  const own = record.calls.map((c) => c.tool).join('\u0000');
  return routes.find((r) => r.tools.join('\u0000') === own)?.value ?? 'other';
}

const ANSWER =
  'Here is what the tools returned: the requested values are listed above, with the figures taken from the results.';

function defaults(schema: {
  properties?: Record<string, { type?: string; enum?: unknown[] }>;
}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(schema.properties ?? {})) {
    out[k] =
      p.enum?.[0] ??
      (p.type === 'boolean'
        ? true
        : p.type === 'number' || p.type === 'integer'
          ? 1
          : p.type === 'array'
            ? []
            : p.type === 'object'
              ? {}
              : 'yes');
  }
  return out;
}

/**
 * Required arguments of `tool` as its doc in the prompt lists them (src/policies/tool-doc.ts: the
 * `- name (type, required): …` lines under `### tool`), set to placeholders: 1 for numbers, else 'x'.
 */
function placeholderArgs(text: string, tool: string): Record<string, unknown> {
  const at = text.indexOf(`### ${tool}\n`);
  if (at < 0) return {};
  const from = text.indexOf('\nParameters:\n', at);
  const next = text.indexOf('\n### ', at + 1);
  if (from < 0 || (next >= 0 && from > next)) return {};
  const lines = text.slice(from + '\nParameters:\n'.length).split('\n');
  const end = lines.findIndex((l) => !l.startsWith('- '));
  const params = lines.slice(0, end < 0 ? undefined : end).join('\n');
  const args: Record<string, unknown> = {};
  for (const m of params.matchAll(/^- (\S+) \(([^)]*)\)/gm)) {
    const [type, ...flags] = m[2]!.split(', ');
    if (!flags.includes('required') && type !== 'required') continue;
    args[m[1]!] = /^(number|integer)\b/.test(type!) ? 1 : 'x';
  }
  return args;
}
