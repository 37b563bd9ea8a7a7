import { FlowScoutError } from '../../errors/index.js';
import { importConversations, type ConversationFormat, type ConversationImportOptions, type ConversationImportResult } from './conversation.js';
import { aiSdkFormat } from './formats/ai-sdk.js';
import { anthropicFormat } from './formats/anthropic.js';
import { isObj } from './formats/common.js';
import { openaiFormat } from './formats/openai.js';
import { otelFormat } from './formats/otel.js';
import { readInputDocuments, type InputDocument } from './read-inputs.js';

/**
 * `flowscout import openai|anthropic|ai-sdk|otel|auto <files or folders…>`: agent logs in the
 * formats agents really write, through one importer (conversation.ts) and one parser per format.
 */

export const AGENT_LOG_FORMATS = { openai: openaiFormat, anthropic: anthropicFormat, 'ai-sdk': aiSdkFormat, otel: otelFormat } as const;
export type AgentLogFormat = keyof typeof AGENT_LOG_FORMATS;
/** Formats `--format auto` can recognise: the agent-log ones and the two dataset importers. */
export type DetectedFormat = AgentLogFormat | 'traject' | 'toolbench';

export interface AgentLogImport extends ConversationImportResult {
  format: AgentLogFormat;
}

/** Imports agent logs of a format (or the detected one). */
export function importAgentLogs(format: AgentLogFormat | 'auto', paths: readonly string[], opts: ConversationImportOptions = {}): AgentLogImport {
  const docs = readInputDocuments(paths);
  const chosen = format === 'auto' ? detectFormat(docs) : format;
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
 * `steps`. The first documents that decide it win; INVALID_INPUT when none does.
 */
export function detectFormat(docs: readonly InputDocument[]): DetectedFormat {
  for (const doc of docs.slice(0, 200)) {
    if (doc.problem) continue;
    const f = detectOne(doc.value);
    if (f) return f;
  }
  throw new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `cannot tell the format of ${[...new Set(docs.map((d) => d.file))].slice(0, 3).join(', ')}: no OTLP "resourceSpans", OpenAI "tool_calls", Anthropic "tool_use", AI SDK "tool-call" parts, TRAJECT-Bench "tool list" or ToolBench "answer_generation" found`,
    hint: 'Name the format: flowscout import openai|anthropic|ai-sdk|otel|traject|toolbench <files> --out <dir>.',
  });
}

function detectOne(v: unknown): DetectedFormat | undefined {
  if (isObj(v)) {
    if (Array.isArray(v.resourceSpans)) return 'otel';
    if (isObj(v.answer_generation)) return 'toolbench';
    if (Array.isArray(v.steps)) return 'ai-sdk';
    if (Array.isArray(v.messages)) return fromMessages(v.messages);
    if (isObj(v.response) && Array.isArray(v.response.messages)) return 'ai-sdk';
    return undefined;
  }
  if (Array.isArray(v) && v.length > 0) {
    if (isObj(v[0]) && Array.isArray(v[0]['tool list'])) return 'traject';
    if (isObj(v[0]) && typeof v[0].role === 'string') return fromMessages(v);
    for (const x of v.slice(0, 20)) {
      const f = detectOne(x);
      if (f) return f;
    }
  }
  return undefined;
}

function fromMessages(messages: unknown[]): DetectedFormat | undefined {
  for (const m of messages) {
    if (!isObj(m)) continue;
    if (Array.isArray(m.tool_calls) || m.role === 'tool' && typeof m.tool_call_id === 'string' || isObj(m.function_call)) return 'openai';
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
