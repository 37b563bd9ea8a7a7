import type { Workflow } from '../graph/schema.js';
import { GENERIC_STEP_TASK, makeLlmNode } from '../graph/prompt-templates.js';
import { assertValidWorkflow } from '../graph/validate.js';
import { discoverProcessTree } from '../mining/inductive/discover.js';
import { eventLogFromRecords } from '../mining/event-log/from-records.js';
import { processTreeToWorkflow, recordOptions } from '../mining/to-workflow.js';
import type { TaskRecord } from '../records/schema.js';
import type { ToolDescriptor } from '../contracts/tools.js';

/**
 * Where a search starts (docs/DESIGN.md, "Baselines and ablations"): the mined G0 (the paper's method;
 * `skeleton` is the mined G0 without its router over the recurring variants, `merged` the mined G0
 * whose choices between step sequences are merged into steps instead of kept as branches:
 * docs/DESIGN.md, "Mining"),
 * the NoMiner skeleton plan → one generic tool node → synthesize, and the LLM-only start
 * plan → reason → synthesize (no tool nodes, for the AFlow-style baseline).
 */

/** Which workflow the search starts from. */
export type SearchStart = 'mined' | 'merged' | 'skeleton' | 'plain' | 'llm-only';

/** How each start is named where results are shown (G0's row: `G0 (<label>)`). */
export const START_LABELS: Record<SearchStart, string> = {
  mined: 'mined from D_opt',
  merged: 'mined from D_opt, choices merged into steps',
  skeleton: 'mined from D_opt, no router',
  plain: 'NoMiner skeleton',
  'llm-only': 'LLM-only skeleton',
};

/** The workflow a search starts from: G0 mined from D_opt (with its router unless `skeleton`), or one of the skeletons. */
export function startWorkflow(
  start: SearchStart,
  opt: readonly TaskRecord[],
  tools: readonly ToolDescriptor[],
  opts: { source?: string } = {},
): Workflow {
  if (start === 'plain') return plainSkeleton(tools);
  if (start === 'llm-only') return llmOnlySkeleton();
  return minedG0(opt, tools, { routes: start !== 'skeleton', branches: start !== 'merged', ...opts });
}

/**
 * G0 mined from the D_opt records (inductive miner over their tool-call logs, then the skeleton), with
 * a router over the records' recurring variants in front (`routes: false` leaves it out). It is named
 * after the records' domain, else `source` (what the records are called: their folder, a bench
 * domain), e.g. "retail G0".
 */
export function minedG0(
  opt: readonly TaskRecord[],
  tools: readonly ToolDescriptor[],
  opts: { name?: string; source?: string; noiseThreshold?: number; routes?: boolean; branches?: boolean } = {},
): Workflow {
  const log = eventLogFromRecords(opt);
  const noiseThreshold = opts.noiseThreshold ?? 0;
  const tree = discoverProcessTree(log, { noiseThreshold });
  const domain = opt.find((r) => r.domain)?.domain;
  return processTreeToWorkflow(tree, {
    tools,
    name: opts.name ?? `${domain ?? opts.source ?? 'records'} G0`,
    log,
    noiseThreshold,
    ...recordOptions(opt, tools, { routes: opts.routes !== false }),
    ...(opts.branches === false ? { branches: false } : {}),
    ...(domain ? { domain } : {}),
  });
}

/** NoMiner: plan → one generic tool node → synthesize. */
export function plainSkeleton(tools: readonly ToolDescriptor[], name = 'plain skeleton'): Workflow {
  const w: Workflow = {
    version: 1,
    name,
    description: 'NoMiner start: one generic tool-calling position between a plan and a synthesis step.',
    nodes: [
      makeLlmNode('plan', 'plan'),
      {
        id: 'call',
        kind: 'tool',
        task: GENERIC_STEP_TASK,
      },
      makeLlmNode('synthesize', 'synthesize'),
    ],
    edges: [
      { from: 'plan', to: 'call', kind: 'data' },
      { from: 'call', to: 'synthesize', kind: 'data' },
    ],
    meta: { start: 'plain' },
  };
  return assertValidWorkflow(w, tools, 'the NoMiner skeleton');
}

/** LLM-only: plan → reason → synthesize, no tool node. */
export function llmOnlySkeleton(name = 'LLM-only skeleton'): Workflow {
  const w: Workflow = {
    version: 1,
    name,
    description: 'LLM-only start (tool nodes forbidden): plan, reason, synthesize.',
    nodes: [makeLlmNode('plan', 'plan'), makeLlmNode('reason', 'reason'), makeLlmNode('synthesize', 'synthesize')],
    edges: [
      { from: 'plan', to: 'reason', kind: 'data' },
      { from: 'reason', to: 'synthesize', kind: 'data' },
    ],
    meta: { start: 'llm-only' },
  };
  return assertValidWorkflow(w, [], 'the LLM-only skeleton');
}
