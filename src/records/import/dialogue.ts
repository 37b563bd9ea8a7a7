import { FlowScoutError } from '../../errors/index.js';
import type { Call, Turn } from '../schema.js';

/**
 * The rules that turn a dialogue into a record, the same for every agent-log format:
 *
 * - **query**: the user's turns in order, framework stop tokens removed (`###STOP###`, `<|endoftext|>`,
 *   `[DONE]`, a closing `TERMINATE`), joined with a marker line between turns when there are several;
 * - **reference answer**: the assistant texts after the last tool result that carry content words
 *   beyond greetings, thanks and closing formulas (`referenceOf`); none when the run ended in a tool
 *   call (a hand-off, a final write) or said only pleasantries after its last call;
 * - **errors returned as text**: a tool output that is an error by its content (`isErrorOutput`);
 * - **turns**: a multi-turn record keeps its user and assistant texts, calls and tool results (`recordTurns`).
 */

/** A turn as the parsers read it; a call object is shared with the conversation's calls. */
export type DialogueTurn<C> =
  { role: 'user'; text: string } | { role: 'assistant'; text: string; calls: C[] } | { role: 'tool'; call: C };

/** Shown between the user's turns in a multi-turn query. */
export const TURN_MARKER = '\n--- next user turn ---\n';

const STOP_TOKENS = [
  /#{2,}\s*[A-Z][A-Z_ ]*[A-Z]\s*#{2,}/g,
  /<\|[a-z_]+\|>/gi,
  /\[(?:DONE|END|STOP)\]/g,
  /<\/?s>/g,
  /\bTERMINATE\s*$/,
];

/** A user turn without framework stop tokens and surrounding blanks. */
export function cleanUserText(text: string): string {
  let t = text;
  for (const re of STOP_TOKENS) t = t.replace(re, ' ');
  return t
    .replace(/[ \t]+\n/g, '\n')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** The query of a dialogue: its cleaned user turns, with a marker line between them. */
export function queryOf(userTexts: readonly string[]): string {
  return userTexts.map(cleanUserText).filter(Boolean).join(TURN_MARKER);
}

/**
 * Words of greetings, thanks, offers of more help and goodbyes, and the function words around them:
 * a text made only of these carries no outcome ("You're welcome! Have a great day!", "Is there
 * anything else I can help you with?").
 */
const CLOSING_WORDS = new Set(
  (
    'a an the and or but so if then to of for in on at with by from as is are was were be been being am do does did have has had having ' +
    'i me my mine we us our you your yours it its this that there here he she they them their s re ll ve d m t not no yes yeah ok okay sure ' +
    'can could will would shall should may might must let please thank thanks thankyou welcome hi hello hey dear good great nice wonderful ' +
    'lovely fantastic excellent glad happy pleasure day days evening morning afternoon night weekend bye goodbye farewell care cheers ' +
    'help helping helped assist assisting assistance anything else other further more questions question need needs feel free hesitate reach ' +
    'out again time today all everything just also really very much what how else know further problem worries worry enjoy best regards ' +
    'wish wishes hope hoping see soon talk later ask asking'
  ).split(/\s+/),
);

/** True when the text has a word beyond greetings, thanks and closing formulas (a number counts). */
export function hasContent(text: string): boolean {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.some((w) => /\d/.test(w) || !CLOSING_WORDS.has(w));
}

/** How the reference answer of one dialogue was found. */
export interface ReferenceChoice {
  /** The reference, or undefined when there is none. */
  answer?: string;
  /** `chosen`: content after the last tool result; `ends-in-call`: no assistant text after the last call; `closing-only`: only pleasantries after it. */
  how: 'chosen' | 'ends-in-call' | 'closing-only';
  /** Assistant texts after the last call left out as closing formulas. */
  passedOver: number;
}

/**
 * The reference answer: the assistant texts after the last tool call and its result that carry
 * content words beyond greetings and thanks, joined by newlines (see the module comment).
 */
export function referenceOf<C>(turns: ReadonlyArray<DialogueTurn<C>>): ReferenceChoice {
  let last = -1;
  turns.forEach((t, i) => {
    if (t.role === 'tool' || (t.role === 'assistant' && t.calls.length > 0)) last = i;
  });
  const after = turns
    .slice(last + 1)
    .filter(
      (t): t is Extract<DialogueTurn<C>, { role: 'assistant' }> => t.role === 'assistant' && t.text.trim() !== '',
    );
  if (after.length === 0) return { how: 'ends-in-call', passedOver: 0 };
  const content = after.filter((t) => hasContent(t.text));
  if (content.length === 0) return { how: 'closing-only', passedOver: after.length };
  return {
    answer: content.map((t) => t.text.trim()).join('\n'),
    how: 'chosen',
    passedOver: after.length - content.length,
  };
}

const ERROR_TEXT = /^\s*(?:error\b|exception\b|traceback \(most recent call last\))/i;
const ERROR_SIDE_KEYS = new Set([
  'error',
  'message',
  'code',
  'status',
  'status_code',
  'details',
  'detail',
  'type',
  'success',
  'ok',
]);

/**
 * True when a tool output is an error by its content: a string starting with `Error`, `error:`,
 * `Exception` or a Python traceback (or matching `pattern`), or an object whose only or main key is
 * a non-empty `error` (the others only say more about it: message, code, status, details) — also
 * when the string holds such an object as JSON.
 */
export function isErrorOutput(output: unknown, pattern?: RegExp): boolean {
  if (typeof output === 'string') {
    if (ERROR_TEXT.test(output) || (pattern !== undefined && pattern.test(output))) return true;
    const t = output.trim();
    if (t.startsWith('{') && t.endsWith('}')) {
      try {
        return isErrorObject(JSON.parse(t));
      } catch {
        return false;
      }
    }
    return false;
  }
  if (
    pattern !== undefined &&
    output !== undefined &&
    typeof output === 'object' &&
    output !== null &&
    pattern.test(JSON.stringify(output))
  )
    return true;
  return isErrorObject(output);
}

function isErrorObject(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  const e = o.error;
  if (e === undefined || e === null || e === false || e === '') return false;
  return Object.keys(o).every((k) => ERROR_SIDE_KEYS.has(k));
}

/** The record's turns: user and assistant texts, the calls each assistant turn made, and each tool result. */
export function recordTurns(turns: ReadonlyArray<DialogueTurn<Call>>): Turn[] {
  return turns.map((t): Turn => {
    if (t.role === 'user') return { role: 'user', text: t.text };
    if (t.role === 'assistant')
      return {
        role: 'assistant',
        ...(t.text ? { text: t.text } : {}),
        ...(t.calls.length ? { calls: t.calls.map((c) => ({ tool: c.tool, args: c.args })) } : {}),
      };
    return {
      role: 'tool',
      tool: t.call.tool,
      ...(t.call.output !== undefined ? { output: t.call.output } : {}),
      status: t.call.status,
    };
  });
}

/** The `--error-pattern` option as the case-insensitive pattern `isErrorOutput` also reads, or INVALID_INPUT. */
export function parseErrorPattern(text: string): RegExp {
  try {
    return new RegExp(text, 'i');
  } catch (e) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--error-pattern '${text}' is not a regular expression: ${e instanceof Error ? e.message : String(e)}`,
      hint: 'Give a JavaScript regular expression, e.g. --error-pattern "^(failed|not found)".',
    });
  }
}
