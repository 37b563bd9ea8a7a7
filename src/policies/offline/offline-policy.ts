import type { ToolNode, Workflow, WorkflowNode } from '../../graph/schema.js';
import { stableStringify } from '../../contracts/canonical-args.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type {
  ExecutionPolicy,
  LlmNodeRequest,
  LlmNodeResult,
  EarlierCall,
  PlannedCall,
  ToolPlanRequest,
  ToolPlanResult,
} from '../types.js';
import { hintFor, hintsKey } from '../../graph/hints.js';
import { fillArgs, type FillResult } from './fill-args.js';
import { runLlmRule } from './llm-rules.js';
import { fitFromScores, handOff, handOffScope, partScores, partsFor, type HandOff } from '../../retrieval/hand-off.js';
import { createToolIndex, type ToolIndex } from '../../retrieval/tool-index.js';
import { workflowIndexes } from '../../retrieval/workflow-index.js';
import { focusSpans, rankTools } from './select-tool.js';
import { propsOf } from '../../contracts/param-types.js';
import { callsOf } from './summarize.js';

/**
 * The offline policy (docs/DESIGN.md, "Policies"): no model anywhere, and like a general model it
 * has never seen the log. It reads the request, the tools' descriptions and schemas, upstream
 * outputs, and the node it runs — its task, tool lists, bindings and hints, which is where the search
 * writes what it learned from the optimisation records. Deterministic and fast; a real, measured
 * stand-in for "a model that has never seen your log", the default when no model is configured, and
 * always labelled "offline policy (no LLM)". Tool nodes: each tool position reads the parts of the
 * request the plan-to-position hand-off gives it (retrieval/hand-off.ts), picks its tool per part
 * (select-tool.ts) and fills the arguments from the request and upstream outputs (fill-args.ts). LLM
 * nodes: deterministic rules (llm-rules.ts).
 *
 * `calls: 'many'`: a position handed several parts makes one call per part; handed one part, it
 * makes one call per distinct value the part gives for the tool's main parameter (the hint's
 * `repeat`; without a hint, the first required parameter). A position handed no part makes no call
 * (an error for `calls: 'one'`, which must call), except a *usual lookup*: a step most runs made
 * (not `optional`), with a later step handed a part, calls its most used `mined` tool when earlier
 * outputs give every argument (a chain of lookups the request does not name, as a real agent's
 * requests state a goal, not their steps; `usualLookup`). Retries (`attempt` n > 1) move to the
 * n-th ranked candidate, since repeating a deterministic call cannot change its answer.
 *
 * Memoization: a decision reads the node, the query, the node's inputs and the layout of every tool
 * position (the hand-off); that is declared as the policy's `memoScope` (`handOffScope`), together
 * with the hints every position's ranking reads. No per-run state (`scratch`) is kept.
 */

export interface OfflinePolicyOptions {
  /** The tools T of the run (candidates outside it are still handled). */
  tools: readonly ToolDescriptor[];
}

/** A fill with the node's bound values set (the runtime sets them anyway; here they also decide duplicates and missing values). */
function withBound(filled: FillResult, bound: Record<string, unknown> | undefined): FillResult {
  if (!bound) return filled;
  const main = filled.main && !(filled.main.param in bound) ? { main: filled.main } : {};
  const { main: _drop, ...rest } = filled;
  return {
    ...rest,
    ...main,
    args: { ...filled.args, ...bound },
    missing: filled.missing.filter((m) => !(m in bound)),
    unsupported: filled.unsupported.filter((m) => !(m in bound)),
  };
}

/** Requests longer than this yield to the event loop before each call they fill (a few ms each). */
const YIELD_ABOVE_CHARS = 1_000;

/** The most calls a repeating step makes over the values one earlier output lists (`repeated`). */
const MAX_LISTED_CALLS = 10;

/** Ranked tools tried before a part whose every call repeats an earlier one is left without a call. */
const DUPLICATE_TRIES = 3;
/**
 * A tool ranked at least this share of the best one's score serves a part that gives none of the
 * best tool's required values when the part gives its own (or it needs none). Decided on D_val of
 * seven domains (docs/guides/benchmarks.md, History): 0.5, 0.7 and 0.85 gave the same within 0.003.
 */
const GIVEN_RANK_SHARE = 0.7;

