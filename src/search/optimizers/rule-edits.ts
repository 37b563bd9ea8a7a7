import { adjacency, topologicalOrder } from '../../graph/graph-utils.js';
import { neutralTask } from '../../graph/neutral-tasks.js';
import type { Workflow } from '../../graph/schema.js';
import type { Count, FeedbackKind, PatternOf } from '../../evaluate/feedback-types.js';
import { addPosition, appendPosition, freeId } from './new-positions.js';
import { answers, llmOnlyAnswers } from './answer-edits.js';
import { bindable, hints, unseen } from './data-edits.js';
import {
  edit,
  grouped,
  toolNode,
  top,
  type Gen,
  type RuleContext,
  type RuleEdit,
  type RuleTable,
} from './rule-edit.js';

export type { RuleContext, RuleEdit, RuleTable } from './rule-edit.js';

/**
 * The rule table of the offline optimizer (docs/DESIGN.md, "Policies": the offline rule-based
 * optimizer turns missing, extra, wrong or badly argued calls in the feedback into edits). Each feedback
 * pattern maps to one or more candidate edits, each scored by its evidence (records showing the
 * pattern) times a weight for how directly the edit addresses it:
 *
 * | pattern | edit | weight |
 * | --- | --- | --- |
 * | a position picks the wrong tool | `set_tool_hint`: the tools the references use there plus those it already gets right | 1.0 |
 * | calls of a `many` position are extra | `set_calls 'one'` | 1.0 |
 * | a position's calls are nearly all extra | `remove_node` (evidence: records where it was useless) | 1.0 |
 * | a conditional position was skipped where it was needed | `remove_node` of its judge (the position always runs) | 0.9 |
 * | reference calls missing at a slot / a reference tool never called | `add_node`: a tool position after the slot's node, its task from the tool's description, hinted with the slot's tools | 0.8 / 0.6 |
 * | calls of a tool the reference does not call there fail | `set_retry` 2 attempts on error (the retry tries the next tool) | 0.7 |
 * | a position is useful in some records and extra in others | `add_branch`: a judge makes it optional | 0.6 |
 * | fewer calls than the references | `set_calls 'many'` on the position with most correct calls | 0.5 |
 * | the references take more steps than there are positions | `set_calls 'many'` on the last position (it repeats for the steps left) / `add_node`: a generic position at the end | 1.0 / 0.6 |
 * | low answer scores, tool nodes forbidden (LLM-only) | `set_prompt` of the synthesizer and the reasoning nodes; `add_node`: an extract node after the plan | 0.5 / 0.3 |
 * | an argument is wrong | `set_task`: the task names the parameter and the reference's values | 0.4 |
 * | a wrong argument's value was in an earlier node's results the node does not receive | `add_edge`: those nodes feed it | 0.5 |
 * | hints learned from the reference calls differ from what a node reads | `set_hint` per tool, all of them as one plan | 1.5 × √calls |
 * | a program learned from the reference calls gives a parameter its value in more calls than the node passes right now | `set_binding` (with a data edge from its source step), all of them as one plan; proposed before every other edit (rule-based.ts) | 1.2 |
 * | several tool steps make calls out of the references' order, pick other tools or miss calls | `collapse_steps`: one repeating step that keeps the steps' hints and bindings / `drop_mined`: the steps stay, without the tools mined at each (when a step has some) | 1.0 / `DROP_MINED_WEIGHT` |
 * | a router's `otherwise` requests are covered better by one route's tools | `refine_branch` with that route as the router's `fallback` | 1.0 |
 * | low answer scores with correct calls, or low judge dimensions | `set_directives` of the synthesizer: switch to another variant of the template library / append one directive, scored by the low dimensions its directives address (prompt-edits.ts) | 0.5 / 0.5 |
 *
 * `RULES` below is this table as code: the rules of each feedback kind, and a rule is called only
 * with patterns of its kind.
 */

