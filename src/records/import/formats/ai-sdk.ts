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
  type Obj,
} from './common.js';

/**
 * The Vercel AI SDK's messages: a `ModelMessage[]` (what `generateText`'s `response.messages` holds,
 * with the user prompt before it), as an array or as `{"messages": [...]}` (optionally with
 * `"prompt"` / `"system"`), or a result's `{"prompt", "steps": [...], "text"?}`. Calls are the
 * `tool-call` parts (`toolName`, `input`; `args` in AI SDK 4), observations the `tool-result` parts
 * with the same `toolCallId` (`output: {type, value}` in messages, the raw value in steps; an
 * `error-*` output, `isError` or a `tool-error` part → a failed call). Tools, when the line has
 * them, as `{"tools": {name: {description, inputSchema}}}` or an array of `{name, …}`.
 */

export const aiSdkFormat: ConversationFormat = {
  id: 'ai-sdk',
  shape: 'ModelMessage[] (or {"messages": [...]} / {"prompt", "steps": [...]})',
  units: (doc) => conversationUnits(doc, looksLikeMessages),
  conversation: readConversation,
  tools: readTools,
};

interface State {
  query: string[];
  calls: ImportedCall[];
  byId: Map<string, ImportedCall>;
  answer: string | undefined;
  answerPath: string;
  parallelTurns: number;
  turns: Array<DialogueTurn<ImportedCall>>;
}

function readConversation(unit: InputUnit): ParsedConversation {
  const st: State = {
    query: [],
    calls: [],
    byId: new Map(),
    answer: undefined,
    answerPath: '$',
    parallelTurns: 0,
    turns: [],
  };
  let obj: Obj = {};
  if (Array.isArray(unit.value)) readMessages(unit.value, '$', st);
  else if (isObj(unit.value)) {
    obj = unit.value;
    if (typeof obj.prompt === 'string' && obj.prompt.trim()) {
      st.query.push(obj.prompt.trim());
      st.turns.push({ role: 'user', text: obj.prompt.trim() });
    } else if (Array.isArray(obj.prompt)) readMessages(obj.prompt, '$.prompt', st);
    if (Array.isArray(obj.messages)) readMessages(obj.messages, '$.messages', st);
    if (isObj(obj.response) && Array.isArray(obj.response.messages))
      readMessages(obj.response.messages, '$.response.messages', st);
    if (Array.isArray(obj.steps)) readSteps(obj.steps, st);
    if (
      !Array.isArray(obj.messages) &&
      !Array.isArray(obj.steps) &&
      !(isObj(obj.response) && Array.isArray(obj.response.messages))
    ) {
      throw new UnitProblem(
        '$',
        'expected a ModelMessage array, {"messages": [...]} or {"prompt", "steps": [...]}; found none of "messages", "steps" or "response.messages"',
      );
    }
    if (typeof obj.text === 'string' && obj.text.trim() && st.calls.length > 0) {
      st.answer = obj.text;
      st.answerPath = '$.text';
      const last = st.turns[st.turns.length - 1];
      if (!(last?.role === 'assistant' && last.text === obj.text.trim()))
        st.turns.push({ role: 'assistant', text: obj.text.trim(), calls: [] });
    }
  } else throw new UnitProblem('$', `expected a ModelMessage array or an object, found ${kind(unit.value)}`);
  const id = typeof obj.id === 'string' || typeof obj.id === 'number' ? String(obj.id) : undefined;
  return {
    ...(id ? { id } : {}),
    query: st.query.join('\n'),
    ...(st.answer !== undefined ? { answer: st.answer } : {}),
    calls: st.calls,
    paths: { query: '$', calls: '$', answer: st.answerPath },
    turns: st.turns,
    meta: { parallelTurns: st.parallelTurns },
  };
}

function readMessages(messages: unknown[], path: string, st: State): void {
  messages.forEach((m, i) => {
    const mp = at(path, i);
    if (!isObj(m)) throw new UnitProblem(mp, `expected a message object, found ${kind(m)}`);
    const parts: unknown[] =
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (m.role === 'user') {
      const t = textOf(parts).trim();
      if (t) {
        st.query.push(t);
        st.turns.push({ role: 'user', text: t });
      }
    } else if (m.role === 'assistant') readAssistantParts(parts, at(mp, 'content'), st, false);
    else if (m.role === 'tool') {
      parts.forEach((p, j) => {
        if (isObj(p) && p.type === 'tool-result') result(p, at(at(mp, 'content'), j), st, false);
      });
    }
  });
}

