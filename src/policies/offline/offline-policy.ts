import type { ToolNode, Workflow, WorkflowNode } from '../../graph/schema.js';
import { stableStringify } from '../../contracts/canonical-args.js';
import type { TaskRecord } from '../../records/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type {
  ExecutionPolicy,
  LlmNodeRequest,
  LlmNodeResult,
  PlannedCall,
  ToolPlanRequest,
  ToolPlanResult,
} from '../types.js';
import { cueModelFromTable, distillCueModel, EMPTY_CUE_MODEL, learnCueModel, type CueModel } from './cue-model.js';
import { fillArgs, type FillResult } from './fill-args.js';
import { runLlmRule } from './llm-rules.js';
import { fitFromScores, handOff, handOffScope, partScores, partsFor, type HandOff } from '../hand-off.js';
import { focusSpans, rankTools } from './select-tool.js';
import { callsOf } from './summarize.js';
import { createToolIndex, type ToolIndex } from './tool-index.js';

/**
 * The offline policy (docs/DESIGN.md, "Policies"): no model anywhere. Deterministic and
 * fast; a real, measured baseline, the default when no model is configured, and always labelled
 * "offline policy (no LLM)". Tool nodes: each tool position reads the parts of the request the
 * plan-to-position hand-off gives it (../hand-off.ts: in order, each part to the position whose
 * tools fit it), and picks its tool per part by BM25 over the clause with a sequence prior learned from D_opt
 * (select-tool.ts); arguments are found in the query and upstream outputs and ranked by cues learned
 * from the given records (fill-args.ts). LLM nodes: deterministic rules (llm-rules.ts).
 *
 * `calls: 'many'`: a position handed several parts makes one call per part; handed one part, it
 * makes one call per distinct value the part gives for the tool's main parameter (the required
 * parameter whose values came from the query most often in the records) when the records show the
 * tool called several times in a row (or never called it); one call otherwise. A position handed no part makes no call (an error for `calls: 'one'`, which must call).
 * Retries (`attempt` n > 1) move to the n-th ranked candidate, since repeating a deterministic call
 * cannot change its answer.
 *
 * Memoization: a decision reads the node, the query, the node's inputs and the layout of every tool
 * position (the hand-off); that is declared as the policy's `memoScope` (`handOffScope`), so
 * memoized runs decide exactly as unmemoized ones. No per-run state (`scratch`) is kept.
 *
 * It learns only from the records it is given: pass the optimisation split, never test records.
 */

export interface OfflinePolicyOptions {
  /** The tools T of the run (candidates outside it are still handled, without learned cues). */
  tools: readonly ToolDescriptor[];
  /** The optimisation records to learn cue words and priors from (D_opt only). */
  records?: readonly TaskRecord[];
}

/** A fill with the node's bound values set (the runtime sets them anyway; here they also decide duplicates and missing values). */
function withBound(filled: FillResult, bound: Record<string, unknown> | undefined): FillResult {
  if (!bound) return filled;
  const main = filled.main && !(filled.main.param in bound) ? { main: filled.main } : {};
  const { main: _drop, ...rest } = filled;
  return { ...rest, ...main, args: { ...filled.args, ...bound }, missing: filled.missing.filter((m) => !(m in bound)) };
}

/** Requests longer than this yield to the event loop before each call they fill (a few ms each). */
const YIELD_ABOVE_CHARS = 1_000;

/** Ranked tools tried before a part whose every call repeats an earlier one is left without a call. */
const DUPLICATE_TRIES = 3;

const callKey = (tool: string, args: unknown): string => `${tool}\u0000${stableStringify(args)}`;

export const OFFLINE_POLICY_LABEL = 'offline policy (no LLM)';

export interface OfflinePolicy extends ExecutionPolicy {
  /** What was learned from the records (for reports and tests). */
  readonly cues: CueModel;
}

/**
 * Creates the offline policy (`id: offline`, `kind: offline`). It decides with the distilled cue
 * model of the records it is given (cue-model.ts, `distillCueModel`: no record text), which a
 * search writes into its workflows (`learned.offline`). Given no records, it decides with the table
 * of the workflow it runs, when that has one, and with the tool descriptions alone otherwise: so a
 * searched workflow decides the same under `eval`, `serve`, a compiled module and a LangGraph export,
 * with no other file.
 */
