import { adjacency, exitIds } from '../../graph/graph-utils.js';
import type { SetDirectivesEdit } from '../../graph/edits/edit-schema.js';
import {
  isSynthesizeDirective,
  SYNTHESIZE_DIRECTIVE_IDS,
  SYNTHESIZE_DIRECTIVES,
  SYNTHESIZE_VARIANT_IDS,
  SYNTHESIZE_VARIANTS,
  synthesizeVariantOf,
  type SynthesizeDirective,
} from '../../graph/synthesize-variants.js';
import type { LlmNode, Workflow } from '../../graph/schema.js';
import type { EsDimension } from '../../metrics/types.js';
import type { LowAnswersPattern } from '../../evaluate/feedback-types.js';

/**
 * Synthesizer prompt edits of the rule-based optimizer (when answers score low although the
 * calls are right, refine the synthesizer prompt). The prompt template library offers synthesize variants
 * made of directives (`SYNTHESIZE_VARIANTS`, `SYNTHESIZE_DIRECTIVES`); each directive names the judge
 * dimensions it is meant to raise. When the feedback shows low answer scores with a correct trace, or
 * judge dimensions below `LOW_DIMENSION`, the exit synthesizer gets two kinds of candidate edits:
 *
 * - **switch** (`set_directives` to a variant: its directives and its prompt text), one per variant
 *   other than the current one, counting only the low dimensions that no directive of the node
 *   addresses (a switch drops the current directives);
 * - **refine** (`set_directives` with one directive appended), one per directive the node lacks.
 *
 * The node's directives are its `directives` field (a synthesizer whose directive sentences are
 * only in its prompt text, written before the field existed, counts as having none).
 *
 * Each edit's score is its weight × the low records × the gap it addresses: the sum of
 * `LOW_DIMENSION − value` over the low dimensions its *new* directives name (a correct trace adds
 * its records to the evidence, since then only the answer can be at fault). The summary names the
 * dimensions. The rule-based optimizer gives each sibling a different edit, so siblings try
 * different variants. The weights and the threshold were chosen on D_opt/D_val (see
 * docs/results/offline-2026-11-30/README.md).
 */

/** A judge dimension below this mean is "low". */
export const LOW_DIMENSION = 0.8;
/** Weight of a switch to another variant. */
export const SWITCH_WEIGHT = 0.5;
/** Weight of one appended directive. */
export const REFINE_WEIGHT = 0.5;

/** A synthesizer edit with its score (the rule table's shape). */
export interface PromptEdit {
  summary: string;
  edit: SetDirectivesEdit;
  score: number;
}

/** The exit synthesizer of a workflow, if it is one. */
export function exitSynthesizer(w: Workflow): LlmNode | undefined {
  const id = exitIds(adjacency(w))[0];
  const node = w.nodes.find((n) => n.id === id);
  return node?.kind === 'llm' && node.role === 'synthesize' ? node : undefined;
}

/** The low dimensions of a pattern, weakest first, with their gap to the threshold. */
export function lowDimensions(p: LowAnswersPattern): Array<{ dim: EsDimension; value: number; gap: number }> {
  return p.weakest
    .filter((d) => p.dims[d] < LOW_DIMENSION)
    .map((d) => ({ dim: d, value: p.dims[d], gap: LOW_DIMENSION - p.dims[d] }));
}

function addressed(
  directives: readonly SynthesizeDirective[],
  low: ReturnType<typeof lowDimensions>,
): Array<{ dim: EsDimension; value: number; gap: number }> {
  const dims = new Set<string>(directives.flatMap((d) => SYNTHESIZE_DIRECTIVES[d].dims));
  return low.filter((l) => dims.has(l.dim));
}

const dimText = (xs: ReturnType<typeof lowDimensions>) => xs.map((x) => `${x.dim} ${x.value.toFixed(2)}`).join(', ');

/** The switch and refine edits of the exit synthesizer for a low-answers pattern (see the module comment). */
export function synthesizerEdits(p: LowAnswersPattern, workflow: Workflow): PromptEdit[] {
  const node = exitSynthesizer(workflow);
  const low = lowDimensions(p);
  if (!node || (p.correctTrace === 0 && low.length === 0)) return [];
  const evidence = p.evidence + p.correctTrace;
  const have = (node.directives ?? []).filter(isSynthesizeDirective);
  const current = synthesizeVariantOf(have);
  const why = (xs: ReturnType<typeof lowDimensions>) =>
    `low ${xs.length > 0 ? dimText(xs) : 'answers'} in ${p.evidence} records${p.correctTrace > 0 ? ` (${p.correctTrace} with all calls right)` : ''}`;
  const out: PromptEdit[] = [];
  for (const v of SYNTHESIZE_VARIANT_IDS) {
    if (v === current) continue;
    const directives: readonly SynthesizeDirective[] = SYNTHESIZE_VARIANTS[v].directives;
    // Only what the current prompt does not already address: a switch drops the current directives.
    const covered = new Set(addressed(have, low).map((h) => h.dim));
    const hits = addressed(
      directives.filter((d) => !have.includes(d)),
      low,
    ).filter((h) => !covered.has(h.dim));
    const gap = hits.reduce((s, h) => s + h.gap, 0) || (p.correctTrace > 0 && v !== 'default' ? 0.1 : 0);
    if (gap <= 0) continue;
    out.push({
      summary: `set_directives ${node.id} → variant '${v}' (${SYNTHESIZE_VARIANTS[v].summary}): ${why(hits)}`,
      edit: { op: 'set_directives', id: node.id, variant: v },
      score: SWITCH_WEIGHT * evidence * gap,
    });
  }
  for (const d of SYNTHESIZE_DIRECTIVE_IDS) {
    const overrides = (SYNTHESIZE_DIRECTIVES[d] as { overrides?: SynthesizeDirective }).overrides;
    if (have.includes(d) || (overrides !== undefined && !have.includes(overrides))) continue;
    const hits = addressed([d], low);
    const gap = hits.reduce((s, h) => s + h.gap, 0);
    if (gap <= 0) continue;
    out.push({
      summary: `set_directives ${node.id} + directive '${d}': ${why(hits)}`,
      edit: { op: 'set_directives', id: node.id, directives: [...have, d] },
      score: REFINE_WEIGHT * evidence * gap,
    });
  }
  return out;
}
