import { describe, expect, it } from 'vitest';
import { PROMPT_TEMPLATES } from '../../graph/prompt-templates.js';
import { applyEditPlanOrThrow } from '../../graph/edits/apply-edit-plan.js';
import { nodePromptText } from '../../graph/node-prompt.js';
import { synthesizeVariant, type SynthesizeVariant } from '../../graph/synthesize-variants.js';
import type { LlmNode, Workflow } from '../../graph/schema.js';
import { createRandom } from '../../util/random.js';
import type { Feedback, LowAnswersPattern } from '../../evaluate/feedback-types.js';
import { optimizerPrompt } from './llm-optimizer-prompt.js';
import { synthesizerEdits } from './prompt-edits.js';
import { createRuleBasedOptimizer } from './rule-based.js';

const workflow = (prompt: string, directives?: string[]): Workflow => ({
  version: 1,
  name: 'w',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan {{query}}', output: { type: 'text' } },
    { id: 's1', kind: 'tool', task: 'Look up the quote' },
    {
      id: 'answer',
      kind: 'llm',
      role: 'synthesize',
      prompt,
      output: { type: 'text' },
      ...(directives ? { directives } : {}),
    },
  ],
  edges: [
    { from: 'plan', to: 's1', kind: 'data' },
    { from: 's1', to: 'answer', kind: 'data' },
  ],
});

const low = (dims: LowAnswersPattern['dims'], correctTrace = 0): LowAnswersPattern => ({
  kind: 'low-answers',
  correctTrace,
  dims,
  weakest: (Object.keys(dims) as (keyof typeof dims)[]).sort((a, b) => dims[a] - dims[b]),
  evidence: 10,
  text: '',
});

const lexicalLike = low({ correctness: 0.4, completeness: 0.3, relevance: 0.45, clarity: 0.7 });
const template = workflow(PROMPT_TEMPLATES.synthesize);
const variantWorkflow = (v: SynthesizeVariant) =>
  workflow(synthesizeVariant(v).prompt, synthesizeVariant(v).directives);
const answerNode = (w: Workflow) => w.nodes.find((n) => n.id === 'answer') as LlmNode;