export function createOfflinePolicy(options: OfflinePolicyOptions): OfflinePolicy {
  if (options.records && options.records.length > 0)
    return policyFromCues(options.tools, distillCueModel(learnCueModel(options.records, options.tools)));
  const plain = policyFromCues(options.tools, EMPTY_CUE_MODEL);
  const byTable = new WeakMap<object, OfflinePolicy>();
  const byText = new Map<string, OfflinePolicy>();
  const pick = (workflow: Workflow): OfflinePolicy => {
    const table = workflow.learned?.offline;
    if (!table) return plain;
    let hit = byTable.get(table);
    if (!hit) {
      const text = stableStringify(table);
      hit = byText.get(text);
      if (!hit) {
        if (byText.size >= 8) byText.clear();
        byText.set(text, (hit = policyFromCues(options.tools, cueModelFromTable(table))));
      }
      byTable.set(table, hit);
    }
    return hit;
  };
  return {
    id: 'offline',
    kind: 'offline',
    label: OFFLINE_POLICY_LABEL,
    cues: plain.cues,
    planToolCalls: (req) => pick(req.workflow).planToolCalls(req),
    runLlmNode: (req) => pick(req.workflow).runLlmNode(req),
    memoScope: (workflow, node) => pick(workflow).memoScope!(workflow, node),
  };
}

