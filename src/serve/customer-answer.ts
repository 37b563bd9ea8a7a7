import type { Workflow } from '../graph/schema.js';
import { handOff, partsFor, type PartFit } from '../retrieval/hand-off.js';
import { requestClauses } from '../text/clauses.js';
import { awaitsApproval } from '../contracts/tools.js';
import type { Trace } from '../runtime/trace.js';

/**
 * What a served run says to the person who asked (`serve`'s `answer` and error message): their
 * request's words, never the workflow's insides.
 *
 * - No sentence names a node of the workflow or a step by number: a sentence of the run's answer
 *   that does (the offline synthesizer's "Step route_1_step_1 made no call", a model echoing a
 *   node's `[id]` heading) is left out. Node ids that are plain words (`plan`, `answer`) are
 *   only left out where they are written as ids: `Step <id>`, `[<id>]`, `node '<id>'`.
 * - A part of the request the run could not serve is said in the request's words: the parts the
 *   hand-off gave to each tool step that ran and got no result (retrieval/hand-off.ts, the same
 *   parts the policies planned the step's calls for).
 * - A run served something when a call it made returned, a call awaits approval or was withheld
 *   for an argument the request lacks (the answer says which, and the customer's turn is next), or
 *   it answered with no tool step at all (a workflow that learned when not to call); otherwise it
 *   served nothing and is no `ok` answer.
 */

export interface CustomerAnswer {
  /** The answer to send (see the module comment). */
  text: string;
  /** The parts of the request no call served, as the request words them. */
  unserved: string[];
  /** False when the run served nothing of the request. */
  served: boolean;
}

/** The answer a served run gives (see the module comment); `fit` is the hand-off's fit over the served tools. */
export function customerAnswer(trace: Trace, workflow: Workflow, fit: PartFit): CustomerAnswer {
  const ids = nodeIds(workflow);
  const toolSteps = trace.observations.filter((o) => o.kind === 'tool' && o.status !== 'skipped');
  const returned = (o: (typeof toolSteps)[number]) => (o.calls ?? []).some((c) => c.status === 'ok');
  // A call awaiting approval, or withheld for an argument the request lacks, is answered by saying
  // so (the answer lists it, and why): the run did its part, the customer's turn is next.
  const withheld = new Set((trace.withheld ?? []).map((w) => w.nodeId));
  const pending = (o: (typeof toolSteps)[number]) =>
    withheld.has(o.nodeId) || (o.calls ?? []).some((c) => c.status === 'error' && awaitsApproval(c.error));
  const served = toolSteps.length === 0 || toolSteps.some((o) => returned(o) || pending(o));
  const failedSteps = toolSteps.filter((o) => !returned(o) && !pending(o));
  // A run that served nothing left every part of the request undone; else the parts of the steps
  // that got no result.
  const unserved = served
    ? [...new Set(failedSteps.flatMap((o) => partsFor(handOff(trace.query, workflow, fit, o.nodeId), o.nodeId)))]
    : requestClauses(trace.query);
  const kept = withoutInternals(trace.answer, ids);
  // What was not served comes first when nothing was: the rest only says how the calls failed.
  const sentence = unserved.length > 0 ? [unservedSentence(unserved, served)] : [];
  const lines = served ? [...(kept ? [kept] : []), ...sentence] : [...sentence, ...(kept ? [kept] : [])];
  return { text: lines.join('\n\n'), unserved, served };
}

/** "I could not get this part of your request done: “…”." */
export function unservedSentence(parts: readonly string[], servedSome: boolean): string {
  const quoted = parts.map((p) => `“${p.trim().replace(/[.?!]+$/, '')}”`).join('; ');
  if (!servedSome) return `I could not get your request done: ${quoted}.`;
  return parts.length === 1
    ? `I could not get this part of your request done: ${quoted}.`
    : `I could not get these parts of your request done: ${quoted}.`;
}

/** The workflow's node ids, longest first (an id inside another is matched after it). */
function nodeIds(workflow: Workflow): string[] {
  return workflow.nodes.map((n) => n.id).sort((a, b) => b.length - a.length);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when the text names a node of the workflow or a step by number (see the module comment). */
export function namesInternals(text: string, ids: readonly string[]): boolean {
  if (/\bstep\s*#?\d+\b/i.test(text)) return true;
  for (const id of ids) {
    const e = escape(id);
    if (new RegExp(`\\bstep\\s+['"\`]?${e}\\b|\\[${e}\\]|\\bnode\\s+['"\`]?${e}\\b`, 'i').test(text)) return true;
    // An id that is no plain word (it holds a digit, `_` or `-`) is internal wherever it stands.
    if (/[\d_-]/.test(id) && new RegExp(`(^|[^\\w-])${e}(?![\\w-])`).test(text)) return true;
  }
  return false;
}

/** The text without the paragraphs' sentences that name internals (see `namesInternals`). */
export function withoutInternals(text: string, ids: readonly string[]): string {
  const paragraphs = text.split(/\n{2,}/);
  const kept: string[] = [];
  for (const p of paragraphs) {
    if (!namesInternals(p, ids)) {
      kept.push(p);
      continue;
    }
    // Line by line, then sentence by sentence: keep what does not name one.
    const lines = p
      .split('\n')
      .map((line) =>
        namesInternals(line, ids)
          ? line
              .split(/(?<=[.!?])\s+/)
              .filter((s) => !namesInternals(s, ids))
              .join(' ')
          : line,
      )
      .filter((line) => line.trim() !== '');
    if (lines.length > 0) kept.push(lines.join('\n'));
  }
  return kept.join('\n\n').trim();
}

/** An error message with every node id written as "a step" (errors of nodes name their node). */
export function withoutNodeIds(text: string, workflow: Workflow): string {
  let out = text;
  for (const id of nodeIds(workflow)) {
    const e = escape(id);
    out = out.replace(
      new RegExp(`\\b(?:node|step)\\s+['"\`]${e}['"\`]|\\[${e}\\]|\\b(?:node|step)\\s+${e}\\b`, 'gi'),
      'a step',
    );
    if (/[\d_-]/.test(id)) out = out.replace(new RegExp(`(^|[^\\w-])${e}(?![\\w-])`, 'g'), '$1a step');
  }
  return out.replace(/\bstep\s*#?\d+\b/gi, 'a step');
}
