import { MAX_VALUE_DEPTH, parseJsonBounded } from '../../../util/json-depth.js';
import {
  UnitProblem,
  type ConversationFormat,
  type ImportedCall,
  type InputUnit,
  type ParsedConversation,
} from '../conversation.js';
import type { InputDocument } from '../read-inputs.js';
import { at, isObj, kind, parseArgs, textOf, type Obj } from './common.js';

/**
 * OpenTelemetry traces in OTLP/JSON (`{"resourceSpans": [...]}`, one export request per file or per
 * line, as the Collector's file exporter writes them): one trace = one record. Calls come from
 * GenAI semantic-convention `execute_tool` spans (`gen_ai.tool.name`, `gen_ai.tool.call.arguments`,
 * `gen_ai.tool.call.result`) and from the AI SDK's `ai.toolCall` spans (`ai.toolCall.name`,
 * `.args`, `.result`), ordered by start time; a span with status ERROR is a failed call. q is the
 * user text of the earliest span that records input messages (`gen_ai.input.messages`,
 * `gen_ai.prompt`, the AI SDK's `ai.prompt`), r the output text of the latest-ending span that
 * records output (`gen_ai.output.messages`, `gen_ai.completion`, `ai.response.text`).
 */

interface Span {
  traceId: string;
  name: string;
  start: bigint;
  end: bigint;
  attrs: Obj;
  statusError: boolean;
  statusMessage?: string;
  file: string;
  line?: number;
  path: string;
  order: number;
}

export const otelFormat: ConversationFormat = {
  id: 'otel',
  shape: 'an OTLP/JSON export {"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}',
  units: () => [],
  allUnits,
  conversation: readTrace,
  tools: () => [],
};

function allUnits(docs: readonly InputDocument[]): InputUnit[] {
  const traces = new Map<string, Span[]>();
  let order = 0;
  for (const doc of docs) {
    const where = { file: doc.file, ...(doc.line !== undefined ? { line: doc.line } : {}) };
    if (!isObj(doc.value) || !Array.isArray(doc.value.resourceSpans)) {
      throw new UnitProblem(
        '$.resourceSpans',
        `expected an OTLP/JSON trace export with "resourceSpans", found ${isObj(doc.value) ? `keys ${Object.keys(doc.value).slice(0, 4).join(', ') || 'none'}` : kind(doc.value)}`,
        where,
      );
    }
    doc.value.resourceSpans.forEach((rs, i) => {
      const rp = at('$.resourceSpans', i);
      if (!isObj(rs)) return;
      const scopes = Array.isArray(rs.scopeSpans)
        ? rs.scopeSpans
        : Array.isArray(rs.instrumentationLibrarySpans)
          ? rs.instrumentationLibrarySpans
          : [];
      const scopeKey = Array.isArray(rs.scopeSpans) ? 'scopeSpans' : 'instrumentationLibrarySpans';
      scopes.forEach((ss, j) => {
        if (!isObj(ss) || !Array.isArray(ss.spans)) return;
        ss.spans.forEach((s, k) => {
          const sp = at(at(at(at(rp, scopeKey), j), 'spans'), k);
          if (!isObj(s)) throw new UnitProblem(sp, `expected a span object, found ${kind(s)}`, where);
          if (typeof s.traceId !== 'string' || !s.traceId)
            throw new UnitProblem(at(sp, 'traceId'), 'a span needs its traceId', where);
          const status = isObj(s.status) ? s.status : {};
          const span: Span = {
            traceId: s.traceId,
            name: typeof s.name === 'string' ? s.name : '',
            start: nanos(s.startTimeUnixNano),
            end: nanos(s.endTimeUnixNano),
            attrs: attributes(s.attributes),
            statusError: status.code === 2 || status.code === 'STATUS_CODE_ERROR' || status.code === 'ERROR',
            ...(typeof status.message === 'string' && status.message ? { statusMessage: status.message } : {}),
            ...where,
            path: sp,
            order: order++,
          };
          const list = traces.get(span.traceId) ?? [];
          list.push(span);
          traces.set(span.traceId, list);
        });
      });
    });
  }
  return [...traces.values()].map((spans) => ({
    file: spans[0]!.file,
    ...(spans[0]!.line !== undefined ? { line: spans[0]!.line } : {}),
    path: '$',
    value: spans,
  }));
}

function nanos(v: unknown): bigint {
  try {
    if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
    if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  } catch {
    /* fall through */
  }
  return 0n;
}

/** OTLP attributes `[{key, value: {stringValue | intValue | …}}]` → a plain object. */
export function attributes(list: unknown): Obj {
  const out: Obj = {};
  if (!Array.isArray(list)) return out;
  for (const a of list) if (isObj(a) && typeof a.key === 'string') out[a.key] = anyValue(a.value);
  return out;
}

function anyValue(v: unknown): unknown {
  if (!isObj(v)) return v;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('bytesValue' in v) return v.bytesValue;
  if (isObj(v.arrayValue)) return Array.isArray(v.arrayValue.values) ? v.arrayValue.values.map(anyValue) : [];
  if (isObj(v.kvlistValue)) return attributes(v.kvlistValue.values);
  return undefined;
}

