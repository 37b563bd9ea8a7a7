import { isSynthesizeDirective, type SynthesizeDirective } from '../../graph/synthesize-variants.js';
import { stableStringify } from '../../contracts/canonical-args.js';
import type { LlmNodeRequest, NodeInput } from '../types.js';
import { awaitsApproval } from '../../contracts/tools.js';
import {
  AWAITING_APPROVAL,
  callsOf,
  callHeading,
  describeCall,
  isTruncated,
  plain,
  phrase,
  resultFacts,
  type SeenCall,
} from './summarize.js';

/**
 * The offline synthesizer follows its node's directives (docs/DESIGN.md, "Policies",
 * and the optimizer's "refine the synthesizer prompt" edit of "Search"). A real model reads the
 * directive sentences appended to a synthesize prompt (graph/node-prompt.ts); the offline policy
 * reads the node's `directives` field, ids of the template library (`SYNTHESIZE_DIRECTIVES` in
 * graph/synthesize-variants.ts), and renders the answer deterministically as each directive asks.
 * It never reads the prompt text: a synthesizer written before nodes had the field, whose directive
 * sentences are only in its prompt, renders as the default.
 *
 * | directive | rendering |
 * | --- | --- |
 * | (none) | the default: a lead line, one paragraph per call (up to 8 `key: value` facts), failed calls with their error, steps without a call, and intermediate notes (judge / extract outputs) |
 * | `answer-first` | a first sentence with the first two facts of each of the first four results, before the lead line |
 * | `results-only` | no intermediate notes; a call repeated with the same arguments is reported once |
 * | `every-result` | failed lookups are reported (undoes `answered-only`) |
 * | `answered-only` | failed calls and steps without a call are left out |
 * | `failures-brief` | a failed call is one sentence, "<what> could not be retrieved." (no error text); steps without a call are left out |
 * | `one-fact-per-line` | each result is a heading line and one `- key: value` line per fact |
 * | `all-figures` | up to 24 facts per result, values up to 160 characters (`key: value; …` unless one per line) |
 * | `brief` | up to 4 facts per result (likewise) |
 * | `plain-words` | field and argument names as words (`reviewRating` → "review rating"; likewise) |
 *
 * Directives that set the same thing: the one listed later wins. No rendering restates the request
 * (a request's words are not results): with nothing to report, a prompt with directives says only
 * that no results came in (the default keeps its historical wording, which quotes the request).
 * The default rendering is the one the baselines' synthesizer uses (ReAct's prompt has no
 * directives), so a searched prompt is the only way an answer changes.
 */

/** How an answer is written; what the directives set. */
export interface AnswerStyle {
  lead: 'generic' | 'key-facts';
  notes: boolean;
  dedupe: boolean;
  coverage: 'all' | 'answered';
  failures: 'detail' | 'brief';
  /** `classic`: the default paragraph (`describeCall`); `paragraph`: `key: value; …` with the style's fact count and names; `lines`: one fact per line. */
  format: 'classic' | 'paragraph' | 'lines';
  facts: number;
  valueChars: number;
  plainKeys: boolean;
}

/** The rendering of a prompt without directives. */
export const DEFAULT_STYLE: Readonly<AnswerStyle> = {
  lead: 'generic',
  notes: true,
  dedupe: false,
  coverage: 'all',
  failures: 'detail',
  format: 'classic',
  facts: 8,
  valueChars: 80,
  plainKeys: false,
};

const tabular = (s: AnswerStyle): AnswerStyle['format'] => (s.format === 'classic' ? 'paragraph' : s.format);

const EFFECTS: Record<SynthesizeDirective, (s: AnswerStyle) => Partial<AnswerStyle>> = {
  'answer-first': () => ({ lead: 'key-facts' }),
  'results-only': () => ({ notes: false, dedupe: true }),
  'every-result': () => ({ coverage: 'all' }),
  'answered-only': () => ({ coverage: 'answered' }),
  'failures-brief': () => ({ failures: 'brief' }),
  'one-fact-per-line': () => ({ format: 'lines' }),
  'all-figures': (s) => ({ format: tabular(s), facts: 24, valueChars: 160 }),
  brief: (s) => ({ format: tabular(s), facts: 4, valueChars: 80 }),
  'plain-words': (s) => ({ format: tabular(s), plainKeys: true }),
};