function readSteps(steps: unknown[], st: State): void {
  steps.forEach((s, i) => {
    const sp = at('$.steps', i);
    if (!isObj(s)) throw new UnitProblem(sp, `expected a step object, found ${kind(s)}`);
    if (Array.isArray(s.content)) {
      readAssistantParts(s.content, at(sp, 'content'), st, true);
      return;
    }
    // AI SDK 4 steps: toolCalls / toolResults / text.
    const parts: unknown[] = [
      ...(Array.isArray(s.toolCalls) ? s.toolCalls.map((c) => (isObj(c) ? { type: 'tool-call', ...c } : c)) : []),
    ];
    readAssistantParts(parts, at(sp, 'toolCalls'), st, true);
    if (Array.isArray(s.toolResults))
      s.toolResults.forEach(
        (r, j) => isObj(r) && result({ type: 'tool-result', ...r }, at(at(sp, 'toolResults'), j), st, true),
      );
    if (typeof s.text === 'string' && s.text.trim() && parts.length === 0) {
      st.answer = s.text;
      st.answerPath = at(sp, 'text');
      st.turns.push({ role: 'assistant', text: s.text.trim(), calls: [] });
    }
  });
}

function readAssistantParts(parts: unknown[], path: string, st: State, raw: boolean): void {
  const texts: string[] = [];
  const turnCalls: ImportedCall[] = [];
  const results: Array<[Obj, string]> = [];
  let calls = 0;
  parts.forEach((p, j) => {
    const pp = at(path, j);
    if (!isObj(p)) return;
    if (p.type === 'text' && typeof p.text === 'string') texts.push(p.text);
    else if (p.type === 'tool-call') {
      calls++;
      const call: ImportedCall = {
        tool: requireString(p, 'toolName', pp, 'the tool name'),
        args: parseArgs(p.input ?? p.args, at(pp, p.input !== undefined ? 'input' : 'args')),
        status: 'error',
        path: pp,
      };
      st.calls.push(call);
      turnCalls.push(call);
      if (typeof p.toolCallId === 'string') st.byId.set(p.toolCallId, call);
    } else if (p.type === 'tool-result' || p.type === 'tool-error') results.push([p, pp]);
  });
  if (calls > 1) st.parallelTurns++;
  const text = texts.join('\n').trim();
  if (text || turnCalls.length) st.turns.push({ role: 'assistant', text, calls: turnCalls });
  for (const [p, pp] of results) result(p, pp, st, raw);
  if (calls > 0) st.answer = undefined;
  else if (text) {
    st.answer = text;
    st.answerPath = path.replace(/\.content$/, '');
  }
}

const WRAPPED = new Set(['text', 'json', 'error-text', 'error-json', 'content', 'execution-denied']);

function result(p: Obj, path: string, st: State, raw: boolean): void {
  const id = p.toolCallId;
  if (typeof id !== 'string')
    throw new UnitProblem(at(path, 'toolCallId'), 'a tool result needs the toolCallId of the call it answers');
  const call = st.byId.get(id);
  if (!call) throw new UnitProblem(at(path, 'toolCallId'), `no tool-call before this part has toolCallId '${id}'`);
  st.turns.push({ role: 'tool', call });
  if (p.type === 'tool-error') {
    call.status = 'error';
    call.output =
      typeof p.error === 'string'
        ? p.error
        : isObj(p.error) && typeof p.error.message === 'string'
          ? p.error.message
          : p.error;
    return;
  }
  const out = p.output !== undefined ? p.output : p.result;
  if (!raw && isObj(out) && typeof out.type === 'string' && WRAPPED.has(out.type)) {
    call.status = out.type.startsWith('error') || out.type === 'execution-denied' ? 'error' : 'ok';
    call.output =
      out.type === 'content' && Array.isArray(out.value)
        ? textOf(out.value)
        : out.type === 'execution-denied'
          ? (out.reason ?? 'execution denied')
          : out.value;
  } else {
    call.status = p.isError === true ? 'error' : 'ok';
    call.output = out;
  }
}

function readTools(unit: InputUnit): ToolDescriptor[] {
  if (!isObj(unit.value)) return [];
  const tools = unit.value.tools;
  if (Array.isArray(tools)) {
    return tools.map((t, i) => {
      const tp = at('$.tools', i);
      if (!isObj(t))
        throw new UnitProblem(tp, `expected a tool {"name", "description", "inputSchema"}, found ${kind(t)}`);
      return descriptor(requireString(t, 'name', tp, 'the tool name'), t.description, t.inputSchema ?? t.parameters);
    });
  }
  if (isObj(tools)) {
    return Object.entries(tools).map(([name, t]) => {
      const d = isObj(t) ? t : {};
      return descriptor(name, d.description, d.inputSchema ?? d.parameters);
    });
  }
  return [];
}
