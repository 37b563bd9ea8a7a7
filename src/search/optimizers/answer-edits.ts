import { adjacency, entryIds } from '../../graph/graph-utils.js';
import { freeId } from './new-positions.js';
import { synthesizerEdits } from './prompt-edits.js';
import { edit, type Gen, type RuleEdit } from './rule-edit.js';

/**
 * The rule table's edits for low answer scores (rule-edits.ts): with tool nodes, the synthesizer's
 * directives (prompt-edits.ts); in the LLM-only variant, where the answer can only change through
 * the LLM nodes, advice appended to the synthesizer's and reasoning nodes' prompts and an extract
 * node after the plan.
 */

const DIM_ADVICE: Record<string, string> = {
  correctness: 'Copy every number, date, code and name exactly as the tool results give them.',
  completeness: 'Report every result the tools returned, one short paragraph per result, leaving none out.',
  relevance: 'Use the words of the request and answer each of its parts in order.',
  clarity: 'Write short plain sentences; never paste raw JSON.',
};

/** Low answers (with a correct trace, or low judge dimensions): switch or refine the synthesizer's prompt (prompt-edits.ts). */
export const answers: Gen<'low-answers'> = (p, { workflow, allowToolNodes }) => {
  if (!allowToolNodes) return [];
  return synthesizerEdits(p, workflow).map((e) => edit(e.summary, e.score, e.edit));
};

/** LLM-only (tool nodes forbidden): the answer can only change through the LLM nodes. */
export const llmOnlyAnswers: Gen<'low-answers'> = (p, { workflow, allowToolNodes }) => {
  if (allowToolNodes) return [];
  const advice = p.weakest
    .slice(0, 2)
    .map((d) => DIM_ADVICE[d]!)
    .join(' ');
  const out: RuleEdit[] = [];
  for (const node of workflow.nodes) {
    if (node.kind !== 'llm' || (node.role !== 'synthesize' && node.role !== 'reason') || node.prompt.includes(advice))
      continue;
    out.push(
      edit(
        `set_prompt ${node.id}: low ${p.weakest.slice(0, 2).join(' and ')} in ${p.evidence} records (no tool results to improve)`,
        0.5 * p.evidence,
        { op: 'set_prompt', id: node.id, prompt: `${node.prompt}\n${advice}` },
      ),
    );
  }
  const adj = adjacency(workflow);
  const entry = entryIds(adj)[0];
  const next = entry ? [...(adj.out.get(entry) ?? [])].map((e) => e.to) : [];
  if (entry && next.length > 0 && !workflow.nodes.some((n) => n.kind === 'llm' && n.role === 'extract')) {
    const id = freeId(workflow, 'extract');
    out.push(
      edit(
        `add_node ${id} after ${entry}: pull the request's values out before answering (${p.evidence} low answers)`,
        0.3 * p.evidence,
        { op: 'add_node', node: { kind: 'llm', id, role: 'extract' }, from: [entry], to: next },
      ),
    );
  }
  return out;
};
