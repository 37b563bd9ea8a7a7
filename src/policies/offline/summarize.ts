import { awaitsApproval } from '../../contracts/tools.js';
import type { NodeInput } from '../types.js';
import { outputPairs } from '../../dataflow/output-value.js';

/**
 * Readable summaries of tool results for the offline policy's synthesize and pass-through rules
 * (docs/DESIGN.md, "Policies": "the synthesizer writes a template answer that follows its
 * `directives`"). Tool responses are often Python literals cut at 2048 characters (docs/DESIGN.md,
 * "Data formats" §8), so they are read as data where they parse and as key/value pairs where they
 * are cut (dataflow/output-value.ts): the first scalar fields (names and numbers kept as they are)
 * become "key: value" phrases, and a cut response is marked as truncated.
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
      out.push({
        tool: c.tool,
        args: c.args ?? {},
        status: c.status ?? 'ok',
        ...(c.output !== undefined ? { output: c.output } : {}),
        ...(c.error !== undefined ? { error: c.error } : {}),
      });
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

/** A value on one line, cut to `max` characters with …. */
export function phrase(value: string, max = 80): string {
  const v = value.replace(/\s+/g, ' ').trim();
  return v.length > max ? `${v.slice(0, max - 3)}…` : v;
}

/**
 * The informative scalar fields of a response, in order, each `key=value` once (empty values, `None`
 * and links dropped); text is read as the JSON or Python literal it holds (dataflow/output-value.ts).
 */
export function resultFacts(output: unknown, limit = 200): Array<{ key: string; value: string }> {
  const pairs = outputPairs(output, limit);
  const seen = new Set<string>();
  return pairs.filter((p) => {
    const k = `${p.key}=${p.value}`;
    if (p.value.trim() === '' || p.value === 'None' || /^https?:/.test(p.value) || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** "key: value; key: value" from the first informative scalar fields of a response (at most `max`). */
export function summarizeOutput(output: unknown, max = 8): string {
  if (output === undefined || output === null || output === '') return 'no data returned';
  if (typeof output === 'string' && !/^[\s[{]/.test(output))
    return phrase(output.length > 300 ? `${output.slice(0, 297)}…` : output);
  const facts = resultFacts(output);
  const picked = facts.slice(0, max).map((p) => `${p.key}: ${phrase(p.value)}`);
  if (picked.length === 0) return typeof output === 'string' ? phrase(output.slice(0, 200)) : 'an empty result';
  const more = facts.length > picked.length ? ' (and more)' : '';
  return `${picked.join('; ')}${more}`;
}

/** `review_rating` / `reviewRating` / `1. Information` → "review rating" / "information". */
export function plain(key: string): string {
  return key
    .replace(/^\d+[.:]\s*/, '')
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
}

/** A call's tool as words and its arguments (`plainKeys`: their names as words too): "Get user details (user_id: …)". */
export function callHeading(call: SeenCall, plainKeys = false): string {
  const name = humanToolName(call.tool);
  const head = name ? name[0]!.toUpperCase() + name.slice(1) : call.tool;
  const args = Object.entries(call.args).map(
    ([k, v]) => `${plainKeys ? plain(k) : k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`,
  );
  return args.length > 0 ? `${head} (${args.join(', ')})` : head;
}

/** What an answer says of a destructive call held for approval: it was not made, and it did not fail. */
export const AWAITING_APPROVAL = 'awaits approval: not made yet (serve --allow destructive makes such calls).';

/** One paragraph per call: what was asked, what came back (or the error, or that it awaits approval), and whether it was cut. */
export function describeCall(call: SeenCall): string {
  const head = callHeading(call);
  if (call.status === 'error' && awaitsApproval(call.error)) return `${head}: ${AWAITING_APPROVAL}`;
  if (call.status === 'error')
    return `${head}: the call failed (${phrase(call.error ?? String(call.output ?? 'error'))}), so this part could not be answered.`;
  const cut = isTruncated(call.output) ? ' The response was truncated, so only its first part is shown.' : '';
  return `${head}: ${summarizeOutput(call.output)}.${cut}`;
}
