import type { ToolNode } from '../graph/schema.js';
import type { TaskRecord } from '../records/schema.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { learnCueModel } from './offline/cue-model.js';
import { splitClauses } from './offline/text.js';
import { createToolIndex, type ToolIndex } from './offline/tool-index.js';
import type { NodeInput } from './types.js';

/**
 * Tool shortlists (DESIGN.md, "Who decides at each node"; docs/ARCHITECTURE.md, "What a model
 * request costs"): a tool node's plan request lists only the k candidate tools that retrieval ranks
 * highest, with their schemas, instead of all of T. Each tool's retrieval document is its name,
 * description and parameter names, plus the request clauses that asked for it in the optimisation
 * records when they are given (the offline policy's BM25 index, `offline/tool-index.ts`). A node's
 * ranking reads the request as a whole and clause by clause (see SHORTLIST_WEIGHTS; its task, its
 * LLM predecessors' output and its mined tools can be weighted in too). The rest of the candidates stay
 * reachable: the LLM policy sends the full list on the repair round when the model asked for a
 * tool outside the shortlist.
 *
 * The same ranking over the request alone gives the ReAct baseline its tool list, so both sides
 * of a comparison get the same treatment. `benchmarks/tool-shortlist-recall.ts` measures how often the
 * reference tool is in the shortlist (recall) for k = 5, 10, 20, 40; the default k was chosen there
 * on D_val: the smallest k (5 to 40) whose recall is at least 0.95 on every bundled domain, for the
 * workflow positions and the ReAct list alike.
 */

/** The default shortlist size (chosen on D_val by benchmarks/tool-shortlist-recall.ts). */
export const DEFAULT_SHORTLIST_SIZE = 13;

/**
 * Weights of the ranking: BM25 of each text, normalised by the best candidate's score. Chosen on
 * D_opt/D_val (benchmarks/tool-shortlist-recall.ts): the request as a whole plus the best of its clauses
 * ranked one by one (so every step the request asks for brings its own tools up) beat every mix
 * that also read G0's generic task text, the plan's wording or the mined prior.
 */
export const SHORTLIST_WEIGHTS: ShortlistWeights = { request: 1, clause: 1, task: 0, upstream: 0, mined: 0 };

/** Weights of the texts a ranking reads (`clause`: the best of the request's clauses, each ranked alone). */
export interface ShortlistWeights {
  request: number;
  clause: number;
  task: number;
  upstream: number;
  mined: number;
}

const MAX_UPSTREAM_CHARS = 2000;

/** What a tool node's ranking reads. */
export interface ShortlistInput {
  node: Pick<ToolNode, 'task' | 'mined'>;
  query: string;
  inputs?: readonly NodeInput[];
  candidates: readonly ToolDescriptor[];
}

export interface ToolShortlister {
  /** All candidates, best first (ties keep the candidates' order). */
  rank(input: ShortlistInput): ToolDescriptor[];
  /** The best `k` candidates (all of them when there are at most k). */
  shortlist(input: ShortlistInput, k: number): ToolDescriptor[];
  /** `tools` ranked for the request alone, best first. */
  rankForRequest(query: string, tools: readonly ToolDescriptor[]): ToolDescriptor[];
  /** The ReAct baseline's list: the `k` tools of `tools` that rank best for the request alone. */
  forRequest(query: string, tools: readonly ToolDescriptor[], k: number): ToolDescriptor[];
}

export interface ShortlisterOptions {
  /** The tools T of the run (candidates outside it get an index of their own). */
  tools: readonly ToolDescriptor[];
  /** Optimisation records: the request clauses that asked for a tool expand its document (D_opt only). */
  records?: readonly TaskRecord[];
  /** Ranking weights (default SHORTLIST_WEIGHTS). */
  weights?: ShortlistWeights;
}

