import { makeLlmNode } from '../prompt-templates.js';
import type { Guard, LlmNode, Workflow } from '../schema.js';
import {
  inEdges,
  isEntry,
  isExit,
  materializeNode,
  outEdges,
  refuse,
  requireEdge,
  requireKind,
  requireNewId,
  requireNode,
  upsertEdge,
} from './draft.js';
import type { AddBranchEdit, RefineBranchEdit } from './edit-schema.js';

/**
 * Conditional-branch edits (docs/DESIGN.md, "Edit plans": add or refine a conditional branch). A branch
 * is the IR's exclusive-choice pattern (the miner builds the same for `X( 'b', tau )`): a judge LLM
 * node with JSON output `{<field>: boolean, facts?: string}` and a data edge into the optional node
 * guarded by `field eq true`. Two choices keep the branch safe under dead-path elimination:
 * - the skip edge from the judge to the join point is an unguarded control edge, so the join runs
 *   whether the branch ran, was skipped, or the judge failed (the runtime makes every guarded edge of
 *   a failed judge dead, which with a guarded skip edge could starve the join, even the exit);
 * - the optional node's only input is the judge, so the judge also returns `facts`, the values from
 *   its inputs that the optional step needs, instead of the optional step losing them.
 */

/** Makes an existing node (`target`) or a new one (`node` between `after` and `before`) optional. */
export function addBranch(w: Workflow, edit: AddBranchEdit): void {
  if ((edit.target === undefined) === (edit.node === undefined)) {
    refuse('give either target (an existing node to make optional) or node (a new node), exactly one of them');
  }
  if (edit.question !== undefined && edit.prompt !== undefined)
    refuse('give the judge a question or a prompt, not both');
  requireNewId(w, edit.judge);
  const judge = buildJudge(edit.judge, edit.field, edit.question, edit.prompt);
  const onBranch: Guard = { kind: 'field', field: edit.field, op: 'eq', value: true };

  if (edit.target !== undefined) {
    const target = edit.target;
    requireNode(w, target);
    if (edit.after !== undefined || edit.before !== undefined) {
      refuse(
        'after and before go with node; an existing target keeps its place (its incoming edges move to the judge)',
      );
    }
    if (isEntry(w, target)) refuse(`'${target}' is the entry of the workflow and cannot be optional`);
    if (isExit(w, target)) refuse(`'${target}' is the exit of the workflow and cannot be optional`);
    const ins = inEdges(w, target);
    const outs = outEdges(w, target);
    if (ins.length === 0 || outs.length === 0) refuse(`'${target}' is not between two nodes; connect it first`);
    w.nodes.splice(
      w.nodes.findIndex((n) => n.id === target),
      0,
      judge,
    );
    w.edges = w.edges.filter((e) => e.to !== target);
    for (const e of ins)
      upsertEdge(w, { from: e.from, to: judge.id, kind: 'data', ...(e.when ? { when: e.when } : {}) });
    upsertEdge(w, { from: judge.id, to: target, kind: 'data', when: onBranch });
    for (const e of outs) upsertEdge(w, { from: judge.id, to: e.to, kind: 'control' });
    return;
  }

  if (edit.after === undefined || edit.before === undefined)
    refuse('a new branch node needs after (the node the judge follows) and before (the join point)');
  requireNode(w, edit.after);
  requireNode(w, edit.before);
  const node = materializeNode(edit.node!);
  if (node.id === judge.id) refuse(`the judge and the new node both have the id '${node.id}'; give them different ids`);
  requireNewId(w, node.id);
  w.nodes.splice(
    w.nodes.findIndex((n) => n.id === edit.before),
    0,
    judge,
    node,
  );
  upsertEdge(w, { from: edit.after, to: judge.id, kind: 'data' });
  upsertEdge(w, { from: judge.id, to: node.id, kind: 'data', when: onBranch });
  upsertEdge(w, { from: node.id, to: edit.before, kind: 'data' });
  upsertEdge(w, { from: judge.id, to: edit.before, kind: 'control' });
}

/** Changes the guard of one edge out of a judge, and/or the judge's question or prompt. */
export function refineBranch(w: Workflow, edit: RefineBranchEdit): void {
  const judge = requireKind(w, edit.judge, 'llm');
  if (
    edit.when === undefined &&
    edit.question === undefined &&
    edit.prompt === undefined &&
    edit.fallback === undefined
  ) {
    refuse('nothing to change: give when (with to), question, prompt or fallback');
  }
  // A fallback that is none of the options is refused by the validation of the result (llm-node-checks.ts).
  if (edit.fallback !== undefined) {
    const choices = judge.choices;
    if (!choices) refuse(`'${judge.id}' picks no branch (it has no choices), so it has no fallback`);
    if (edit.fallback === null) delete choices.fallback;
    else choices.fallback = edit.fallback;
  }
  if (edit.question !== undefined && edit.prompt !== undefined) refuse('give a question or a prompt, not both');
  if (edit.when !== undefined) {
    if (edit.to === undefined) refuse('when needs to: the target of the edge whose guard changes');
    const edge = requireEdge(w, judge.id, edit.to);
    if (edit.when === null) delete edge.when;
    else edge.when = edit.when;
  } else if (edit.to !== undefined) {
    refuse('to goes with when: give the new guard of the edge');
  }
  if (edit.prompt !== undefined) judge.prompt = edit.prompt;
  if (edit.question !== undefined) {
    const field = booleanField(judge);
    // The judge template again, whose {{question}} renders the new `question`.
    judge.prompt = makeLlmNode('judge', judge.id, { field, question: edit.question }).prompt;
    judge.question = edit.question;
    if (judge.output.type === 'json') {
      const prop = judge.output.schema.properties[field];
      if (prop && 'description' in prop) prop.description = edit.question;
    }
  }
}

const FACTS_FIELD = 'facts';
const FACTS_DESCRIPTION =
  'the values from the information above that the next step needs (names, ids, dates, numbers), copied exactly';

/** The judge of a new branch: the role template (or the given prompt) plus a `facts` pass-through field. */
function buildJudge(id: string, field: string, question: string | undefined, prompt: string | undefined): LlmNode {
  if (field === FACTS_FIELD)
    refuse(`"${FACTS_FIELD}" is the judge's pass-through field; name the boolean field something else`);
  let judge: LlmNode;
  try {
    judge = makeLlmNode('judge', id, {
      field,
      ...(question !== undefined ? { question } : {}),
      ...(prompt !== undefined ? { prompt } : {}),
    });
  } catch (e) {
    refuse(e instanceof Error ? e.message : String(e));
  }
  if (judge.output.type === 'json')
    judge.output.schema.properties[FACTS_FIELD] = { type: 'string', description: FACTS_DESCRIPTION };
  if (prompt === undefined) judge.prompt += `\nAlso set "${FACTS_FIELD}" to ${FACTS_DESCRIPTION}.`;
  return judge;
}

/** The boolean field a judge's question is about: the first boolean property of its JSON output. */
function booleanField(judge: LlmNode): string {
  if (judge.output.type !== 'json')
    refuse(`node '${judge.id}' has text output, so it is not a judge; give it a prompt instead of a question`);
  const props = judge.output.schema.properties;
  const field = Object.keys(props).find((k) => props[k]?.type === 'boolean');
  if (!field) refuse(`node '${judge.id}' declares no boolean field; give it a prompt instead of a question`);
  return field;
}
