import type { Usage } from '../llm/usage.js';

/** The four ES dimensions (docs/DESIGN.md, "Metrics"), each in [0, 1]. */
export const ES_DIMENSIONS = ['correctness', 'completeness', 'relevance', 'clarity'] as const;
export type EsDimension = (typeof ES_DIMENSIONS)[number];

export interface JudgeRequest {
  query: string;
  reference: string;
  answer: string;
  signal?: AbortSignal;
}

export interface JudgeScore {
  correctness: number;
  completeness: number;
  relevance: number;
  clarity: number;
  /** ES_i: the mean of the four dimensions. */
  es: number;
  /** Short explanation, when the judge gives one. */
  rationale?: string;
  usage?: Usage;
  /**
   * Set when the score was taken from a judge memo (`judge-memo.ts`) instead of asking the judge:
   * what asking had cost the first time, i.e. what this reuse saved (zero requests for the offline judge).
   */
  reused?: Usage;
}

/** Scores an answer against the reference (LLM G-Eval or the offline lexical judge). */
export interface Judge {
  /** Stable identity for memo keys, e.g. `lexical` or `llm:openai:gpt-4o-mini`. */
  readonly id: string;
  readonly kind: 'llm' | 'offline';
  /** Shown with every ES figure, e.g. "offline lexical judge". */
  readonly label: string;
  /**
   * What the scores depend on besides the judge's identity and the request, reference and answer
   * (the rubric and prompt text, or a version of the lexical rules); part of the judge memo's key,
   * so a changed rubric never reuses an old score.
   */
  readonly rubric?: string;
  score(req: JudgeRequest): Promise<JudgeScore>;
}
