import { makeLlmNode, REQUEST_AND_INPUTS } from '../../graph/prompt-templates.js';
import type { ChoiceOption, Edge, Guard, ToolNode, WorkflowNode } from '../../graph/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import {
  innerSkeletons,
  stepTools,
  type ChoiceSlot,
  type ParallelSlot,
  type StepSlot,
  type Skeleton,
} from './skeleton.js';
import { stepQuestion, stepTask, toolsAbout } from './tasks.js';

/**
 * Skeleton → workflow nodes and edges (docs/DESIGN.md, "Mining"), between a `plan` entry
 * and a `synthesize` exit:
 * - a step → a generic tool node (`step_k`) with its task, `mined` tools, and `calls: 'many'`
 *   (or `retry` for tools whose repeats were retries) when it repeats;
 * - consecutive slots → data edges from the previous slot's exits;
 * - an optional step (support at most `optionalAtMost`) → a `judge` node (`needed_k`) that decides
 *   whether the step runs: a guarded edge into the tool (`needed` true) and a guarded skip edge past
 *   it (`needed` false). Execution is an OR-join with dead-path elimination, so a gated tool must have
 *   no unguarded in-edge; the judge therefore also returns `facts`, the values from earlier outputs
 *   that the step needs, which is what the gated tool sees;
 * - a parallel slot → an unguarded fan-out from the previous exits and an implicit join (the next
 *   node waits for every branch), gated by a judge when the whole slot is optional;
 * - a choice → a branch: a `judge` node (`branch_k`) whose `choices` list each option's tools in order
 *   and what they do (and `none`, a branch that makes no call, when some runs took no option), a
 *   guarded edge (`branch eq 'option_i'`) into each option's steps, and the next slot entered from
 *   whichever branch ran; options most runs took first, and the judge's answer when nothing fits is
 *   `none` (or, without it, the first option);
 * - every ungated node also gets a data edge from `plan` (the values the request names), and every
 *   tool node a data edge into `synthesize`, which needs all results, not only the last step's.
 */
export interface BuildGraphOptions {
  descriptors: ReadonlyMap<string, ToolDescriptor>;
  optionalAtMost: number;
  retryTools: ReadonlySet<string>;
  /** How an optional step is kept: behind a judge, or as a step that may make no call. */
  optional: 'judge' | 'open';
}

interface Exit {
  id: string;
  when?: Guard;
}

const NEEDED = 'needed';
/** A branch judge's answer field, and the value of the option that makes no call. */
export const BRANCH_FIELD = 'branch';
export const NO_BRANCH = 'none';
const chosen = (value: string): Guard => ({ kind: 'field', field: BRANCH_FIELD, op: 'eq', value });
const TRUE: Guard = { kind: 'field', field: NEEDED, op: 'truthy' };
const FALSE: Guard = { kind: 'field', field: NEEDED, op: 'falsy' };

const GATE_PROMPT = [
  'Decide whether this step is needed to answer the request: {{question}}',
  '',
  ...REQUEST_AND_INPUTS,
  '',
  'Reply with a JSON object and nothing else: {"needed": true or false, "facts": "…"}, where "facts" lists the names,',
  'values and identifiers from the information so far that the next step needs, copied exactly.',
].join('\n');

const BRANCH_PROMPT = [
  'Choose how the workflow goes on for this request: the branch whose steps do what the request still needs, in that order.',
  `Answer "${NO_BRANCH}" when the request needs none of them (when that is listed).`,
  '',
  ...REQUEST_AND_INPUTS,
  '',
  'Branches:',
  '{{choices}}',
  '',
  `Reply with a JSON object and nothing else: {"${BRANCH_FIELD}": "<one of the names listed above>"}.`,
].join('\n');

/** The tools a skeleton may call, in order: each step's tools, most used first (inner skeletons one after another). */
function shapeSequence(seq: Skeleton): string[] {
  const out = seq.flatMap((s) => (s.kind === 'step' ? stepTools(s) : innerSkeletons(s).flatMap(shapeSequence)));
  return [...new Set(out)];
}