const wrongTool: Gen<'wrong-tool'> = (p, { workflow, feedback }) => {
  const node = toolNode(workflow, p.node);
  if (!node) return [];
  const right = feedback.nodes.find((s) => s.node === p.node)?.matchedTools ?? [];
  const hint = [...new Set([...top(p.expected, 6), ...top(right, 4)])];
  const out = [
    edit(
      `set_tool_hint ${p.node} → ${hint.length} tools: it picks ${p.got[0]?.name} where the reference has ${p.expected[0]?.name} (${p.evidence} records)`,
      p.evidence,
      { op: 'set_tool_hint', id: p.node, tools: hint },
    ),
  ];
  const part = toolPart(workflow, p.node);
  if (biasedTask(p) && node.taskPart !== part && node.taskPart !== 'next') {
    out.push(
      grouped(
        'neutral tasks',
        edit(
          `set_task ${p.node} neutral: it picks ${p.got[0]!.name} in ${p.got[0]!.count} of ${sum(p.got)} wrong calls while the reference uses ${p.expected.length} tools there`,
          p.evidence,
          { op: 'set_task', id: p.node, task: neutralTask(part), taskPart: part },
        ),
      ),
    );
  }
  return out;
};

/**
 * A task that pulls every query to one tool while the references use many at this position. The
 * caller proposes the neutral task only where the node's task is not already one for its place: it
 * reads the node's `taskPart` (the part its neutral task looks up, or `next` for an appended
 * position), never the task's words.
 */
function biasedTask(p: PatternOf<'wrong-tool'>): boolean {
  return p.got.length > 0 && p.got[0]!.count >= 0.5 * sum(p.got) && p.expected.length >= 3;
}

/** The part of the request a neutral task of the node looks up: its ordinal among the tool nodes. */
function toolPart(w: Workflow, id: string): number {
  const kinds = new Map(w.nodes.map((n) => [n.id, n.kind]));
  const toolIds = (topologicalOrder(adjacency(w)) ?? [...kinds.keys()]).filter((x) => kinds.get(x) === 'tool');
  return toolIds.indexOf(id) + 1;
}

const sum = (cs: readonly Count[]) => cs.reduce((n, c) => n + c.count, 0);

const extra: Gen<'extra-calls'> = (p, { workflow, feedback }) => {
  const node = toolNode(workflow, p.node);
  if (!node) return [];
  const out: RuleEdit[] = [];
  if (node.calls === 'many') {
    const one = edit(
      `set_calls ${p.node} one: ${p.extra} of its ${p.calls} calls are extra (${p.evidence} records)`,
      p.evidence,
      { op: 'set_calls', id: p.node, calls: 'one' },
    );
    // The last position repeating is what lets a workflow follow queries longer than it: it is not
    // part of the bulk edit when the references take more steps than there are positions.
    const longer = feedback.patterns.some(
      (x) => x.kind === 'step-count' && x.direction === 'more' && x.last === p.node,
    );
    out.push(longer ? one : grouped('calls one', one));
  }
  const useless = p.evidence - p.usefulIn;
  if (p.extra >= 0.75 * p.calls && useless > 0)
    out.push(
      edit(
        `remove_node ${p.node}: ${p.extra} of its ${p.calls} calls are extra, useful in ${p.usefulIn} records`,
        useless,
        { op: 'remove_node', id: p.node },
      ),
    );
  if (p.usefulIn > 0 && useless > 0) {
    const question = `Does the request ask for what step ${p.node} looks up (${p.tools
      .slice(0, 2)
      .map((t) => t.name.replace(/_for_.*/, '').replace(/_/g, ' '))
      .join(', ')})?`;
    out.push(
      edit(
        `add_branch need_${p.node}: make ${p.node} optional, extra in ${p.evidence} records, useful in ${p.usefulIn}`,
        0.6 * Math.min(useless, p.usefulIn),
        {
          op: 'add_branch',
          judge: freeId(workflow, `need_${p.node}`),
          field: 'needed',
          question,
          target: p.node,
        },
      ),
    );
  }
  return out;
};

const skipped: Gen<'skipped-needed'> = (p, { workflow }) => {
  if (!p.judge) return [];
  const judge = workflow.nodes.find((n) => n.id === p.judge);
  if (!judge || judge.kind !== 'llm' || judge.role !== 'judge') return [];
  return [
    grouped(
      'remove judges',
      edit(
        `remove_node ${p.judge}: ${p.node} always runs; it was skipped in ${p.evidence} records that needed it`,
        0.9 * p.evidence,
        { op: 'remove_node', id: p.judge },
      ),
    ),
  ];
};

const missingCall: Gen<'missing-call'> = (p, ctx) => {
  if (!ctx.allowToolNodes) return [];
  return [
    addPosition(
      ctx,
      p.after,
      top(p.tools, 5),
      1.2 * p.evidence,
      `${p.calls} reference calls missing ${p.after ? `after ${p.after}` : 'at the start'} (${p.evidence} records)`,
    ),
  ];
};

