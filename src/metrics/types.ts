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
}

/** Scores an answer against the reference (LLM G-Eval or the offline lexical judge). */
export interface Judge {
  /** Stable identity for memo keys, e.g. `lexical` or `llm:openai:gpt-4o-mini`. */
  readonly id: string;
  readonly kind: 'llm' | 'offline';
  /** Shown with every ES figure, e.g. "offline lexical judge". */
  readonly label: string;
  score(req: JudgeRequest): Promise<JudgeScore>;
}
