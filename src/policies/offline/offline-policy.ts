import { stableStringify } from '../../records/canonical-args.js';
import type { TaskRecord } from '../../records/schema.js';
import type { ToolDescriptor } from '../../tools/types.js';
import type { ExecutionPolicy, LlmNodeRequest, LlmNodeResult, PlannedCall, ToolPlanRequest, ToolPlanResult } from '../types.js';
import { learnCueModel, type CueModel } from './cue-model.js';
import { fillArgs } from './fill-args.js';
import { runLlmRule } from './llm-rules.js';
import { focusSpans, rankTools } from './select-tool.js';
import { callsOf } from './summarize.js';
import { createToolIndex, type ToolIndex } from './tool-index.js';

/**
 * The offline policy (DESIGN.md, "Who decides at each node"): no model anywhere. Deterministic and
 * fast; a real, measured baseline, the default when no model is configured, and always labelled
 * "offline policy (no LLM)". Tool nodes: BM25 selection among the candidates (select-tool.ts), then
 * arguments found in the query and upstream outputs and ranked by cues learned from the given
 * records (fill-args.ts). LLM nodes: deterministic rules (llm-rules.ts).
 *
 * `calls: 'many'`: one call per distinct value found for the tool's main parameter (the required
 * parameter whose values came from the query most often in the records; the first required one
 * otherwise), the other arguments as for a single call; one call when no value is found.
 * Retries (`attempt` n > 1) move to the n-th ranked candidate, since repeating a deterministic call
 * cannot change its answer.
 *
 * It learns only from the records it is given: pass the optimisation split, never test records.
 */

export interface OfflinePolicyOptions {
  /** The tools T of the run (candidates outside it are still handled, without learned cues). */
  tools: readonly ToolDescriptor[];
  /** The optimisation records to learn cue words and priors from (D_opt only). */
  records?: readonly TaskRecord[];
}

export const OFFLINE_POLICY_LABEL = 'offline policy (no LLM)';

export interface OfflinePolicy extends ExecutionPolicy {
  /** What was learned from the records (for reports and tests). */
  readonly cues: CueModel;
}

/** Creates the offline policy (`id: offline`, `kind: offline`). */
export function createOfflinePolicy(options: OfflinePolicyOptions): OfflinePolicy {
  const known = new Map(options.tools.map((t) => [t.name, t]));
  const cues = learnCueModel(options.records ?? [], options.tools);
  let index: ToolIndex = createToolIndex([...known.values()], cues);

  const ensureIndexed = (candidates: readonly ToolDescriptor[]) => {
    let added = false;
    for (const c of candidates) {
      if (!known.has(c.name)) {
        known.set(c.name, c);
        added = true;
      }
    }
    if (added) index = createToolIndex([...known.values()], cues);
  };

  async function planToolCalls(req: ToolPlanRequest): Promise<ToolPlanResult> {
    if (req.candidates.length === 0) return { calls: [], model: 'offline', error: `node '${req.node.id}' has no candidate tools to call` };
    ensureIndexed(req.candidates);
    const seen = req.inputs.flatMap(callsOf);
    const outputs = seen.filter((c) => c.status === 'ok' && c.output !== undefined).map((c) => c.output);
    const previousTool = seen.at(-1)?.tool;
    const ranked = rankTools({ node: req.node, workflow: req.workflow, query: req.query, candidates: req.candidates, previousTool }, index, cues);
    const pick = ranked[(Math.max(1, req.attempt) - 1) % ranked.length]!;
    const tool = req.candidates.find((c) => c.name === pick.name)!;
    const allNames = [...known.keys()];
    const focus = focusSpans(req.query, req.workflow, req.node.id, tool.name, allNames, index);
    const filled = fillArgs(tool, { query: req.query, outputs, focus }, cues);
    let calls: PlannedCall[] = [{ tool: tool.name, args: filled.args }];
    if (req.node.calls === 'many' && filled.main && filled.main.values.length > 1) {
      const { param, values } = filled.main;
      const distinct = new Map(values.map((v) => [stableStringify(v), v]));
      calls = [...distinct.values()].map((v) => ({ tool: tool.name, args: { ...filled.args, [param]: v } }));
    }
    return { calls, model: 'offline' };
  }

  async function runLlmNode(req: LlmNodeRequest): Promise<LlmNodeResult> {
    return { output: runLlmRule(req), model: 'offline' };
  }

  return { id: 'offline', kind: 'offline', label: OFFLINE_POLICY_LABEL, cues, planToolCalls, runLlmNode };
}