const neverCalled: Gen<'never-called'> = (p, ctx) => {
  if (!ctx.allowToolNodes) return [];
  return [addPosition(ctx, p.after, [p.tool], 0.6 * p.evidence, `${p.tool} never called (${p.evidence} records)`)];
};

const failed: Gen<'failed-calls'> = (p, { workflow }) => {
  const node = toolNode(workflow, p.node);
  // A retry moves to another tool: it can help only where the failing call was not the reference's tool.
  if (!node || (node.retry?.attempts ?? 1) >= 2 || p.otherTool === 0) return [];
  return [
    grouped(
      'retries',
      edit(
        `set_retry ${p.node} 2 on error: ${p.count} calls of ${p.tool} failed (${p.otherTool} records where the reference uses another tool there)`,
        0.7 * p.otherTool,
        { op: 'set_retry', id: p.node, attempts: 2, on: 'error' },
      ),
    ),
  ];
};

const fewer: Gen<'call-count'> = (p, { workflow, feedback }) => {
  if (p.direction !== 'fewer') return [];
  const best = [...feedback.nodes]
    .filter((s) => toolNode(workflow, s.node)?.calls !== 'many')
    .sort((a, b) => b.matched - a.matched || a.node.localeCompare(b.node))[0];
  if (!best) return [];
  return [
    edit(
      `set_calls ${best.node} many: fewer calls than the reference in ${p.evidence} records (${p.meanKHat.toFixed(1)} vs ${p.meanK.toFixed(1)})`,
      0.5 * p.evidence,
      { op: 'set_calls', id: best.node, calls: 'many' },
    ),
  ];
};

const args: Gen<'wrong-args'> = (p, { workflow }) => {
  return p.nodes.flatMap((id) => {
    const node = toolNode(workflow, id);
    if (!node || node.task.includes(`\`${p.key}\``)) return [];
    // The task names the parameter, never a record's value (a workflow carries no record text).
    const hasValues = p.examples.some((x) => x.expected !== undefined);
    const cue = hasValues
      ? `Fill \`${p.key}\` with the value the request or the earlier results give for it.`
      : `Leave \`${p.key}\` out unless the request gives it.`;
    return [
      edit(`set_task ${id}: argument ${p.key} of ${p.tool} wrong in ${p.calls} calls`, 0.4 * p.evidence, {
        op: 'set_task',
        id,
        task: `${node.task} ${cue}`,
      }),
    ];
  });
};

const steps: Gen<'step-count'> = (p, ctx) => {
  if (p.direction !== 'more' || !p.last || !ctx.allowToolNodes) return [];
  const why = `the references take more steps than the ${p.positions} tool positions in ${p.evidence} records (mean ${p.meanK.toFixed(1)} calls)`;
  const out: RuleEdit[] = [];
  if (p.lastCalls !== 'many')
    out.push(
      edit(`set_calls ${p.last} many: ${why}; the last position repeats for the steps left`, p.evidence, {
        op: 'set_calls',
        id: p.last,
        calls: 'many',
      }),
    );
  out.push(appendPosition(ctx, p.last, 0.6 * p.evidence, why));
  return out;
};

/** A router's fallback: the route whose tools cover the references of its `otherwise` requests best. */
const fallback: Gen<'route-fallback'> = (p) => {
  return [
    edit(`refine_branch ${p.judge} fallback → ${p.option}: ${p.text}`, p.evidence, {
      op: 'refine_branch',
      judge: p.judge,
      fallback: p.option,
    }),
  ];
};

/**
 * How `drop_mined` is weighed against its evidence (the records the steps' layout got wrong).
 * Decided on the searches' D_val over seven domains (docs/guides/benchmarks.md, History): 1.5, so it
 * is tried before `collapse_steps` (weight 1); at 0.9, after it, the searches' D_val did not rise
 * (retail 0.272 both, Gaming lower) and 3 gave the figures of 1.5.
 */
export const DROP_MINED_WEIGHT = 1.5;

/**
 * The mined layout does not fit the requests: one repeating step instead, or the same steps without
 * the tools mined at each (the search keeps either only if D_val rises, so FlowScout's start never
 * costs against NoMiner's).
 */
