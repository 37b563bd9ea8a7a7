import type { NodeInput } from '../types.js';
import { outputPairs } from './value-candidates.js';

/**
 * Readable summaries of tool results for the offline policy's synthesize and pass-through rules
 * (DESIGN.md, "Offline policy": "synthesize: a readable template over the tool results"). Tool
 * responses are often Python literals cut at 2048 characters (FORMATS.md §8), so they are read with
 * a pattern rather than parsed: the first scalar fields (names and numbers kept as they are) become
 * "key: value" phrases, and a cut response is marked as truncated.
 */

/** One call as the synthesizer sees it. */
export interface SeenCall {
  tool: string;
  args: Record<string, unknown>;
  status: 'ok' | 'error';
  output?: unknown;
  error?: string;
}

/** The calls inside a tool node's input (runtime shape `{tool, args, status, output?, error?}[]`). */
export function callsOf(input: NodeInput): SeenCall[] {
  if (input.kind !== 'tool') return [];
  const items = Array.isArray(input.output) ? input.output : [];
  const out: SeenCall[] = [];
  items.forEach((item, i) => {
    if (item && typeof item === 'object' && 'tool' in item) {
      const c = item as SeenCall;
      out.push({ tool: c.tool, args: c.args ?? {}, status: c.status ?? 'ok', ...(c.output !== undefined ? { output: c.output } : {}), ...(c.error !== undefined ? { error: c.error } : {}) });
    } else if (input.calls?.[i]) {
      out.push({ ...input.calls[i]!, output: item });
    }
  });
  if (out.length === 0 && input.calls) for (const c of input.calls) out.push({ ...c });
  return out;
}

/** True when a raw response looks cut off (ToolBench's `...`, TRAJECT's 2048-character cut, unbalanced brackets). */
export function isTruncated(output: unknown): boolean {
  if (typeof output !== 'string') return false;
  const s = output.trimEnd();
  if (s.endsWith('...') || s.endsWith('…')) return true;
  if (!/^[[{]/.test(s)) return false;
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return depth > 0 || quote !== undefined;
}

/** A tool name as words: `get_trip_plan_for_ai_trip_planner` → "get trip plan (ai trip planner)". */
export function humanToolName(name: string): string {
  const [api, parent] = name.split('_for_');
  const w = (s: string) => s.replace(/_/g, ' ').trim();
  return parent ? `${w(api ?? name)} (${w(parent)})` : w(name);
}

function phrase(value: string): string {
  const v = value.replace(/\s+/g, ' ').trim();
  return v.length > 80 ? `${v.slice(0, 77)}…` : v;
}

/** "key: value; key: value" from the first informative scalar fields of a response (at most `max`). */
export function summarizeOutput(output: unknown, max = 8): string {
  if (output === undefined || output === null || output === '') return 'no data returned';
  if (typeof output === 'string' && !/^[\s[{]/.test(output)) return phrase(output.length > 300 ? `${output.slice(0, 297)}…` : output);
  const pairs = outputPairs(output, 200).filter((p) => p.value.trim() !== '' && p.value !== 'None' && !/^https?:/.test(p.value));
  const seen = new Set<string>();
  const picked: string[] = [];
  for (const p of pairs) {
    const k = `${p.key}=${p.value}`;
    if (seen.has(k)) continue;
    seen.add(k);
    picked.push(`${p.key}: ${phrase(p.value)}`);
    if (picked.length >= max) break;
  }
  if (picked.length === 0) return typeof output === 'string' ? phrase(output.slice(0, 200)) : 'an empty result';
  const more = pairs.length > picked.length ? ' (and more)' : '';
  return `${picked.join('; ')}${more}`;
}

function argText(args: Record<string, unknown>): string {
  const parts = Object.entries(args).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** One paragraph per call: what was asked, what came back (or the error), and whether it was cut. */
export function describeCall(call: SeenCall): string {
  const head = `${capitalise(humanToolName(call.tool))}${argText(call.args)}`;
  if (call.status === 'error') return `${head}: the call failed (${phrase(call.error ?? String(call.output ?? 'error'))}), so this part could not be answered.`;
  const cut = isTruncated(call.output) ? ' The response was truncated, so only its first part is shown.' : '';
  return `${head}: ${summarizeOutput(call.output)}.${cut}`;
}

function capitalise(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}