describe('synthesizer prompt edits', () => {
  it('offers a switch to each variant that addresses a low dimension, naming the dimensions, and refinements by one directive', () => {
    const edits = synthesizerEdits(lexicalLike, template);
    const switches = edits.filter((e) => e.summary.includes('→ variant'));
    expect(switches.map((e) => e.edit.variant).sort()).toEqual([
      'answer-first',
      'answered-only',
      'brief',
      'clean',
      'detailed',
      'fact-lines',
    ]);
    const detailed = switches.find((e) => e.summary.includes("'detailed'"))!;
    expect(detailed.summary).toMatch(
      /^set_directives answer → variant 'detailed' \(.*\): low completeness 0\.30, correctness 0\.40, relevance 0\.45, clarity 0\.70 in 10 records$/,
    );
    // It addresses the most (and the lowest) dimensions, so it ranks first.
    expect(Math.max(...edits.map((e) => e.score))).toBe(detailed.score);
    const refine = edits.find((e) => e.summary.startsWith("set_directives answer + directive 'all-figures'"))!;
    expect(refine.summary).toContain('low completeness 0.30, correctness 0.40');
    expect(refine.edit).toEqual({ op: 'set_directives', id: 'answer', directives: ['all-figures'] });
    // Applied, the switch gives the node the variant's prompt and directives; the refinement keeps
    // the prompt and adds the directive, whose sentence a model reads after it.
    const switched = answerNode(applyEditPlanOrThrow(template, { edits: [detailed.edit] }));
    expect({ prompt: switched.prompt, directives: switched.directives }).toEqual(synthesizeVariant('detailed'));
    const refined = answerNode(applyEditPlanOrThrow(template, { edits: [refine.edit] }));
    expect(refined).toMatchObject({ prompt: PROMPT_TEMPLATES.synthesize, directives: ['all-figures'] });
    expect(nodePromptText(refined)).toBe(
      `${PROMPT_TEMPLATES.synthesize}\n- Keep every figure, date, code and name the results give, verbatim and unrounded; leave none out.`,
    );
    // Nothing to take back: "every result" is what the template already asks.
    expect(edits.some((e) => e.summary.includes("'every-result'"))).toBe(false);
  });

  it('does not switch away to a variant that only covers what the current prompt already addresses', () => {
    const edits = synthesizerEdits(lexicalLike, variantWorkflow('detailed'));
    expect(edits.some((e) => e.summary.includes("→ variant 'clean'"))).toBe(false);
    expect(edits.some((e) => e.summary.includes("→ variant 'detailed'"))).toBe(false);
    expect(edits.find((e) => e.summary.includes("+ directive 'answer-first'"))?.summary).toContain(
      'low correctness 0.40, relevance 0.45',
    );
  });

  it('reads the directives field, not the prompt text: a reworded prompt gets the same edits, other directives other edits', () => {
    const detailed = synthesizerEdits(lexicalLike, variantWorkflow('detailed'));
    const reworded = synthesizerEdits(
      lexicalLike,
      workflow('Write the answer to {{query}} from {{inputs}}.', synthesizeVariant('detailed').directives),
    );
    expect(reworded).toEqual(detailed);
    expect(synthesizerEdits(lexicalLike, variantWorkflow('brief'))).not.toEqual(detailed);
    // A synthesizer written before the field existed (its directives only as sentences in its
    // prompt) counts as having none: it gets the edits of a prompt without directives.
    const old = nodePromptText({ id: 'answer', ...synthesizeVariant('detailed') });
    expect(synthesizerEdits(lexicalLike, workflow(old)).map((e) => e.edit)).toEqual(
      synthesizerEdits(lexicalLike, template).map((e) => e.edit),
    );
  });

  it('proposes nothing when every dimension is high and no trace was right; a correct trace alone is enough', () => {
    const high = low({ correctness: 0.9, completeness: 0.85, relevance: 0.9, clarity: 1 });
    expect(synthesizerEdits(high, template)).toEqual([]);
    const correct = synthesizerEdits({ ...high, correctTrace: 3 }, template);
    expect(correct.length).toBeGreaterThan(0);
    expect(correct[0]!.summary).toContain('(3 with all calls right)');
  });

  it('gives each sibling a different variant through the rule-based optimizer', async () => {
    const feedback: Feedback = {
      records: 10,
      reward: 0.4,
      tc: 0.3,
      es: 0.45,
      patterns: [lexicalLike],
      worst: [],
      nodes: [],
      text: '',
    };
    const optimizer = createRuleBasedOptimizer();
    const siblings: string[] = [];
    const styles = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const p = await optimizer.propose({ workflow: template, feedback, siblings, tools: [], random: createRandom(i) });
      siblings.push(p.summary);
      styles.add(nodePromptText(answerNode(p.workflow)));
    }
    expect(styles.size).toBe(3);
    expect(siblings[0]).toContain("variant 'detailed'");
  });

  it('tells the LLM optimizer about the variants and their exact directive sentences', () => {
    const feedback: Feedback = {
      records: 1,
      reward: 0,
      tc: 0,
      es: 0,
      patterns: [],
      worst: [],
      nodes: [],
      text: 'answers are long',
    };
    const prompt = optimizerPrompt({ workflow: template, feedback, tools: [], siblings: [], toolNodesAllowed: true });
    expect(prompt).toContain('## Synthesizer prompt variants');
    expect(prompt).toContain('{"op": "set_directives", "id": <the synthesize node>, "variant": <a variant>}');
    expect(prompt).toContain('"set_directives"');
    expect(prompt).toContain('- detailed: every figure and name verbatim');
    expect(prompt).toContain(
      '"Mention each lookup that failed in one short sentence saying what could not be retrieved, without quoting the error."',
    );
    expect(
      optimizerPrompt({ workflow: template, feedback, tools: [], siblings: [], toolNodesAllowed: false }),
    ).not.toContain('## Synthesizer prompt variants');
  });
});
