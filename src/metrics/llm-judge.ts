import { FlowScoutError } from '../errors/index.js';
import type { LlmClient } from '../llm/client.js';
import { weightedDigitScore } from '../llm/logprobs.js';
import { addUsage, type Usage } from '../llm/usage.js';
import { ES_DIMENSIONS, type EsDimension, type Judge, type JudgeRequest, type JudgeScore } from './types.js';

/**
 * The LLM judge of ES (docs/DESIGN.md, "Metrics": ES_i = mean over correctness, completeness,
 * relevance, clarity, scored against the reference G-Eval style). As in G-Eval (Liu et al., 2023):
 * one prompt per dimension with the criterion and a short chain of evaluation steps, answered with
 * a single score 1–5; when the provider returns token log-probabilities the score is the
 * probability-weighted mean Σ k·p(k) over the tokens 1–5, otherwise the integer given. Each score s
 * maps to [0, 1] as (s − 1) / 4. An answer with no score in it is asked once more, then it is an
 * error (MODEL_ERROR) the caller records.
 */

interface Rubric {
  title: string;
  criterion: string;
  steps: string[];
}

export const GEVAL_RUBRICS: Record<EsDimension, Rubric> = {
  correctness: {
    title: 'Correctness',
    criterion: 'Correctness (1–5): the facts, numbers, names and conclusions in the answer agree with the reference answer. Penalise every claim that contradicts the reference or is invented.',
    steps: [
      'Read the reference answer and note its key facts and figures.',
      'Read the candidate answer and compare each of its claims with the reference.',
      'Assign 5 if every claim agrees, 1 if the main claims are wrong or invented, in between by how much is wrong.',
    ],
  },
  completeness: {
    title: 'Completeness',
    criterion: 'Completeness (1–5): the answer covers every part of the request that the reference answer covers.',
    steps: [
      'List the parts of the request and the points the reference answer makes for each.',
      'Check which of those points the candidate answer covers.',
      'Assign 5 if all are covered, 1 if almost none are, in between by the share covered.',
    ],
  },
  relevance: {
    title: 'Relevance',
    criterion: 'Relevance (1–5): the answer addresses the request and stays on it, without unrelated or padded content.',
    steps: [
      'Read the request and decide what a relevant answer must be about.',
      'Check whether the candidate answer addresses it and how much of it is off-topic.',
      'Assign 5 if it is fully on topic, 1 if it does not address the request.',
    ],
  },
  clarity: {
    title: 'Clarity',
    criterion: 'Clarity (1–5): the answer is well organised, easy to follow, and states its result directly.',
    steps: [
      'Read the candidate answer as the user would.',
      'Check whether the result is stated directly and the details are organised and unambiguous.',
      'Assign 5 for a clear, direct answer, 1 for one that is confusing or disorganised.',
    ],
  },
};

/** The G-Eval prompt of one dimension. */
export function gevalPrompt(dimension: EsDimension, req: Pick<JudgeRequest, 'query' | 'reference' | 'answer'>): string {
  const r = GEVAL_RUBRICS[dimension];
  return [
    'You will be given a user request, a reference answer, and a candidate answer. Rate the candidate answer on one metric.',
    `Evaluation criteria:\n${r.criterion}`,
    `Evaluation steps:\n${r.steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}`,
    `Request:\n${req.query}`,
    `Reference answer:\n${req.reference}`,
    `Candidate answer:\n${req.answer}`,
    `Evaluation form (reply with the score only, a single digit from 1 to 5):\n${r.title}:`,
  ].join('\n\n');
}

export const JUDGE_SYSTEM = 'You are a strict, consistent evaluator. Reply with a single digit from 1 to 5 and nothing else.';

/** The first standalone digit 1–5 in a reply. */
export function parseScore(text: string): number | undefined {
  const m = /(?:^|[^\d.])([1-5])(?!\d|\.\d)/.exec(text.trim());
  return m ? Number(m[1]) : undefined;
}

export interface LlmJudgeOptions {
  client: LlmClient;
  spec?: string;
  /** Alternatives per token to request for the weighted score (default 5; 0 disables). */
  topLogprobs?: number;
}

/** One dimension's result. */
interface DimensionScore {
  score: number;
  weighted: boolean;
  usage: Usage;
}

/** Creates the LLM judge (`kind: 'llm'`, label `LLM judge (<spec>)`). */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  const { client } = options;
  const spec = options.spec ?? client.spec;
  const top = options.topLogprobs ?? 5;
  const wantLogprobs = top > 0 && client.resolved.supportsLogprobs;

  async function scoreDimension(dimension: EsDimension, req: JudgeRequest): Promise<DimensionScore> {
    const prompt = gevalPrompt(dimension, req);
    let usage: Usage | undefined;
    let lastText = '';
    for (let attempt = 1; attempt <= 2; attempt++) {
      const r = await client.text({
        system: JUDGE_SYSTEM,
        prompt,
        maxOutputTokens: 16,
        ...(wantLogprobs ? { logprobs: top } : {}),
        ...(req.signal ? { signal: req.signal } : {}),
      });
      usage = addUsage(usage, r.usage);
      lastText = r.value;
      const weighted = r.logprobs ? weightedDigitScore(r.logprobs, 1, 5) : undefined;
      if (weighted !== undefined) return { score: weighted, weighted: true, usage };
      const parsed = parseScore(r.value);
      if (parsed !== undefined) return { score: parsed, weighted: false, usage };
    }
    throw new FlowScoutError({
      code: 'MODEL_ERROR',
      message: `judge '${spec}' gave no score 1–5 for ${dimension} after a retry (answer: ${JSON.stringify(lastText.slice(0, 80))})`,
      hint: 'Record this query as unscored, or use a model that follows the evaluation form.',
      details: { dimension, answer: lastText.slice(0, 200), usage },
    });
  }

  return {
    id: `llm:${spec}`,
    kind: 'llm',
    label: `LLM judge (${spec})`,
    async score(req: JudgeRequest): Promise<JudgeScore> {
      if (!req.answer.trim()) {
        return { correctness: 0, completeness: 0, relevance: 0, clarity: 0, es: 0, rationale: 'empty answer: every dimension scores 0 (no model call)' };
      }
      const results = await Promise.all(ES_DIMENSIONS.map((d) => scoreDimension(d, req)));
      const unit = (s: number) => Math.min(1, Math.max(0, (s - 1) / 4));
      const [correctness, completeness, relevance, clarity] = results.map((r) => unit(r.score)) as [number, number, number, number];
      const usage = results.reduce<Usage | undefined>((acc, r) => addUsage(acc, r.usage), undefined);
      const rationale = `G-Eval 1–5 scores: ${ES_DIMENSIONS.map((d, i) => `${d} ${results[i]!.score.toFixed(2)}${results[i]!.weighted ? ' (probability-weighted)' : ''}`).join(', ')}`;
      return {
        correctness,
        completeness,
        relevance,
        clarity,
        es: (correctness + completeness + relevance + clarity) / 4,
        rationale,
        ...(usage ? { usage } : {}),
      };
    },
  };
}