function readTrace(unit: InputUnit): ParsedConversation {
  const spans = [...(unit.value as Span[])].sort((a, b) =>
    a.start < b.start ? -1 : a.start > b.start ? 1 : a.order - b.order,
  );
  const calls: ImportedCall[] = [];
  const seenIds = new Set<string>();
  for (const s of spans) {
    const where = { file: s.file, ...(s.line !== undefined ? { line: s.line } : {}) };
    const isGenAi = s.attrs['gen_ai.operation.name'] === 'execute_tool' || /^execute_tool\b/.test(s.name);
    const isAiSdk = s.name === 'ai.toolCall' || s.attrs['ai.operationId'] === 'ai.toolCall';
    if (!isGenAi && !isAiSdk) continue;
    const nameAttr = isGenAi ? 'gen_ai.tool.name' : 'ai.toolCall.name';
    const tool = s.attrs[nameAttr] ?? (isGenAi ? s.name.replace(/^execute_tool\s*/, '') : undefined);
    if (typeof tool !== 'string' || !tool.trim())
      throw new UnitProblem(at(at(s.path, 'attributes'), nameAttr), 'a tool span needs the tool name', where);
    const argsAttr = isGenAi ? 'gen_ai.tool.call.arguments' : 'ai.toolCall.args';
    let args: Record<string, unknown>;
    try {
      args = parseArgs(s.attrs[argsAttr], '$');
    } catch (e) {
      throw new UnitProblem(at(at(s.path, 'attributes'), argsAttr), e instanceof Error ? e.message : String(e), where);
    }
    const id = s.attrs[isGenAi ? 'gen_ai.tool.call.id' : 'ai.toolCall.id'];
    if (typeof id === 'string' && id) {
      if (seenIds.has(id)) continue;
      seenIds.add(id);
    }
    const rawResult = s.attrs[isGenAi ? 'gen_ai.tool.call.result' : 'ai.toolCall.result'];
    const failed = s.statusError || s.attrs['error.type'] !== undefined;
    const output =
      rawResult !== undefined
        ? isAiSdk
          ? maybeJson(rawResult)
          : rawResult
        : failed
          ? (s.statusMessage ?? s.attrs['error.type'])
          : undefined;
    calls.push({
      tool,
      args,
      status: failed || (rawResult === undefined && isAiSdk) ? 'error' : 'ok',
      ...(output !== undefined ? { output } : {}),
      path: s.path,
    });
  }
  const query = spans.map(inputText).find((t) => t.trim()) ?? '';
  const lastCallStart = spans
    .filter((s) => calls.some((c) => c.path === s.path))
    .reduce((m, s) => (s.start > m ? s.start : m), 0n);
  const byEnd = [...spans].sort((a, b) => (a.end > b.end ? -1 : a.end < b.end ? 1 : b.order - a.order));
  const answerSpan = byEnd.find((s) => s.end >= lastCallStart && outputText(s).trim());
  return {
    id: spans[0]!.traceId,
    query,
    ...(answerSpan ? { answer: outputText(answerSpan) } : {}),
    calls,
    paths: { query: '$', calls: '$', answer: '$' },
    meta: { parallelTurns: 0 },
  };
}

function maybeJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return parseJsonBounded(v, MAX_VALUE_DEPTH);
  } catch {
    return v;
  }
}

/** User text of a span's recorded input, or ''. */
function inputText(s: Span): string {
  const a = s.attrs;
  if (a['gen_ai.input.messages'] !== undefined) return roleText(maybeJson(a['gen_ai.input.messages']), 'user');
  if (a['ai.prompt'] !== undefined) {
    const p = maybeJson(a['ai.prompt']);
    if (isObj(p)) {
      if (typeof p.prompt === 'string') return p.prompt;
      if (Array.isArray(p.prompt)) return roleText(p.prompt, 'user');
      if (Array.isArray(p.messages)) return roleText(p.messages, 'user');
    }
    return typeof p === 'string' ? p : '';
  }
  if (a['gen_ai.prompt'] !== undefined) {
    const p = maybeJson(a['gen_ai.prompt']);
    return Array.isArray(p) ? roleText(p, 'user') : typeof p === 'string' ? p : '';
  }
  if (typeof a['gen_ai.user.message'] === 'string') return a['gen_ai.user.message'] as string;
  return '';
}

/** Assistant text of a span's recorded output, or ''. */
function outputText(s: Span): string {
  const a = s.attrs;
  if (a['gen_ai.output.messages'] !== undefined) return roleText(maybeJson(a['gen_ai.output.messages']), 'assistant');
  if (typeof a['ai.response.text'] === 'string') return a['ai.response.text'] as string;
  if (a['gen_ai.completion'] !== undefined) {
    const c = maybeJson(a['gen_ai.completion']);
    return Array.isArray(c) ? roleText(c, 'assistant') : typeof c === 'string' ? c : '';
  }
  return '';
}

/** Text of the messages with a role: `content` strings, text parts (`content` or `text`). */
function roleText(messages: unknown, role: string): string {
  if (!Array.isArray(messages)) return '';
  const texts: string[] = [];
  for (const m of messages) {
    if (!isObj(m) || (m.role !== undefined && m.role !== role)) continue;
    if (typeof m.content === 'string') texts.push(m.content);
    else if (Array.isArray(m.content)) texts.push(textOf(m.content));
    if (Array.isArray(m.parts)) texts.push(textOf(m.parts, ['content', 'text']));
  }
  return texts.filter((t) => t.trim()).join('\n');
}