/** Builds nodes and edges for `skeleton`; returns them with the tool node ids in order. */
export function buildGraph(
  shape: Skeleton,
  opts: BuildGraphOptions,
): { nodes: WorkflowNode[]; edges: Edge[]; support: Record<string, number> } {
  const nodes: WorkflowNode[] = [makeLlmNode('plan', 'plan')];
  const edges: Edge[] = [];
  const seen = new Set<string>();
  const toolIds: string[] = [];
  const support: Record<string, number> = {};
  let step = 0;
  let branches = 0;
  const edge = (from: string, to: string, when?: Guard) => {
    const key = `${from}\u0000${to}`;
    if (seen.has(key)) return;
    seen.add(key);
    edges.push(when ? { from, to, kind: 'data', when } : { from, to, kind: 'data' });
  };
  const enter = (exits: Exit[], to: string, gated: boolean) => {
    for (const x of exits) edge(x.id, to, x.when);
    if (!gated) edge('plan', to);
  };
  const judge = (id: string, question: string): WorkflowNode =>
    makeLlmNode('judge', id, {
      field: NEEDED,
      question,
      prompt: GATE_PROMPT,
      output: {
        type: 'json',
        schema: {
          type: 'object',
          properties: {
            [NEEDED]: { type: 'boolean', description: question },
            facts: { type: 'string', description: 'values from earlier results that the step needs' },
          },
          required: [NEEDED, 'facts'],
        },
      },
    });

  const stepNode = (slot: StepSlot, exits: Exit[], gated: boolean): Exit[] => {
    step++;
    const mined = stepTools(slot);
    const node: ToolNode = {
      id: `step_${step}`,
      kind: 'tool',
      task: stepTask(step, mined, opts.descriptors),
      mined,
    };
    if (slot.many) {
      if (mined.length === 1 && opts.retryTools.has(mined[0]!)) node.retry = { attempts: 3, on: 'error' };
      else node.calls = 'many';
    }
    toolIds.push(node.id);
    support[node.id] = Math.round(slot.support * 1000) / 1000;
    const optional = slot.support <= opts.optionalAtMost;
    if (optional && opts.optional === 'open' && !node.retry) {
      node.calls = 'many';
      node.optional = true;
    }
    if (!optional || opts.optional === 'open') {
      nodes.push(node);
      enter(exits, node.id, gated);
      return [{ id: node.id }];
    }
    const gate = judge(`needed_${step}`, stepQuestion(step, mined, opts.descriptors));
    nodes.push(gate, node);
    enter(exits, gate.id, gated);
    edge(gate.id, node.id, TRUE);
    return [{ id: node.id }, { id: gate.id, when: FALSE }];
  };

  const parallel = (slot: ParallelSlot, exits: Exit[], gated: boolean): Exit[] => {
    let start = exits;
    let gateExit: Exit[] = [];
    let innerGated = gated;
    if (slot.support <= opts.optionalAtMost && opts.optional === 'judge') {
      const first = step + 1;
      const gate = judge(
        `branches_${first}`,
        `Does this request need the parallel lookups that start at step ${first}?`,
      );
      nodes.push(gate);
      enter(exits, gate.id, gated);
      start = [{ id: gate.id, when: TRUE }];
      gateExit = [{ id: gate.id, when: FALSE }];
      innerGated = true;
    }
    const out: Exit[] = [];
    for (const branch of slot.branches) out.push(...sequence(branch, start, innerGated));
    return [...out, ...gateExit];
  };

  const choice = (slot: ChoiceSlot, exits: Exit[], gated: boolean): Exit[] => {
    const id = `branch_${++branches}`;
    const options = slot.options
      .map((o, i) => ({ o, i, s: slot.shares[i] ?? 0 }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map((x) => x.o);
    const listed = options.map((o, i): ChoiceOption => {
      // A run may call an API the tool definitions lack (a noisy log): the option lists the tools it can call.
      const tools = shapeSequence(o).filter((t) => opts.descriptors.size === 0 || opts.descriptors.has(t));
      return { value: `option_${i + 1}`, tools, about: toolsAbout(tools, opts.descriptors) };
    });
    const values = [...listed.map((o) => o.value), ...(slot.none ? [NO_BRANCH] : [])];
    nodes.push({
      id,
      kind: 'llm',
      role: 'judge',
      prompt: BRANCH_PROMPT,
      choices: { field: BRANCH_FIELD, options: listed, ...(slot.none ? { otherwise: NO_BRANCH } : {}), part: true },
      output: {
        type: 'json',
        schema: {
          type: 'object',
          properties: {
            [BRANCH_FIELD]: {
              type: 'string',
              enum: values,
              description: 'the branch whose steps do what this request still needs',
            },
          },
          required: [BRANCH_FIELD],
        },
      },
    });
    enter(exits, id, gated);
    const out: Exit[] = [];
    options.forEach((o, i) => out.push(...sequence(o, [{ id, when: chosen(listed[i]!.value) }], true)));
    if (slot.none) out.push({ id, when: chosen(NO_BRANCH) });
    return out;
  };

  const sequence = (seq: Skeleton, exits: Exit[], gated: boolean): Exit[] => {
    let cur = exits;
    for (const slot of seq)
      cur =
        slot.kind === 'step'
          ? stepNode(slot, cur, gated)
          : slot.kind === 'parallel'
            ? parallel(slot, cur, gated)
            : choice(slot, cur, gated);
    return cur;
  };

  const last = sequence(shape, [{ id: 'plan' }], false);
  nodes.push(makeLlmNode('synthesize', 'synthesize'));
  for (const x of last) edge(x.id, 'synthesize', x.when);
  for (const id of toolIds) edge(id, 'synthesize');
  return { nodes, edges, support };
}