function policyFromCues(tools: readonly ToolDescriptor[], cues: CueModel): OfflinePolicy {
  const options = { tools };
  const known = new Map(options.tools.map((t) => [t.name, t]));
  const base = createToolIndex([...known.values()], cues);
  // Candidates outside T get an index of their own (T plus them), keyed by their names: a decision
  // never depends on which other nodes or runs came first, so memoized decisions stay exact.
  const extended = new Map<string, { index: ToolIndex; names: string[] }>();
  const indexFor = (candidates: readonly ToolDescriptor[]): { index: ToolIndex; names: string[] } => {
    const extra = candidates.filter((c) => !known.has(c.name));
    if (extra.length === 0) return { index: base, names: [...known.keys()] };
    const key = extra
      .map((c) => c.name)
      .sort()
      .join('\u0000');
    let hit = extended.get(key);
    if (!hit) {
      const all = [...known.values(), ...extra];
      hit = { index: createToolIndex(all, cues), names: all.map((t) => t.name) };
      extended.set(key, hit);
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
      { node: req.node, query: req.query, clause, candidates: req.candidates, previousTool },
      idx.index,
      cues,
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
      const filled = withBound(
        fillArgs(tool, { query: req.query, outputs, focus, ...(clauseSpan ? { clauseSpan } : {}) }, cues),
        req.bound?.[tool.name],
      );
      return { tool, filled, duplicate: made.has(callKey(tool.name, filled.args)) };
    };
    const best = await callAt(0);
    if (!best.duplicate) return best;
    // A call equal to one this run already made would only fetch the same result again: the next-ranked tool that can
    // make a complete call serves the part instead, and when none of the next ones can, the part makes no call.
    for (let k = 1; k < Math.min(ranked.length, DUPLICATE_TRIES); k++) {
      const next = await callAt(k);
      if (!next.duplicate && next.filled.missing.length === 0) return next;
    }
    return best;
  }

  // One call per value only for a tool the records show called right after itself (several values
  // in a row), or that they never called (no evidence either way): elsewhere the extra values are
  // other parts' words, and each extra call is one more call than the reference makes.
  const repeats = (name: string): boolean => {
    const stats = cues.tools.get(name);
    return !stats || (stats.previous.get(name) ?? 0) > 0;
  };

  // The hand-off of a query over a layout, kept for the other positions of the same run.
  // Each part of a request ranked once over T: the hand-off and the router (`toolFit`) read the same scores.
  const allNames = [...known.keys()];
  const scoresOf = partScores(base, allNames);
  const fit = fitFromScores(scoresOf);
  const handOffs = new Map<string, HandOff>();
  function handOffOf(query: string, workflow: Workflow, node: ToolNode): HandOff {
    // The scope's hash covers the positions that run with this node, so positions of one group share an entry.
    const key = `${handOffScope(workflow, node).replace(/, position.*/, '')}\u0000${query}`;
    let h = handOffs.get(key);
    if (!h) {
      if (handOffs.size >= 2000) handOffs.clear();
      handOffs.set(key, (h = handOff(query, workflow, fit, node.id)));
    }
    return h;
  }

  async function planToolCalls(req: ToolPlanRequest): Promise<ToolPlanResult> {
    if (req.candidates.length === 0)
      return { calls: [], model: 'offline', error: `node '${req.node.id}' has no candidate tools to call` };
    const idx = indexFor(req.candidates);
    const seen = req.inputs.flatMap(callsOf);
    const made = new Set(seen.map((c) => callKey(c.tool, c.args)));
    const outputs = seen.filter((c) => c.status === 'ok' && c.output !== undefined).map((c) => c.output);
    let previousTool = seen.at(-1)?.tool;
    const h = handOffOf(req.query, req.workflow, req.node);
    const clauses = partsFor(h, req.node.id);
    if (clauses.length === 0) {
      const why = `nothing to look up here: no part of the request is handed to this position (${h.parts.length} parts, ${h.positions.length} tool positions)`;
      return req.node.calls === 'many' ? { calls: [], model: 'offline' } : { calls: [], model: 'offline', error: why };
    }
    if (clauses.length > 1) {
      // The last 'many' position: one call per clause still unread, in order (a clause that gives a
      // required argument no value makes no call).
      const calls: PlannedCall[] = [];
      const refused: string[] = [];
      for (const clause of clauses) {
        const { tool, filled, duplicate } = await planOne(req, clause, previousTool, outputs, idx, made);
        if (filled.missing.length > 0) refused.push(noValue(tool.name, filled.missing));
        else if (!duplicate) {
          calls.push({ tool: tool.name, args: filled.args });
          made.add(callKey(tool.name, filled.args));
        }
        previousTool = tool.name;
      }
      return calls.length === 0 && refused.length > 0
        ? { calls, model: 'offline', error: refused.join('; ') }
        : { calls, model: 'offline' };
    }
    const { tool, filled, duplicate } = await planOne(req, clauses[0], previousTool, outputs, idx, made);
    if (duplicate && filled.missing.length === 0) return { calls: [], model: 'offline' };
    if (filled.missing.length > 0) return { calls: [], model: 'offline', error: noValue(tool.name, filled.missing) };
    let calls: PlannedCall[] = [{ tool: tool.name, args: filled.args }];
    if (req.node.calls === 'many' && filled.main && filled.main.values.length > 1 && repeats(tool.name)) {
      const { param, values } = filled.main;
      const distinct = new Map(values.map((v) => [stableStringify(v), v]));
      calls = [...distinct.values()].map((v) => ({ tool: tool.name, args: { ...filled.args, [param]: v } }));
    }
    return { calls, model: 'offline' };
  }

  /** The error of a call the policy will not make: a required argument has no value. */
  function noValue(tool: string, missing: readonly string[]): string {
    return `no value for ${missing.map((m) => `\`${m}\``).join(', ')} of '${tool}' in the request or the earlier results; the offline policy does not guess required arguments`;
  }

  // A part's fit to a tool: its BM25 score as a share of the best tool's over T (0 when nothing matches).
  const toolFit = (part: string, tool: string): number => {
    const { scores, top } = scoresOf(part);
    return top > 0 ? (scores.get(tool) ?? 0) / top : 0;
  };

  async function runLlmNode(req: LlmNodeRequest): Promise<LlmNodeResult> {
    return { output: runLlmRule(req, { toolFit }), model: 'offline' };
  }

  // LLM nodes decide from the node, the query and their inputs; tool nodes also from their slot.
  const memoScope = (workflow: Workflow, node: WorkflowNode): string =>
    node.kind === 'tool' ? handOffScope(workflow, node) : '';

  return { id: 'offline', kind: 'offline', label: OFFLINE_POLICY_LABEL, cues, planToolCalls, runLlmNode, memoScope };
}