const callKey = (tool: string, args: unknown): string => `${tool}\u0000${stableStringify(args)}`;

export const OFFLINE_POLICY_LABEL = 'offline policy (no LLM)';

/** Creates the offline policy (`id: offline`, `kind: offline`; see the module comment). */
export function createOfflinePolicy(options: OfflinePolicyOptions): ExecutionPolicy {
  const known = new Map(options.tools.map((t) => [t.name, t]));
  const allNames = [...known.keys()];
  const indexes = workflowIndexes([...known.values()]);
  // Per index: each part of a request ranked once over T, read by the hand-off and the router alike.
  const scores = new WeakMap<ToolIndex, ReturnType<typeof partScores>>();
  const scoresOf = (index: ToolIndex) => {
    let s = scores.get(index);
    if (!s) scores.set(index, (s = partScores(index, allNames)));
    return s;
  };
  // Candidates outside T get an index of their own (T plus them), keyed by their names.
  const extended = new Map<string, { index: ToolIndex; names: string[] }>();
  const indexFor = (workflow: Workflow, candidates: readonly ToolDescriptor[]) => {
    const extra = candidates.filter((c) => !known.has(c.name));
    if (extra.length === 0) return { index: indexes.of(workflow), names: allNames };
    const key = extra
      .map((c) => c.name)
      .sort()
      .join('\u0000');
    let hit = extended.get(key);
    if (!hit) {
      const all = [...known.values(), ...extra];
      extended.set(key, (hit = { index: createToolIndex(all), names: all.map((t) => t.name) }));
    }
    return hit;
  };

  /** One call for one clause (or for the node's task and the whole request when `clause` is undefined). */
  async function planOne(
    req: ToolPlanRequest,
    clause: string | undefined,
    previousTool: string | undefined,
    outputs: readonly unknown[],
    idx: { index: ToolIndex; names: string[] },
    made: ReadonlySet<string>,
  ): Promise<{ tool: ToolDescriptor; filled: FillResult; duplicate: boolean }> {
    const ranked = rankTools(
      { node: req.node, workflow: req.workflow, query: req.query, clause, candidates: req.candidates, previousTool },
      idx.index,
    );
    const at = clause === undefined ? -1 : req.query.indexOf(clause);
    const clauseSpan = at >= 0 ? ([at, at + clause!.length] as const) : undefined;
    const first = (Math.max(1, req.attempt) - 1) % ranked.length;
    const callAt = async (k: number) => {
      // Filling reads the whole request: for a long one each try is one step, with the event loop
      // running between steps (a server answers its other requests) and a cancelled run stopping here.
      if (req.query.length > YIELD_ABOVE_CHARS) await new Promise((resolve) => setImmediate(resolve));
      req.signal?.throwIfAborted();
      const tool = req.candidates.find((c) => c.name === ranked[(first + k) % ranked.length]!.name)!;
      const focus = focusSpans(req.query, clause, tool.name, idx.names, idx.index);
      const hint = hintFor(req.workflow, req.node, tool.name);
      const filled = withBound(
        fillArgs(tool, { query: req.query, outputs, focus, ...(clauseSpan ? { clauseSpan } : {}) }, hint),
        req.bound?.[tool.name],
      );
      return { tool, filled, duplicate: made.has(callKey(tool.name, filled.args)) };
    };
    const complete = (c: { duplicate: boolean; filled: FillResult }) => !c.duplicate && c.filled.missing.length === 0;
    const given = (c: { duplicate: boolean; filled: FillResult }) => complete(c) && c.filled.unsupported.length === 0;
    const best = await callAt(0);
    if (given(best) || (complete(best) && clauseSpan === undefined)) return best;
    // A call equal to one this run already made would only fetch the same result again, and a call
    // missing a required value cannot be made: the next-ranked tool that can make a complete call
    // serves the part instead; when none of the next ones can, the best one (no call, or its error).
    // A complete call whose required values the part does not give yields to a tool ranked nearly as
    // well whose values it does (or that needs none).
    for (let k = 1; k < Math.min(ranked.length, DUPLICATE_TRIES); k++) {
      if (complete(best) && ranked[(first + k) % ranked.length]!.score < GIVEN_RANK_SHARE * ranked[first]!.score) break;
      const next = await callAt(k);
      if (complete(best) ? given(next) : complete(next)) return next;
    }
    return best;
  }

  // `calls: 'many'`: one call per distinct value the request gives for the main parameter when the
  // hint says repeated calls vary it (or there is no hint); else one per value an earlier output lists
  // under its key, none called yet, when the hint also says its values come from outputs at least as
  // often as from requests (each order a user lookup returned). Usual lookups and parts: the latter.
  function repeated(
    req: ToolPlanRequest,
    tool: string,
    filled: FillResult,
    made: ReadonlySet<string>,
    listedOnly = false,
  ) {
    const main = filled.main;
    if (req.node.calls !== 'many' || !main) return [];
    const hint = hintFor(req.workflow, req.node, tool);
    const from = hint?.params?.[main.param]?.from;
    const values =
      main.values.length > 1
        ? !listedOnly && (!hint || hint.repeat !== undefined)
          ? main.values
          : []
        : main.listed && hint?.repeat === main.param && from && (from.upstream ?? 0) >= (from.request ?? 0)
          ? main.listed.slice(0, MAX_LISTED_CALLS)
          : [];
    return [...new Map(values.map((v) => [stableStringify(v), v])).values()]
      .map((v) => ({ tool, args: { ...filled.args, [main.param]: v } }))
      .filter((c) => main.values.length > 1 || !made.has(callKey(c.tool, c.args)));
  }

  // The hand-off of a query over a layout, kept for the other positions of the same run.
  const handOffs = new Map<string, HandOff>();
  function handOffOf(query: string, workflow: Workflow, node: ToolNode): HandOff {
    const index = indexes.of(workflow);
    // The scope's hash covers the positions that run with this node, so positions of one group share an entry.
    // The index's words come from the workflow's hints: two layouts alike with other hints hand off differently.
    const key = `${handOffScope(workflow, node).replace(/, position.*/, '')}\u0000${hintsKey(workflow)}\u0000${query}`;
    let h = handOffs.get(key);
    if (!h) {
      if (handOffs.size >= 2000) handOffs.clear();
      handOffs.set(key, (h = handOff(query, workflow, fitFromScores(scoresOf(index)), node.id)));
    }
    return h;
  }

  /**
   * A usual lookup (see the file comment): a step most runs made, handed no part while a later step
   * was, calls the tool the runs used most there when earlier outputs give every value it needs (the
   * request says nothing of them) and its hint, if any, says they come from outputs as often or more.
   */
  function usualLookup(
    req: ToolPlanRequest,
    h: HandOff,
    outputs: readonly unknown[],
    made: ReadonlySet<string>,
  ): PlannedCall[] | undefined {
    if (req.node.optional || outputs.length === 0) return undefined;
    const at = h.positions.findIndex((p) => p.id === req.node.id);
    if (!h.positions.slice(at + 1).some((p) => (h.byPosition.get(p.id) ?? []).length > 0)) return undefined;
    const tool = req.candidates.find((c) => c.name === req.node.mined?.[0]);
    if (!tool) return undefined;
    const hint = hintFor(req.workflow, req.node, tool.name);
    const { required } = propsOf(tool);
    const fromOutputs = required.every((p) => {
      const from = hint?.params?.[p]?.from;
      return !from || (from.upstream ?? 0) >= (from.request ?? 0);
    });
    if (!fromOutputs) return undefined;
    const filled = withBound(fillArgs(tool, { query: '', outputs }, hint), req.bound?.[tool.name]);
    if (filled.missing.length > 0 || Object.keys(filled.args).length === 0) return undefined;
    const calls = repeated(req, tool.name, filled, made, true);
    if (calls.length > 0) return calls;
    return made.has(callKey(tool.name, filled.args)) ? undefined : [{ tool: tool.name, args: filled.args }];
  }

  async function planToolCalls(req: ToolPlanRequest): Promise<ToolPlanResult> {
    if (req.candidates.length === 0)
      return { calls: [], model: 'offline', error: `node '${req.node.id}' has no candidate tools to call` };
    const idx = indexFor(req.workflow, req.candidates);
    const seen = req.earlier ?? req.inputs.flatMap(callsOf);
    const made = new Set(seen.map((c) => callKey(c.tool, c.args)));
    const outputs = seen.filter((c) => c.status === 'ok' && c.output !== undefined).map((c) => c.output);
    let previousTool = seen.at(-1)?.tool;
    const h = handOffOf(req.query, req.workflow, req.node);
    const clauses = partsFor(h, req.node.id);
    if (clauses.length === 0) {
      const lookup = usualLookup(req, h, outputs, made);
      if (lookup) return { calls: lookup, model: 'offline' };
      const why = `nothing to look up here: no part of the request is handed to this position (${h.parts.length} parts, ${h.positions.length} tool positions)`;
      return req.node.calls === 'many' || req.node.optional
        ? { calls: [], model: 'offline' }
        : { calls: [], model: 'offline', error: why };
    }
    if (clauses.length > 1) {
      // A repeating position handed several parts: one call per part, in order, or per value listed
      // (`repeated`); a part that gives a required argument no value makes no call. Each part is planned
      // once the calls of the parts before it have run (`rest`), so that its call can read their
      // results (the cities of the country a list call returned).
      const refused: string[] = [];
      const from = async (i: number, own: readonly EarlierCall[]): Promise<ToolPlanResult> => {
        const done = [...seen, ...own];
        const known = new Set(done.map((c) => callKey(c.tool, c.args)));
        const ready = done.filter((c) => c.status === 'ok' && c.output !== undefined).map((c) => c.output);
        let last = done.at(-1)?.tool;
        for (let k = i; k < clauses.length; k++) {
          const clause = clauses[k]!;
          const { tool, filled, duplicate } = await planOne(req, clause, last, ready, idx, known);
          last = tool.name;
          if (filled.missing.length > 0) refused.push(noValue(tool.name, filled.missing));
          else if (!duplicate) {
            const listed = repeated(req, tool.name, filled, known, true);
            const calls = listed.length > 0 ? listed : [{ tool: tool.name, args: filled.args, part: clause }];
            return k + 1 < clauses.length
              ? { calls, model: 'offline', rest: (more) => from(k + 1, more) }
              : { calls, model: 'offline' };
          }
        }
        return own.length === 0 && refused.length > 0
          ? { calls: [], model: 'offline', error: refused.join('; ') }
          : { calls: [], model: 'offline' };
      };
      return from(0, []);
    }
    const { tool, filled, duplicate } = await planOne(req, clauses[0], previousTool, outputs, idx, made);
    if (duplicate && filled.missing.length === 0) return { calls: [], model: 'offline' };
    if (filled.missing.length > 0) return { calls: [], model: 'offline', error: noValue(tool.name, filled.missing) };
    const calls = repeated(req, tool.name, filled, made);
    const part = clauses[0] !== undefined ? { part: clauses[0] } : {};
    return { calls: calls.length > 0 ? calls : [{ tool: tool.name, args: filled.args, ...part }], model: 'offline' };
  }

  /** The error of a call the policy will not make: a required argument has no value. */
  function noValue(tool: string, missing: readonly string[]): string {
    return `no value for ${missing.map((m) => `\`${m}\``).join(', ')} of '${tool}' in the request or the earlier results; the offline policy does not guess required arguments`;
  }

  async function runLlmNode(req: LlmNodeRequest): Promise<LlmNodeResult> {
    const scoresFor = scoresOf(indexes.of(req.workflow));
    // A part's fit to a tool: its BM25 score as a share of the best tool's over T (0 when nothing matches).
    const toolFit = (part: string, tool: string): number => {
      const { scores, top } = scoresFor(part);
      return top > 0 ? (scores.get(tool) ?? 0) / top : 0;
    };
    return { output: runLlmRule(req, { toolFit }), model: 'offline' };
  }

  // LLM nodes decide from the node, the query and their inputs (a router also from the tool index,
  // which reads the hints' words); tool nodes also from their slot and every hint of the workflow (a
  // step reads the hint another node keeps for a tool: graph/hints.ts).
  const memoScope = (workflow: Workflow, node: WorkflowNode): string =>
    node.kind === 'tool'
      ? [handOffScope(workflow, node), hintsKey(workflow)].filter(Boolean).join(', ')
      : node.role === 'judge'
        ? hintsKey(workflow)
        : '';

  return { id: 'offline', kind: 'offline', label: OFFLINE_POLICY_LABEL, planToolCalls, runLlmNode, memoScope };
}
