import { FlowScoutError } from '../../errors/index.js';
import {
  importConversations,
  type ConversationFormat,
  type ConversationImportOptions,
  type ConversationImportResult,
} from './conversation.js';
import { aiSdkFormat } from './formats/ai-sdk.js';
import { anthropicFormat } from './formats/anthropic.js';
import { isObj } from './formats/common.js';
import { parseJsonPath, valueAt, type JsonPath } from './json-path.js';
import { findMessageArray } from './locate-messages.js';
import { openaiFormat } from './formats/openai.js';
import { otelFormat } from './formats/otel.js';
import { readInputDocuments, type InputDocument } from './read-inputs.js';
import { RecordSchema } from '../schema.js';

/**
 * `flowscout import openai|anthropic|ai-sdk|otel|auto <files or folders…>`: agent logs in the
 * formats agents really write, through one importer (conversation.ts) and one parser per format.
 */

export const AGENT_LOG_FORMATS = {
  openai: openaiFormat,
  anthropic: anthropicFormat,
  'ai-sdk': aiSdkFormat,
  otel: otelFormat,
} as const;
/** An agent-log format `importAgentLogs` reads: OpenAI or Anthropic chats, AI SDK messages or steps, an OpenTelemetry export. */
export type AgentLogFormat = keyof typeof AGENT_LOG_FORMATS;
/** Formats `--format auto` can recognise: the agent-log ones and the two dataset importers. */
export type DetectedFormat = AgentLogFormat | 'traject' | 'toolbench';

/** What `importAgentLogs` gives: the records and tools it read, what it dropped and why, and the format it read. */
export interface AgentLogImport extends ConversationImportResult {
  format: AgentLogFormat;
}

/** Imports agent logs of a format (or the detected one). */
export function importAgentLogs(
  format: AgentLogFormat | 'auto',
  paths: readonly string[],
  opts: ConversationImportOptions = {},
): AgentLogImport {
  const docs = readInputDocuments(paths);
  const chosen = format === 'auto' ? detectFormat(docs, opts.messages) : format;
  if (chosen === 'traject' || chosen === 'toolbench') {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${docs[0]?.file ?? paths[0]} looks like ${chosen === 'traject' ? 'TRAJECT-Bench' : 'ToolBench'} data`,
      hint: `Use \`flowscout import ${chosen} …\` for it.`,
    });
  }
  const f: ConversationFormat = AGENT_LOG_FORMATS[chosen];
  return { format: chosen, ...importConversations(f, docs, opts) };
}

/**
 * The format of parsed documents, from their content: an OTLP export has `resourceSpans`; a
 * conversation is OpenAI when it has `tool_calls` or `tool` messages, Anthropic when it has
 * `tool_use` / `tool_result` blocks, AI SDK when it has `tool-call` / `tool-result` parts or
 * `steps`. The messages may sit under any key (`traj`, `inputs.messages`, …: the first array of
 * role-tagged messages found, or the `messages` path), and runs may be the values of an object.
 * The first documents that decide it win; INVALID_INPUT naming the keys seen when none does.
 */
export function detectFormat(docs: readonly InputDocument[], messages?: string): DetectedFormat {
  const path = messages !== undefined ? parseJsonPath(messages, '--messages') : undefined;
  const seen = new Set<string>();
  for (const doc of docs.slice(0, 200)) {
    if (doc.problem) continue;
    const f = detectOne(doc.value, path, seen, 0);
    if (f) return f;
  }
  const files = [...new Set(docs.map((d) => d.file))].slice(0, 3).join(', ');
  // FlowScout's own records need no import.
  const first = docs.find((d) => !d.problem);
  if (first && RecordSchema.safeParse(first.value).success)
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${files} already holds FlowScout records (id, query, reference, calls): there is nothing to import`,
      hint: 'Pass the file as it is: flowscout search --records <file> --tools <tool config> (or eval, bench --records).',
    });
  throw new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `cannot tell the format of ${files}: no OTLP "resourceSpans", OpenAI "tool_calls", Anthropic "tool_use", AI SDK "tool-call" parts, TRAJECT-Bench "tool list" or ToolBench "answer_generation" found${path ? ` in the messages at --messages ${messages}` : ', and no array of chat messages (objects with a "role") under any key'}; keys seen in the items: ${[...seen].slice(0, 15).join(', ') || '(none)'}`,
    hint: "Name the key that holds each run's messages with --messages <json path> (e.g. --messages traj), or name the format: flowscout import openai|anthropic|ai-sdk|otel|traject|toolbench <files> --out <dir>.",
  });
}

function detectOne(
  v: unknown,
  path: JsonPath | undefined,
  seen: Set<string>,
  depth: number,
): DetectedFormat | undefined {
  if (isObj(v)) {
    for (const k of Object.keys(v)) seen.add(k);
    if (Array.isArray(v.resourceSpans)) return 'otel';
    if (isObj(v.answer_generation)) return 'toolbench';
    if (path) {
      const m = valueAt(v, path);
      if (Array.isArray(m)) return fromMessages(m);
    } else {
      if (Array.isArray(v.steps)) return 'ai-sdk';
      if (Array.isArray(v.messages)) return fromMessages(v.messages);
      if (isObj(v.response) && Array.isArray(v.response.messages)) return 'ai-sdk';
      const found = findMessageArray(v);
      if (found) return fromMessages(valueAt(v, found) as unknown[]);
    }
    // A JSON object of runs, or of one array of runs: look at its first values.
    if (depth === 0) {
      for (const x of Object.values(v).slice(0, 20)) {
        for (const run of Array.isArray(x) ? x.slice(0, 20) : [x]) {
          const f = isObj(run) ? detectOne(run, path, new Set(), 1) : undefined;
          if (f) return f;
        }
      }
    }
    return undefined;
  }
  if (Array.isArray(v) && v.length > 0) {
    if (isObj(v[0]) && Array.isArray(v[0]['tool list'])) return 'traject';
    if (isObj(v[0]) && typeof v[0].role === 'string') return fromMessages(v);
    if (depth > 0) return undefined;
    for (const x of v.slice(0, 20)) {
      const f = detectOne(x, path, seen, depth + 1);
      if (f) return f;
    }
  }
  return undefined;
}

function fromMessages(messages: unknown[]): DetectedFormat | undefined {
  for (const m of messages) {
    if (!isObj(m)) continue;
    if (
      Array.isArray(m.tool_calls) ||
      (m.role === 'tool' && typeof m.tool_call_id === 'string') ||
      isObj(m.function_call)
    )
      return 'openai';
    if (Array.isArray(m.content)) {
      for (const b of m.content) {
        if (!isObj(b)) continue;
        if (b.type === 'tool_use' || b.type === 'tool_result') return 'anthropic';
        if (b.type === 'tool-call' || b.type === 'tool-result') return 'ai-sdk';
      }
    }
  }
  return undefined;
}
