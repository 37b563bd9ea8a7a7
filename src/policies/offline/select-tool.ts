import type { ToolNode } from '../../graph/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { listedTools } from '../hand-off.js';
import type { CueModel } from './cue-model.js';
import { MAX_REQUEST_PARTS, requestClauses } from './text.js';
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
 * - BM25 of the node's task, weight 0.3 when there is a clause and the position lists at most one
 *   tool (a task names the tool a position was made for; the clause says what this request asks
 *   there). A position that lists several (`listedTools`: its `mined` tools, a `tools` hint of
 *   several) has them as its prior instead: its task is written from one of them and pulled every
 *   part towards that one (D_val, G0 mean TC over the bundled domains, seeds 0-2: 0.412 -> 0.419);
 * - the sequence prior learned from D_opt: the share of the tool among the tools that followed the
 *   tool called just before (or opened a log), weight 0.6 — it decides between tools the clause fits
 *   about equally, and cannot overturn a clause preference larger than 0.6 of the top clause score
 *   (measured on D_val with the index learned from D_opt: top-1 accuracy per clause 0.83–0.89 by the
 *   clause alone, 0.89–0.94 with this prior; the whole request as a prior lowered it);
 * - the node's `mined` tools (the tools the runs used at this mined position), weight 0.3: a tool
 *   the runs used here wins over one the clause fits up to 0.3 of the top clause score better
 *   (D_val as above: 0.405 at 0.1, 0.410 at 0.3, 0.408 at 0.2 and at 0.4, 0.403 at 0.6; weighting
 *   the list by its order lowered it);
 * - how often the records used the tool, weight 0.1, at a position that lists at most one tool (at
 *   one that lists several, its own record replaces this global prior: D_val G0 0.443 -> 0.444,
 *   FlowScout 0.448 -> 0.450, NoMiner 0.430 unchanged).
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
export const RANK_WEIGHTS = { task: 0.3, follows: 0.6, mined: 0.3, popularity: 0.1, wholeWithoutClause: 0.5 };

function normalise(list: ReadonlyArray<{ name: string; score: number }>): Map<string, number> {
  const max = Math.max(0, ...list.map((x) => x.score));
  return new Map(list.map((x) => [x.name, max > 0 ? x.score / max : 0]));
}

/** Candidates ranked by score, best first. */
export function rankTools(
  input: SelectionInput,
  index: ToolIndex,
  model: CueModel,
): Array<{ name: string; score: number }> {
  const names = input.candidates.map((c) => c.name);
  if (names.length <= 1) return names.map((name) => ({ name, score: 1 }));
  const w = RANK_WEIGHTS;
  const hasClause = input.clause !== undefined;
  const focused = normalise(index.rank(hasClause ? input.clause! : input.node.task, names));
  // A position that lists several tools has them as its prior: its task names only one of them, and
  // how often the records used each tool overall is what its own record says better.
  const listsSeveral = listedTools(input.node).length > 1;
  const byTask = hasClause && !listsSeveral;
  const task = byTask ? normalise(index.rank(input.node.task, names)) : new Map<string, number>();
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
      (!listsSeveral && maxUses > 0 ? (w.popularity * (model.tools.get(name)?.uses ?? 0)) / maxUses : 0),
  }));
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.map(({ name, score }) => ({ name, score }));
}

/** Per request: for every tool, the clause where it ranks best (first such clause on ties). */
export interface ClauseFocus {
  clauses: readonly string[];
  best: ReadonlyMap<string, string>;
}

// The index of one request's clauses, kept per tool index for the few requests in flight (each clause ranked once per request).
const focusMemo = new WeakMap<ToolIndex, Map<string, ClauseFocus>>();
const FOCUS_MEMO_SIZE = 64;

/** Ranks each of the request's clauses once (the first `MAX_REQUEST_PARTS`) and keeps, per tool, the clause with its best share of the top score. */
export function clauseFocus(query: string, candidates: readonly string[], index: ToolIndex): ClauseFocus {
  let memo = focusMemo.get(index);
  if (!memo) focusMemo.set(index, (memo = new Map()));
  const key = `${candidates.join('\u0001')}\u0000${query}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const clauses = requestClauses(query).slice(0, MAX_REQUEST_PARTS);
  const best = new Map<string, string>();
  const shares = new Map<string, number>();
  if (clauses.length >= 2) {
    for (const c of clauses) {
      const ranked = index.rank(c, candidates);
      const top = ranked[0]?.score ?? 0;
      if (top <= 0) continue;
      for (const r of ranked) {
        const share = r.score / top;
        if (share > 0 && share > (shares.get(r.name) ?? 0)) {
          shares.set(r.name, share);
          best.set(r.name, c);
        }
      }
    }
  }
  const focus = { clauses, best };
  if (memo.size >= FOCUS_MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(key, focus);
  return focus;
}

/** Spans of the query clauses that speak about `tool` for this call: the call's clause and the clause where the tool ranks best. */
export function focusSpans(
  query: string,
  clause: string | undefined,
  tool: string,
  candidates: readonly string[],
  index: ToolIndex,
): Array<[number, number]> {
  const focus = clauseFocus(query, candidates, index);
  if (focus.clauses.length < 2) return [];
  const chosen = new Set<string>();
  if (clause) chosen.add(clause);
  const best = focus.best.get(tool);
  if (best !== undefined) chosen.add(best);
  const spans: Array<[number, number]> = [];
  for (const c of chosen) {
    const at = query.indexOf(c);
    if (at >= 0) spans.push([at, at + c.length]);
  }
  return spans;
}
