import { FlowScoutError } from '../../errors/index.js';
import { problemsFromZod, type Problem } from '../problems.js';
import type { Workflow } from '../schema.js';
import { parseWorkflow, validateWorkflow, type ToolNames } from '../validate.js';
import { addBranch, refineBranch } from './branch-edits.js';
import { EditRefusal } from './draft.js';
import { addEdge, reconnectEdge, removeEdgeEdit } from './edge-edits.js';
import { EDIT_OPS, EditPlanSchema, type Edit, type EditOp, type EditPlan } from './edit-schema.js';
import { collapseSteps, dropMined, parallelize, sequentialize, setCalls, setRetry } from './flow-edits.js';
import { addNode, removeNode, replaceNode } from './node-edits.js';
import { setBinding, setDirectives, setHint, setPrompt, setTask, setToolHint } from './prompt-edits.js';

/** Why a plan was not applied: which edit (0-based; -1 for the plan or input as a whole), and what to do. */
export interface EditPlanError {
  editIndex: number;
  op: EditOp | 'plan' | 'input';
  /** Starts with the edit, e.g. "edit 2 of 3 (remove_node 'plan'): …". */
  message: string;
  /** The validation (or plan schema) problems, when that is why. */
  problems?: Problem[];
}

/** The new workflow, or why the plan was refused (the input is untouched either way). */
export type ApplyEditPlanResult = { ok: true; workflow: Workflow } | { ok: false; error: EditPlanError };

/** What the result is validated against. */
export interface ApplyEditPlanOptions {
  /** The tools T the result is validated against (tool hints must exist in it). */
  tools?: ToolNames;
}

type Apply<E> = (w: Workflow, edit: E) => void;
const APPLY: { [K in EditOp]: Apply<Extract<Edit, { op: K }>> } = {
  add_node: addNode,
  remove_node: removeNode,
  replace_node: replaceNode,
  add_edge: addEdge,
  remove_edge: removeEdgeEdit,
  reconnect_edge: reconnectEdge,
  add_branch: addBranch,
  refine_branch: refineBranch,
  parallelize,
  sequentialize,
  set_retry: setRetry,
  set_calls: setCalls,
  collapse_steps: collapseSteps,
  drop_mined: dropMined,
  set_prompt: setPrompt,
  set_directives: setDirectives,
  set_task: setTask,
  set_tool_hint: setToolHint,
  set_binding: setBinding,
  set_hint: setHint,
};

/**
 * Applies an edit plan (docs/DESIGN.md, "Edit plans": a pure function followed by validation). The input
 * is never changed. Edits run in order on a copy; an edit that cannot apply stops the plan with a
 * message naming it. The result must be Valid(G, T); when it is not, the error names the edit that
 * introduced the first remaining problem (intermediate states may be invalid, e.g. remove an edge,
 * then add its replacement). `plan` may be untrusted data (an optimizer's output): it is parsed first.
 */
export function applyEditPlan(
  workflow: Workflow,
  plan: EditPlan | unknown,
  opts: ApplyEditPlanOptions = {},
): ApplyEditPlanResult {
  const parsedPlan = EditPlanSchema.safeParse(plan, { reportInput: true });
  if (!parsedPlan.success) return { ok: false, error: planSchemaError(plan, parsedPlan.error) };
  const edits = parsedPlan.data.edits;
  const input = parseWorkflow(workflow);
  if (!input.ok) {
    const text = input.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
    return {
      ok: false,
      error: {
        editIndex: -1,
        op: 'input',
        message: `the workflow to edit does not match the IR schema: ${text}`,
        problems: input.problems,
      },
    };
  }

  const draft = editableCopy(input.workflow);
  for (const [i, edit] of edits.entries()) {
    try {
      (APPLY[edit.op] as Apply<Edit>)(draft, edit);
    } catch (e) {
      if (!(e instanceof EditRefusal)) throw e;
      return { ok: false, error: { editIndex: i, op: edit.op, message: `${editLabel(edits, i)}: ${e.message}` } };
    }
  }

  const tools = opts.tools === undefined ? undefined : [...opts.tools];
  const problems = validateWorkflow(draft, tools);
  if (problems.length === 0) return { ok: true, workflow: draft };
  // The intermediate states are rebuilt only now, to blame an edit: a workflow can be large (a learned
  // table travels in it), so the successful path keeps no copy per edit.
  const blamed = blame(statesOf(input.workflow, edits), problems, tools);
  const listed =
    problems.length === 1
      ? problems[0]!.message
      : problems.map((p) => `(${problems.indexOf(p) + 1}) ${p.message}`).join(' ');
  if (blamed < 0) {
    return {
      ok: false,
      error: {
        editIndex: -1,
        op: 'input',
        message: `the workflow was already invalid and the plan does not fix it: ${listed}`,
        problems,
      },
    };
  }
  return {
    ok: false,
    error: {
      editIndex: blamed,
      op: edits[blamed]!.op,
      message: `${editLabel(edits, blamed)}: the result is not a valid workflow: ${listed}`,
      problems,
    },
  };
}

