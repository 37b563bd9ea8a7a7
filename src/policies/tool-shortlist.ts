import type { Workflow } from '../graph/schema.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { splitClauses } from '../text/clauses.js';
import { createToolIndex, type ToolIndex } from '../retrieval/tool-index.js';
import { workflowIndexes } from '../retrieval/workflow-index.js';

/**
 * Tool shortlists (docs/DESIGN.md, "Policies"; docs/ARCHITECTURE.md, "What a model request costs"):
 * a tool node's plan request lists only the k candidate tools that retrieval ranks highest, with
 * their schemas, instead of all of T. Each tool's retrieval document is its name, description and
 * parameter names, plus the words the workflow's hints say requests use for it (the retrieval layer
 * every policy shares: retrieval/workflow-index.ts); no records are read. The ranking reads the request
 * as a whole plus the best of its clauses ranked one by one, so every step the request asks for
 * brings its own tools up. Mixes that also read the node's task, its LLM predecessors' output or the
 * mined tools ranked worse on D_opt/D_val and were left out. The rest of the candidates stay
 * reachable: the LLM policy sends the full list on the repair round when the model asked for a tool
 * outside the shortlist.
 *
 * The same ranking gives the ReAct baseline its tool list, so both sides of a comparison get the
 * same treatment. `benchmarks/tool-shortlist-recall.ts` measures how often the reference tool is in
 * the shortlist (recall) for k = 5, 10, 13, 20, 40; the default k was chosen there on D_val as the
 * smallest k (5 to 40) whose recall was at least 0.95 on every bundled domain, for the workflow
 * positions and the ReAct list alike. On today's G0 that rule picks no k up to 40 (about 0.75 at
 * 13): docs/guides/models.md says why 13 stays.
 */

/** The default shortlist size (see the module comment). */
export const DEFAULT_SHORTLIST_SIZE = 13;

/** What a tool node's ranking reads. */
export interface ShortlistInput {
  query: string;
  candidates: readonly ToolDescriptor[];
  /** The workflow the node belongs to: its hints' words expand the tools' documents. */
  workflow?: Workflow;
}

export interface ToolShortlister {
  /** All candidates, best first for the request (ties keep the candidates' order). */
  rank(input: ShortlistInput): ToolDescriptor[];
  /** The best `k` candidates (all of them when there are at most k). */
  shortlist(input: ShortlistInput, k: number): ToolDescriptor[];
  /** The ReAct baseline's list: the `k` tools of `tools` that rank best for the request. */
  forRequest(query: string, tools: readonly ToolDescriptor[], k: number): ToolDescriptor[];
}

export interface ShortlisterOptions {
  /** The tools T of the run (candidates outside it get an index of their own). */
  tools: readonly ToolDescriptor[];
}

/** Creates a shortlister over T (see the module comment). */
export function createToolShortlister(options: ShortlisterOptions): ToolShortlister {
  const known = new Map(options.tools.map((t) => [t.name, t]));
  const indexes = workflowIndexes([...known.values()]);
  const base = createToolIndex([...known.values()]);
  const extended = new Map<string, ToolIndex>();
  const indexFor = (candidates: readonly ToolDescriptor[], workflow: Workflow | undefined): ToolIndex => {
    const extra = candidates.filter((c) => known.get(c.name) !== c && !sameTool(known.get(c.name), c));
    if (extra.length === 0) return workflow ? indexes.of(workflow) : base;
    const key = extra
      .map((c) => c.name)
      .sort()
      .join('\u0000');
    let hit = extended.get(key);
    if (!hit) {
      const all = [...[...known.values()].filter((t) => !extra.some((e) => e.name === t.name)), ...extra];
      extended.set(key, (hit = createToolIndex(all)));
    }
    return hit;
  };

  /** BM25 of the request and of its best clause, each normalised by the best candidate's score, summed. */
  const rank = ({ query, candidates, workflow }: ShortlistInput): ToolDescriptor[] => {
    if (candidates.length <= 1) return [...candidates];
    const index = indexFor(candidates, workflow);
    const names = candidates.map((c) => c.name);
    const normalised = (text: string): Map<string, number> => {
      const ranked = text.trim() ? index.rank(text, names) : [];
      const max = ranked[0]?.score ?? 0;
      return new Map(max > 0 ? ranked.map((r) => [r.name, r.score / max]) : []);
    };
    const total = normalised(query);
    const best = new Map<string, number>();
    for (const clause of splitClauses(query))
      for (const [name, v] of normalised(clause)) best.set(name, Math.max(best.get(name) ?? 0, v));
    for (const [name, v] of best) total.set(name, (total.get(name) ?? 0) + v);
    return candidates
      .map((tool, i) => ({ tool, i, s: total.get(tool.name) ?? 0 }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map((x) => x.tool);
  };
  const top = (input: ShortlistInput, k: number): ToolDescriptor[] =>
    input.candidates.length <= k ? [...input.candidates] : rank(input).slice(0, Math.max(1, k));

  return {
    rank,
    shortlist: top,
    forRequest: (query, tools, k) => top({ query, candidates: tools }, k),
  };
}

function sameTool(a: ToolDescriptor | undefined, b: ToolDescriptor): boolean {
  return a !== undefined && a.description === b.description;
}