/** The style directives ask for, and the known ones among them (empty: the default). */
export function answerStyle(ids: readonly string[]): { style: AnswerStyle; directives: SynthesizeDirective[] } {
  const directives = ids.filter(isSynthesizeDirective);
  const style = directives.reduce<AnswerStyle>((s, d) => ({ ...s, ...EFFECTS[d](s) }), { ...DEFAULT_STYLE });
  return { style, directives };
}

const LEAD = 'Here is what the tools returned for your request.';

function factsOf(call: SeenCall, s: AnswerStyle): string[] {
  return resultFacts(call.output)
    .slice(0, s.facts)
    .map((f) => `${s.plainKeys ? plain(f.key) || f.key : f.key}: ${phrase(f.value, s.valueChars)}`);
}

function renderCall(call: SeenCall, s: AnswerStyle): string | undefined {
  // A call held for approval is said in every style: the user has to approve it.
  if (call.status === 'error' && awaitsApproval(call.error))
    return `${callHeading(call, s.plainKeys)}: ${AWAITING_APPROVAL}`;
  if (call.status === 'error') {
    if (s.coverage === 'answered') return undefined;
    return s.failures === 'brief' ? `${callHeading(call, s.plainKeys)} could not be retrieved.` : describeCall(call);
  }
  if (s.format === 'classic') return describeCall(call);
  const facts = factsOf(call, s);
  const cut = isTruncated(call.output) ? 'The response was truncated, so only its first part is shown.' : '';
  if (facts.length === 0) {
    const raw =
      call.output === undefined || call.output === null || call.output === ''
        ? 'no data returned'
        : typeof call.output === 'string'
          ? phrase(call.output, 200)
          : 'an empty result';
    if (s.coverage === 'answered' && raw === 'no data returned') return undefined;
    return `${callHeading(call, s.plainKeys)}: ${raw}.${cut ? ` ${cut}` : ''}`;
  }
  if (s.format === 'lines')
    return [`${callHeading(call, s.plainKeys)}:`, ...facts.map((f) => `- ${f}`), ...(cut ? [cut] : [])].join('\n');
  return `${callHeading(call, s.plainKeys)}: ${facts.join('; ')}.${cut ? ` ${cut}` : ''}`;
}

/** The paragraphs of an answer in a style: one per call (and per note or empty step when kept). */
function paragraphs(inputs: readonly NodeInput[], s: AnswerStyle): { text: string; call?: SeenCall }[] {
  const out: { text: string; call?: SeenCall }[] = [];
  const seen = new Set<string>();
  for (const input of inputs) {
    if (input.kind === 'tool') {
      const calls = callsOf(input);
      if (calls.length === 0 && s.coverage === 'all' && s.failures === 'detail')
        out.push({ text: `Step ${input.nodeId} made no call${input.status === 'error' ? ' (it failed)' : ''}.` });
      for (const c of calls) {
        const key = `${c.tool}\u0000${stableStringify(c.args)}`;
        if (s.dedupe && seen.has(key)) continue;
        seen.add(key);
        const text = renderCall(c, s);
        if (text) out.push({ text, call: c });
      }
    } else if (s.notes) {
      if (typeof input.output === 'string') {
        if (input.role !== 'plan' && input.output.trim()) out.push({ text: input.output.trim() });
      } else if (input.output !== undefined) out.push({ text: JSON.stringify(input.output) });
    }
  }
  return out;
}

function keyFacts(parts: readonly { call?: SeenCall }[]): string {
  const bits = parts
    .filter((p) => p.call?.status === 'ok')
    .slice(0, 4)
    .map((p) =>
      resultFacts(p.call!.output)
        .slice(0, 2)
        .map((f) => phrase(f.value, 40))
        .join(', '),
    )
    .filter((b) => b.length > 0);
  return bits.length > 0 ? `In short: ${bits.join('; ')}.` : 'None of the lookups returned a result.';
}

/** The synthesized answer for a request in the style its node's directives ask for (see the module comment). */
export function synthesizeAnswer(
  req: Pick<LlmNodeRequest, 'query' | 'inputs'> & { node?: { directives?: readonly string[] } },
): string {
  const { style, directives } = answerStyle(req.node?.directives ?? []);
  const parts = paragraphs(req.inputs, style);
  if (parts.length === 0)
    return directives.length === 0
      ? `No tool results were available to answer: ${req.query}`
      : 'No tool results came in for this request.';
  const lead = style.lead === 'key-facts' ? [keyFacts(parts), LEAD] : [LEAD];
  return [...lead, ...parts.map((p) => p.text)].join('\n\n');
}