/** Like applyEditPlan, but returns the workflow or throws INVALID_EDIT (for callers without a recovery path). */
export function applyEditPlanOrThrow(
  workflow: Workflow,
  plan: EditPlan | unknown,
  opts: ApplyEditPlanOptions = {},
): Workflow {
  const result = applyEditPlan(workflow, plan, opts);
  if (result.ok) return result.workflow;
  throw new FlowScoutError({
    code: 'INVALID_EDIT',
    message: result.error.message,
    hint: 'Change or drop that edit; the workflow was left as it was.',
    details: result.error,
  });
}

/** `edit 2 of 3 (remove_node 'plan')`: numbered from 1 for people; `editIndex` is 0-based. */
export function editLabel(edits: readonly Edit[], index: number): string {
  return `edit ${index + 1} of ${edits.length} (${describeEdit(edits[index]!)})`;
}

/** A short name for an edit: its op and the nodes or edge it is about. */
export function describeEdit(edit: Edit): string {
  switch (edit.op) {
    case 'add_node':
      return `add_node '${edit.node.id}'`;
    case 'add_edge':
    case 'remove_edge':
    case 'reconnect_edge':
      return `${edit.op} ${edit.from} → ${edit.to}`;
    case 'add_branch':
    case 'refine_branch':
      return `${edit.op} '${edit.judge}'`;
    case 'parallelize':
    case 'sequentialize':
      return `${edit.op} '${edit.first}', '${edit.second}'`;
    case 'drop_mined':
      return edit.op;
    default:
      return `${edit.op} '${edit.id}'`;
  }
}

/**
 * A copy of `parsed` to edit, without `learned` (an older file's table that nothing reads: an edited
 * workflow does not carry it on).
 */
function editableCopy(parsed: Workflow): Workflow {
  const { learned: _unread, ...rest } = parsed;
  return structuredClone(rest);
}

/** The workflow before the first edit and after each (the edits applied cleanly once already). */
function statesOf(start: Workflow, edits: readonly Edit[]): Workflow[] {
  const states: Workflow[] = [editableCopy(start)];
  const draft = editableCopy(start);
  for (const edit of edits) {
    (APPLY[edit.op] as Apply<Edit>)(draft, edit);
    states.push(editableCopy(draft));
  }
  return states;
}

/**
 * The edit that introduced the earliest-blamed remaining problem: for each problem, the last edit
 * before which the problem was absent. -1 when every problem was already in the input.
 */
function blame(states: Workflow[], finalProblems: Problem[], tools: ToolNames | undefined): number {
  const key = (p: Problem) => `${p.code}\u0000${p.message}`;
  const seen = states.slice(0, -1).map((s) => new Set(validateWorkflow(s, tools).map(key)));
  let earliest = Infinity;
  for (const p of finalProblems) {
    let introducedBy = -1;
    for (let k = seen.length - 1; k >= 0; k--) {
      if (!seen[k]!.has(key(p))) {
        introducedBy = k;
        break;
      }
    }
    if (introducedBy >= 0) earliest = Math.min(earliest, introducedBy);
  }
  return earliest === Infinity ? -1 : earliest;
}

function planSchemaError(plan: unknown, error: import('zod').ZodError): EditPlanError {
  const problems = problemsFromZod(error);
  const first = error.issues[0]!;
  const index = first.path[0] === 'edits' && typeof first.path[1] === 'number' ? first.path[1] : -1;
  const raw = index >= 0 ? (plan as { edits: Array<{ op?: unknown }> }).edits[index] : undefined;
  const rawOp = typeof raw?.op === 'string' ? raw.op : undefined;
  const op = (EDIT_OPS as string[]).includes(rawOp ?? '') ? (rawOp as EditOp) : 'plan';
  const count = Array.isArray((plan as { edits?: unknown }).edits) ? (plan as { edits: unknown[] }).edits.length : 0;
  const where = index >= 0 ? `edit ${index + 1} of ${count} (${rawOp ?? 'no op'})` : 'the edit plan';
  const text = problems.map((p) => `${p.path}: ${p.message}`).join('; ');
  return { editIndex: index, op, message: `${where} does not match the edit-plan schema: ${text}`, problems };
}
