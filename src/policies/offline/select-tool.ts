import { hintFor } from '../../graph/hints.js';
import type { ToolNode, Workflow } from '../../graph/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { listedTools } from '../../retrieval/hand-off.js';
import { MAX_REQUEST_PARTS, requestClauses } from '../../text/clauses.js';
import type { ToolIndex } from '../../retrieval/tool-index.js';
import { remember } from '../../util/remember.js';

/**
 * Which tool a tool node calls for the part of the request it serves, under the offline policy
 * (docs/DESIGN.md, "Policies"). Which clauses of the request a position reads is the
 * plan-to-position hand-off (retrieval/hand-off.ts, shared with the LLM policy). Candidates are
 * scored, each part normalised to [0, 1]:
 * - BM25 of the clause (of the node's task and the whole request when it has no clause), weight 1,
 *   over T and the words the workflow's hints say requests use for each tool (retrieval/workflow-index.ts);
 * - BM25 of the node's task, weight `task`, when there is a clause and the position lists at most
 *   one tool (a task names the tool a position was made for; a position that lists several has them
 *   as its prior instead);
 * - `follows`: how often the hint for each candidate (graph/hints.ts) says the tool called just
 *   before (or `^`, none) came before it, over the calls it was learned from (`uses`), as a share of
 *   that over the candidates: a tool seldom called that always opens a run is still seldom the opener;
 * - `mined`: the tool is one the runs used at this mined position;
 * - `hinted`: the step has a hint for the tool, at a position that lists at most one tool;
 * - `usual`: how often the tool was called, by its hint's `uses` (log-scaled, a share of the most).
 * Ties go to the candidate listed first.
 */

export interface SelectionInput {
  node: ToolNode;
  workflow: Workflow;
  query: string;
  /** The clause the node serves (undefined: the node's task and the whole request decide). */
  clause: string | undefined;
  candidates: readonly ToolDescriptor[];
  /** The tool called most recently upstream (undefined at the start). */
  previousTool: string | undefined;
}

/** The weights of the ranking (see the module comment). */
export const RANK_WEIGHTS = { task: 0.3, follows: 0.6, mined: 0.3, hinted: 0.1, usual: 0.4, wholeWithoutClause: 0.5 };

function normalise(list: ReadonlyArray<{ name: string; score: number }>): Map<string, number> {
  const max = Math.max(0, ...list.map((x) => x.score));
  return new Map(list.map((x) => [x.name, max > 0 ? x.score / max : 0]));
}

/** Candidates ranked by score, best first. */
export function rankTools(input: SelectionInput, index: ToolIndex): Array<{ name: string; score: number }> {
  const names = input.candidates.map((c) => c.name);
  if (names.length <= 1) return names.map((name) => ({ name, score: 1 }));
  const w = RANK_WEIGHTS;
  const hasClause = input.clause !== undefined;
  const focused = normalise(index.rank(hasClause ? input.clause! : input.node.task, names));
  const listsSeveral = listedTools(input.node).length > 1;
  const task = hasClause && !listsSeveral ? normalise(index.rank(input.node.task, names)) : new Map<string, number>();
  const whole = hasClause ? new Map<string, number>() : normalise(index.rank(input.query, names));
  const mined = new Set(input.node.mined ?? []);
  const own = new Set((input.node.hints ?? []).map((h) => h.tool));
  const [prev, hint] = [input.previousTool ?? '^', (n: string) => hintFor(input.workflow, input.node, n)];
  const follows = new Map(names.map((n) => [n, (hint(n)?.follows?.[prev] ?? 0) * (hint(n)?.uses ?? 1)]));
  const followTotal = [...follows.values()].reduce((a, b) => a + b, 0);
  const uses = new Map(names.map((n) => [n, Math.log1p(hint(n)?.uses ?? 0)]));
  const maxUses = Math.max(...uses.values());
  const scored = names.map((name, i) => ({
    ...{ name, i },
    score:
      (focused.get(name) ?? 0) +
      w.task * (task.get(name) ?? 0) +
      w.wholeWithoutClause * (whole.get(name) ?? 0) +
      (mined.has(name) ? w.mined : 0) +
      (followTotal > 0 ? (w.follows * follows.get(name)!) / followTotal : 0) +
      (!listsSeveral && own.has(name) ? w.hinted : 0) +
      (maxUses > 0 ? (w.usual * uses.get(name)!) / maxUses : 0),
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
  return remember(memo, `${candidates.join('\u0001')}\u0000${query}`, FOCUS_MEMO_SIZE, () => {
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
    return { clauses, best };
  });
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
  const chosen = new Set([clause, focus.best.get(tool)].filter((c): c is string => c !== undefined && c !== ''));
  const spans: Array<[number, number]> = [];
  for (const c of chosen) {
    const at = query.indexOf(c);
    if (at >= 0) spans.push([at, at + c.length]);
  }
  return spans;
}
