import type { ToolDescriptor } from '../../../contracts/tools.js';
import type { DialogueTurn } from '../dialogue.js';
import {
  UnitProblem,
  type ConversationFormat,
  type ImportedCall,
  type InputUnit,
  type ParsedConversation,
} from '../conversation.js';
import {
  at,
  conversationUnits,
  descriptor,
  isObj,
  kind,
  looksLikeMessages,
  parseArgs,
  requireString,
  textOf,
  unitObject,
} from './common.js';

/**
 * Anthropic Messages API conversations, one `{"system"?, "messages": [...], "tools"?: [...]}` a
 * line. q = the text of the user turns (not their `tool_result` blocks), π = the assistant
 * `tool_use` blocks in order (several in one turn keep their listed order), each observation = the
 * `tool_result` block with that `tool_use_id` (`is_error: true` → a failed call), r = the assistant
 * text after the last `tool_use`. Tools from `tools[]` (`name`, `description`, `input_schema`).
 */

export const anthropicFormat: ConversationFormat = {
  id: 'anthropic',
  shape: '{"messages": [{"role": "user" | "assistant", "content": [...]}], "tools"?: [...]}',
  units: (doc) => conversationUnits(doc, looksLikeMessages),
  conversation: readConversation,
  tools: readTools,
};

function readConversation(unit: InputUnit): ParsedConversation {
  const obj = Array.isArray(unit.value)
    ? { messages: unit.value }
    : unitObject(unit, 'a conversation object {"messages": [...]}');
  const path = Array.isArray(unit.value) ? '$' : '$.messages';
  const messages = obj.messages;
  if (!Array.isArray(messages))
    throw new UnitProblem(
      '$.messages',
      `expected an array of messages, found ${messages === undefined ? 'nothing' : kind(messages)}`,
    );
  const query: string[] = [];
  const calls: ImportedCall[] = [];
  const byId = new Map<string, ImportedCall>();
  let answer: string | undefined;
  let answerPath = path;
  let parallelTurns = 0;
  const turns: Array<DialogueTurn<ImportedCall>> = [];
  messages.forEach((m, i) => {
    const mp = at(path, i);
    if (!isObj(m)) throw new UnitProblem(mp, `expected a message object, found ${kind(m)}`);
    const blocks: unknown[] =
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (m.role === 'user') {
      const texts: string[] = [];
      blocks.forEach((b, j) => {
        const bp = at(at(mp, 'content'), j);
        if (!isObj(b)) return;
        if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
        else if (b.type === 'tool_result') {
          const id = b.tool_use_id;
          if (typeof id !== 'string')
            throw new UnitProblem(at(bp, 'tool_use_id'), 'a tool_result needs the tool_use_id of the call it answers');
          const call = byId.get(id);
          if (!call)
            throw new UnitProblem(at(bp, 'tool_use_id'), `no assistant tool_use before this block has id '${id}'`);
          call.output =
            typeof b.content === 'string' ? b.content : Array.isArray(b.content) ? textOf(b.content) : b.content;
          call.status = b.is_error === true ? 'error' : 'ok';
          turns.push({ role: 'tool', call });
        }
      });
      const t = texts.join('\n').trim();
      if (t) {
        query.push(t);
        turns.push({ role: 'user', text: t });
      }
    } else if (m.role === 'assistant') {
      const texts: string[] = [];
      const turnCalls: ImportedCall[] = [];
      let uses = 0;
      blocks.forEach((b, j) => {
        const bp = at(at(mp, 'content'), j);
        if (!isObj(b)) return;
        if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
        else if (b.type === 'tool_use') {
          uses++;
          const call: ImportedCall = {
            tool: requireString(b, 'name', bp, 'the tool name'),
            args: parseArgs(b.input, at(bp, 'input')),
            status: 'error',
            path: bp,
          };
          calls.push(call);
          turnCalls.push(call);
          if (typeof b.id === 'string') byId.set(b.id, call);
        }
      });
      if (uses > 1) parallelTurns++;
      const text = texts.join('\n').trim();
      if (text || turnCalls.length) turns.push({ role: 'assistant', text, calls: turnCalls });
      if (uses > 0) answer = undefined;
      else if (text) {
        answer = text;
        answerPath = mp;
      }
    }
  });
  const id = typeof obj.id === 'string' || typeof obj.id === 'number' ? String(obj.id) : undefined;
  return {
    ...(id ? { id } : {}),
    query: query.join('\n'),
    ...(answer !== undefined ? { answer } : {}),
    calls,
    paths: { query: path, calls: path, answer: answerPath },
    turns,
    meta: { parallelTurns },
  };
}

function readTools(unit: InputUnit): ToolDescriptor[] {
  if (!isObj(unit.value) || !Array.isArray(unit.value.tools)) return [];
  return unit.value.tools.map((t, i) => {
    const tp = at('$.tools', i);
    if (!isObj(t))
      throw new UnitProblem(tp, `expected a tool {"name", "description", "input_schema"}, found ${kind(t)}`);
    return descriptor(requireString(t, 'name', tp, 'the tool name'), t.description, t.input_schema);
  });
}
