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
 * Conditional-branch edits (DESIGN.md, "Edit plans": add or refine a conditional branch). A branch
 * is the IR's exclusive-choice pattern, the same one the miner builds for `X( 'b', tau )`: a judge
 * LLM node with JSON output `{<field>: boolean}`, a data edge into the optional node guarded by
 * `field eq true`, and a control skip edge to the join point guarded by `field ne true`, so exactly
 * one of them is live and the join runs either way (dead-path elimination).
 */

/** Makes an existing node (`target`) or a new one (`node` between `after` and `before`) optional. */
export function addBranch(w: Workflow, edit: AddBranchEdit): void {
  if ((edit.target === undefined) === (edit.node === undefined)) {
    refuse('give either target (an existing node to make optional) or node (a new node), exactly one of them');
  }
  if (edit.question !== undefined && edit.prompt !== undefined) refuse('give the judge a question or a prompt, not both');
  requireNewId(w, edit.judge);
  const judge = buildJudge(edit.judge, edit.field, edit.question, edit.prompt);
  const onBranch: Guard = { kind: 'field', field: edit.field, op: 'eq', value: true };
  const onSkip: Guard = { kind: 'field', field: edit.field, op: 'ne', value: true };

  if (edit.target !== undefined) {
    const target = edit.target;
    requireNode(w, target);
    if (edit.after !== undefined || edit.before !== undefined) {
      refuse('after and before go with node; an existing target keeps its place (its incoming edges move to the judge)');
    }
    if (isEntry(w, target)) refuse(`'${target}' is the entry of the workflow and cannot be optional`);
    if (isExit(w, target)) refuse(`'${target}' is the exit of the workflow and cannot be optional`);
    const ins = inEdges(w, target);
    const outs = outEdges(w, target);
    if (ins.length === 0 || outs.length === 0) refuse(`'${target}' is not between two nodes; connect it first`);
    w.nodes.splice(w.nodes.findIndex((n) => n.id === target), 0, judge);
    w.edges = w.edges.filter((e) => e.to !== target);
    for (const e of ins) upsertEdge(w, { from: e.from, to: judge.id, kind: 'data', ...(e.when ? { when: e.when } : {}) });
    upsertEdge(w, { from: judge.id, to: target, kind: 'data', when: onBranch });
    for (const e of outs) upsertEdge(w, { from: judge.id, to: e.to, kind: 'control', when: onSkip });
    return;
  }

  if (edit.after === undefined || edit.before === undefined) refuse('a new branch node needs after (the node the judge follows) and before (the join point)');
  requireNode(w, edit.after);
  requireNode(w, edit.before);
  const node = materializeNode(edit.node!);
  if (node.id === judge.id) refuse(`the judge and the new node both have the id '${node.id}'; give them different ids`);
  requireNewId(w, node.id);
  w.nodes.splice(w.nodes.findIndex((n) => n.id === edit.before), 0, judge, node);
  upsertEdge(w, { from: edit.after, to: judge.id, kind: 'data' });
  upsertEdge(w, { from: judge.id, to: node.id, kind: 'data', when: onBranch });
  upsertEdge(w, { from: node.id, to: edit.before, kind: 'data' });
  upsertEdge(w, { from: judge.id, to: edit.before, kind: 'control', when: onSkip });
}

/** Changes the guard of one edge out of a judge, and/or the judge's question or prompt. */
export function refineBranch(w: Workflow, edit: RefineBranchEdit): void {
  const judge = requireKind(w, edit.judge, 'llm');
  if (edit.when === undefined && edit.question === undefined && edit.prompt === undefined) {
    refuse('nothing to change: give when (with to), question or prompt');
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
    judge.prompt = makeLlmNode('judge', judge.id, { field, question: edit.question }).prompt;
    if (judge.output.type === 'json') {
      const prop = judge.output.schema.properties[field];
      if (prop && 'description' in prop) prop.description = edit.question;
    }
  }
}

function buildJudge(id: string, field: string, question: string | undefined, prompt: string | undefined): LlmNode {
  try {
    return makeLlmNode('judge', id, {
      field,
      ...(question !== undefined ? { question } : {}),
      ...(prompt !== undefined ? { prompt } : {}),
    });
  } catch (e) {
    refuse(e instanceof Error ? e.message : String(e));
  }
}

/** The boolean field a judge's question is about: the first boolean property of its JSON output. */
function booleanField(judge: LlmNode): string {
  if (judge.output.type !== 'json') refuse(`node '${judge.id}' has text output, so it is not a judge; give it a prompt instead of a question`);
  const props = judge.output.schema.properties;
  const field = Object.keys(props).find((k) => props[k]?.type === 'boolean');
  if (!field) refuse(`node '${judge.id}' declares no boolean field; give it a prompt instead of a question`);
  return field;
}
