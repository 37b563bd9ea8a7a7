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
  type Obj,
} from './common.js';

/**
 * OpenAI Chat Completions conversations, one `{"id"?, "messages": [...], "tools"?: [...]}` a line
 * (the fine-tuning chat format, and what agents log as their `messages`). q = the user turns,
 * π = the assistant `tool_calls` in order (parallel calls of one turn in their listed order) with
 * `function.arguments` parsed, each observation = the `tool` message with that `tool_call_id`,
 * r = the assistant text after the last call. Tools from `tools[].function` (`name`,
 * `description`, `parameters`); the legacy `functions` / `function_call` / `function` role too.
 */

export const openaiFormat: ConversationFormat = {
  id: 'openai',
  shape: '{"messages": [{"role": "user" | "assistant" | "tool", …}], "tools"?: [...]}',
  units: (doc) => conversationUnits(doc, looksLikeMessages),
  conversation: readConversation,
  tools: readTools,
};

function messagesOf(unit: InputUnit): { obj: Obj; messages: unknown[]; path: string } {
  if (Array.isArray(unit.value)) return { obj: {}, messages: unit.value, path: '$' };
  const obj = unitObject(unit, 'a conversation object {"messages": [...]}');
  if (!Array.isArray(obj.messages))
    throw new UnitProblem(
      '$.messages',
      `expected an array of chat messages, found ${obj.messages === undefined ? 'nothing' : kind(obj.messages)}`,
    );
  return { obj, messages: obj.messages, path: '$.messages' };
}

function readConversation(unit: InputUnit): ParsedConversation {
  const { obj, messages, path } = messagesOf(unit);
  const query: string[] = [];
  const calls: ImportedCall[] = [];
  const byId = new Map<string, ImportedCall>();
  const pendingLegacy: ImportedCall[] = [];
  let answer: string | undefined;
  let answerPath = path;
  let parallelTurns = 0;
  const turns: Array<DialogueTurn<ImportedCall>> = [];
  messages.forEach((m, i) => {
    const mp = at(path, i);
    if (!isObj(m)) throw new UnitProblem(mp, `expected a message object, found ${kind(m)}`);
    const role = m.role;
    if (role === 'user') {
      const t = textOf(m.content).trim();
      if (t) {
        query.push(t);
        turns.push({ role: 'user', text: t });
      }
    } else if (role === 'assistant') {
      const turnCalls: ImportedCall[] = [];
      const toolCalls = m.tool_calls;
      if (toolCalls !== undefined && toolCalls !== null && !Array.isArray(toolCalls))
        throw new UnitProblem(at(mp, 'tool_calls'), `expected an array, found ${kind(toolCalls)}`);
      const list = (toolCalls ?? []) as unknown[];
      if (list.length > 1) parallelTurns++;
      list.forEach((tc, j) => {
        const tp = at(at(mp, 'tool_calls'), j);
        if (!isObj(tc) || !isObj(tc.function))
          throw new UnitProblem(tp, 'expected {"id", "type": "function", "function": {"name", "arguments"}}');
        const fp = at(tp, 'function');
        const name = requireString(tc.function, 'name', fp, 'the function name');
        const call: ImportedCall = {
          tool: name,
          args: parseArgs(tc.function.arguments, at(fp, 'arguments')),
          status: 'error',
          path: tp,
        };
        calls.push(call);
        turnCalls.push(call);
        if (typeof tc.id === 'string') byId.set(tc.id, call);
      });
      if (isObj(m.function_call)) {
        const fp = at(mp, 'function_call');
        const call: ImportedCall = {
          tool: requireString(m.function_call, 'name', fp, 'the function name'),
          args: parseArgs(m.function_call.arguments, at(fp, 'arguments')),
          status: 'error',
          path: fp,
        };
        calls.push(call);
        turnCalls.push(call);
        pendingLegacy.push(call);
      }
      const text = textOf(m.content).trim();
      if (text || turnCalls.length) turns.push({ role: 'assistant', text, calls: turnCalls });
      if (list.length === 0 && !isObj(m.function_call) && text) {
        answer = text;
        answerPath = mp;
      } else if (list.length > 0 || isObj(m.function_call)) answer = undefined;
    } else if (role === 'tool') {
      const id = m.tool_call_id;
      if (typeof id !== 'string')
        throw new UnitProblem(at(mp, 'tool_call_id'), 'a tool message needs the tool_call_id of the call it answers');
      const call = byId.get(id);
      if (!call)
        throw new UnitProblem(at(mp, 'tool_call_id'), `no assistant tool call before this message has id '${id}'`);
      call.output = typeof m.content === 'string' ? m.content : textOf(m.content);
      call.status = 'ok';
      turns.push({ role: 'tool', call });
    } else if (role === 'function') {
      const call = pendingLegacy.shift();
      if (call) {
        call.output = typeof m.content === 'string' ? m.content : textOf(m.content);
        call.status = 'ok';
        turns.push({ role: 'tool', call });
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
  if (!isObj(unit.value)) return [];
  const out: ToolDescriptor[] = [];
  const tools = unit.value.tools;
  if (Array.isArray(tools)) {
    tools.forEach((t, i) => {
      const tp = at('$.tools', i);
      if (!isObj(t))
        throw new UnitProblem(tp, `expected a tool {"type": "function", "function": {...}}, found ${kind(t)}`);
      const f = isObj(t.function) ? t.function : t;
      const fp = isObj(t.function) ? at(tp, 'function') : tp;
      out.push(descriptor(requireString(f, 'name', fp, 'the tool name'), f.description, f.parameters));
    });
  }
  const functions = unit.value.functions;
  if (Array.isArray(functions)) {
    functions.forEach((f, i) => {
      const fp = at('$.functions', i);
      if (!isObj(f)) throw new UnitProblem(fp, `expected a function {"name", "parameters"}, found ${kind(f)}`);
      out.push(descriptor(requireString(f, 'name', fp, 'the function name'), f.description, f.parameters));
    });
  }
  return out;
}
