import type { ToolNode } from '../../graph/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { CueModel } from './cue-model.js';
import { requestClauses } from './text.js';
import type { ToolIndex } from './tool-index.js';

/**
 * Which part of the request a tool node serves, and which tool it calls for it, under the offline
 * policy (docs/DESIGN.md, "Policies").
 *
 * **Parts.** Which clauses of the request ("first …, then …, finally …", `requestClauses`) a
 * position reads is the plan-to-position hand-off (`../hand-off.ts`, shared with the LLM policy):
 * parts go to positions in order, each to the position whose tools fit it, one per position except
 * for repeating (`calls: 'many'`) positions, which make one call per part.
 *
 * **Tools.** Scored per candidate, each part normalised to [0, 1]:
 * - BM25 of the clause, weight 1 (of the node's task and the whole request when it has no clause);
 * - BM25 of the node's task, weight 0.3 when there is a clause (a task names the tool a position
 *   was made for; the clause says what this request asks there);
 * - the sequence prior learned from D_opt: the share of the tool among the tools that followed the
 *   tool called just before (or opened a log), weight 0.6 — it decides between tools the clause fits
 *   about equally, and cannot overturn a clause preference larger than 0.6 of the top clause score
 *   (measured on D_val with the index learned from D_opt: top-1 accuracy per clause 0.83–0.89 by the
 *   clause alone, 0.89–0.94 with this prior; the whole request as a prior lowered it);
 * - the node's `mined` tools, weight 0.1, and how often the records used the tool, weight 0.1.
 * The whole request is not a prior when there is a clause: it pulls every position towards the
 * request's dominant tool.
 * Ties go to the candidate listed first.
 */

export interface SelectionInput {
  node: ToolNode;
  query: string;
  /** The clause the node serves (undefined: the node's task and the whole request decide). */
  clause: string | undefined;
  candidates: readonly ToolDescriptor[];
  /** The tool called most recently upstream (undefined at the start). */
  previousTool: string | undefined;
}

/** The weights of the ranking (see the module comment). */
export const RANK_WEIGHTS = { task: 0.3, follows: 0.6, mined: 0.1, popularity: 0.1, wholeWithoutClause: 0.5 };

function normalise(list: ReadonlyArray<{ name: string; score: number }>): Map<string, number> {
  const max = Math.max(0, ...list.map((x) => x.score));
  return new Map(list.map((x) => [x.name, max > 0 ? x.score / max : 0]));
}

/** Candidates ranked by score, best first. */
export function rankTools(input: SelectionInput, index: ToolIndex, model: CueModel): Array<{ name: string; score: number }> {
  const names = input.candidates.map((c) => c.name);
  if (names.length <= 1) return names.map((name) => ({ name, score: 1 }));
  const w = RANK_WEIGHTS;
  const hasClause = input.clause !== undefined;
  const focused = normalise(index.rank(hasClause ? input.clause! : input.node.task, names));
  const task = hasClause ? normalise(index.rank(input.node.task, names)) : new Map<string, number>();
  const whole = hasClause ? new Map<string, number>() : normalise(index.rank(input.query, names));
  const mined = new Set(input.node.mined ?? []);
  const prevKey = input.previousTool ?? '^';
  const follows = new Map<string, number>();
  let followTotal = 0;
  for (const name of names) {
    const n = model.tools.get(name)?.previous.get(prevKey) ?? 0;
    follows.set(name, n);
    followTotal += n;
  }
  const maxUses = Math.max(0, ...names.map((n) => model.tools.get(n)?.uses ?? 0));
  const scored = names.map((name, i) => ({
    name,
    i,
    score:
      (focused.get(name) ?? 0) +
      w.task * (task.get(name) ?? 0) +
      w.wholeWithoutClause * (whole.get(name) ?? 0) +
      (mined.has(name) ? w.mined : 0) +
      (followTotal > 0 ? (w.follows * (follows.get(name) ?? 0)) / followTotal : 0) +
      (maxUses > 0 ? (w.popularity * (model.tools.get(name)?.uses ?? 0)) / maxUses : 0),
  }));
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.map(({ name, score }) => ({ name, score }));
}

/** Spans of the query clauses that speak about `tool` for this call: the call's clause and the clause where the tool ranks best. */
export function focusSpans(query: string, clause: string | undefined, tool: string, candidates: readonly string[], index: ToolIndex): Array<[number, number]> {
  const clauses = requestClauses(query);
  if (clauses.length < 2) return [];
  const chosen = new Set<string>();
  if (clause) chosen.add(clause);
  let best: { clause: string; share: number } | undefined;
  for (const c of clauses) {
    const ranked = index.rank(c, candidates);
    const top = ranked[0]?.score ?? 0;
    const mine = ranked.find((r) => r.name === tool)?.score ?? 0;
    const share = top > 0 ? mine / top : 0;
    if (share > 0 && (!best || share > best.share)) best = { clause: c, share };
  }
  if (best) chosen.add(best.clause);
  const spans: Array<[number, number]> = [];
  for (const c of chosen) {
    const at = query.indexOf(c);
    if (at >= 0) spans.push([at, at + c.length]);
  }
  return spans;
}