const collapse: Gen<'layout'> = (p, { workflow }) => {
  // The step is called `call`, as NoMiner's is, unless an LLM node has that id.
  const id = workflow.nodes.some((n) => n.id === 'call' && n.kind !== 'tool') ? freeId(workflow, 'call') : 'call';
  const mined = workflow.nodes.some((n) => n.kind === 'tool' && (n.mined ?? []).length > 0);
  return [
    edit(
      `collapse_steps → ${id}: ${p.steps} steps made ${p.reordered} calls out of order, ${p.wrongTool} with another tool, missed ${p.missing} (${p.evidence} records)`,
      p.evidence,
      { op: 'collapse_steps', id },
    ),
    ...(mined
      ? [
          edit(
            `drop_mined: ${p.steps} steps picked another tool for ${p.wrongTool} calls and missed ${p.missing} (${p.evidence} records); they keep their places without the tools mined there`,
            DROP_MINED_WEIGHT * p.evidence,
            { op: 'drop_mined' },
          ),
        ]
      : []),
  ];
};

/**
 * The rule table: the rules that answer each kind of feedback pattern (see the table at the top).
 * A node error (the node failed as a whole) has no edit of its own: what made it fail shows in the
 * other patterns.
 */
export const RULES: RuleTable = {
  'wrong-tool': [wrongTool],
  'extra-calls': [extra],
  'skipped-needed': [skipped],
  'missing-call': [missingCall],
  'never-called': [neverCalled],
  'failed-calls': [failed],
  'call-count': [fewer],
  'step-count': [steps],
  'wrong-args': [args],
  bindable: [bindable],
  hints: [hints],
  'route-fallback': [fallback],
  layout: [collapse],
  'unseen-values': [unseen],
  'low-answers': [answers, llmOnlyAnswers],
  'node-error': [],
};

/** The edits the rules of a pattern's kind give for it. */
function editsOf<K extends FeedbackKind>(table: RuleTable, p: PatternOf<K>, ctx: RuleContext): RuleEdit[] {
  const rules: ReadonlyArray<Gen<K>> = table[p.kind as K];
  return rules.flatMap((rule) => rule(p, ctx));
}

/**
 * Every candidate edit the feedback supports, unsorted: the single edits, pattern by pattern in the
 * feedback's order, and for each group with edits on two or more nodes, one plan doing them all (its
 * score is the sum of theirs: it addresses all their evidence at once). `table` is `RULES` but in tests.
 */
export function ruleEdits(ctx: RuleContext, table: RuleTable = RULES): RuleEdit[] {
  const singles = ctx.feedback.patterns
    .flatMap((p) => editsOf(table, p, ctx))
    .filter((e) => ctx.allowToolNodes || !mentionsToolNode(e, ctx.workflow));
  const groups = new Map<string, RuleEdit[]>();
  for (const e of singles) {
    if (!e.group) continue;
    const key = JSON.stringify(e.plan.edits);
    const list = groups.get(e.group) ?? [];
    if (!list.some((x) => JSON.stringify(x.plan.edits) === key)) list.push(e);
    groups.set(e.group, list);
  }
  const combined = [...groups.entries()]
    .filter(([, list]) => list.length >= 2)
    .map(([group, list]) => {
      const targets = [...new Set(list.map((e) => targetOf(e)))];
      const where = `${targets.length} node${targets.length === 1 ? '' : 's'} (${targets.join(', ')})`;
      return grouped(
        group,
        edit(
          targets.length === list.length ? `${group} on ${where}` : `${group}: ${list.length} edits on ${where}`,
          list.reduce((n, e) => n + e.score, 0),
          ...list.flatMap((e) => e.plan.edits),
        ),
      );
    });
  // Bindings go as one plan when there are several: each alone rarely moves a score, and offered one
  // by one they would take the search's iterations from the edits that do.
  const bound = groups.get('bind')?.length ?? 0;
  return [...singles.filter((e) => !(e.group === 'bind' && bound >= 2)), ...combined];
}

function targetOf(e: RuleEdit): string {
  const first = e.plan.edits[0]!;
  return 'id' in first ? String(first.id) : 'to' in first && typeof first.to === 'string' ? first.to : '?';
}

function mentionsToolNode(e: RuleEdit, w: Workflow): boolean {
  return e.plan.edits.some(
    (x) => ('id' in x && toolNode(w, x.id as string)) || (x.op === 'add_node' && x.node.kind === 'tool'),
  );
}