/** Creates a shortlister over T (see the module comment). */
export function createToolShortlister(options: ShortlisterOptions): ToolShortlister {
  const known = new Map(options.tools.map((t) => [t.name, t]));
  const cues = learnCueModel(options.records ?? [], options.tools);
  const base = createToolIndex([...known.values()], cues);
  const extended = new Map<string, ToolIndex>();
  const indexFor = (candidates: readonly ToolDescriptor[]): ToolIndex => {
    const extra = candidates.filter((c) => known.get(c.name) !== c && !sameTool(known.get(c.name), c));
    if (extra.length === 0) return base;
    const key = extra.map((c) => c.name).sort().join('\u0000');
    let hit = extended.get(key);
    if (!hit) {
      const all = [...[...known.values()].filter((t) => !extra.some((e) => e.name === t.name)), ...extra];
      extended.set(key, (hit = createToolIndex(all, cues)));
    }
    return hit;
  };

  const weights = options.weights ?? SHORTLIST_WEIGHTS;
  function score(index: ToolIndex, query: string, texts: Array<[string, number]>, candidates: readonly ToolDescriptor[], mined: ReadonlySet<string>): ToolDescriptor[] {
    const names = candidates.map((c) => c.name);
    const total = new Map<string, number>();
    const normalised = (text: string): Map<string, number> => {
      const ranked = text.trim() ? index.rank(text, names) : [];
      const max = ranked[0]?.score ?? 0;
      return new Map(max > 0 ? ranked.map((r) => [r.name, r.score / max]) : []);
    };
    const add = (name: string, v: number) => total.set(name, (total.get(name) ?? 0) + v);
    for (const [text, weight] of [[query, weights.request] as [string, number], ...texts]) {
      if (weight === 0) continue;
      for (const [name, v] of normalised(text)) add(name, weight * v);
    }
    if (weights.clause !== 0) {
      const best = new Map<string, number>();
      for (const clause of splitClauses(query)) for (const [name, v] of normalised(clause)) best.set(name, Math.max(best.get(name) ?? 0, v));
      for (const [name, v] of best) add(name, weights.clause * v);
    }
    if (weights.mined !== 0) for (const name of mined) if (names.includes(name)) add(name, weights.mined);
    return candidates
      .map((tool, i) => ({ tool, i, s: total.get(tool.name) ?? 0 }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map((x) => x.tool);
  }

  const rank = (input: ShortlistInput): ToolDescriptor[] => {
    if (input.candidates.length <= 1) return [...input.candidates];
    return score(
      indexFor(input.candidates),
      input.query,
      [
        [input.node.task, weights.task],
        [upstreamText(input.inputs ?? []), weights.upstream],
      ],
      input.candidates,
      new Set(input.node.mined ?? []),
    );
  };

  const rankForRequest = (query: string, tools: readonly ToolDescriptor[]): ToolDescriptor[] =>
    tools.length <= 1 ? [...tools] : score(indexFor(tools), query, [], tools, new Set());

  return {
    rank,
    shortlist(input, k) {
      if (input.candidates.length <= k) return [...input.candidates];
      return rank(input).slice(0, Math.max(1, k));
    },
    rankForRequest,
    forRequest(query, tools, k) {
      if (tools.length <= k) return [...tools];
      return rankForRequest(query, tools).slice(0, Math.max(1, k));
    },
  };
}

function sameTool(a: ToolDescriptor | undefined, b: ToolDescriptor): boolean {
  return a !== undefined && a.description === b.description;
}

/** What the LLM predecessors wrote (a plan, extracted facts), clipped: tool outputs are data, not intent. */
function upstreamText(inputs: readonly NodeInput[]): string {
  const parts: string[] = [];
  for (const i of inputs) {
    if (i.kind !== 'llm') continue;
    parts.push(typeof i.output === 'string' ? i.output : JSON.stringify(i.output ?? ''));
  }
  const text = parts.join('\n');
  return text.length > MAX_UPSTREAM_CHARS ? text.slice(0, MAX_UPSTREAM_CHARS) : text;
}
