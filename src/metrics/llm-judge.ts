import { createHash } from 'node:crypto';
import { FlowScoutError } from '../errors/index.js';
import type { LlmClient } from '../llm/client.js';
import { CACHED_PREFIX_MIN_TOKENS, estimateTokens } from '../llm/counting-model.js';
import { weightedDigitAt, weightedDigitScore, type TokenLogprob } from '../llm/logprobs.js';
import { addUsage, type Usage } from '../llm/usage.js';
import { ES_DIMENSIONS, type EsDimension, type Judge, type JudgeRequest, type JudgeScore } from './types.js';

/**
 * The LLM judge of ES (docs/DESIGN.md, "Metrics": ES_i = mean over correctness, completeness,
 * relevance, clarity, scored against the reference G-Eval style). As in G-Eval (Liu et al., 2023):
 * one prompt per dimension with the criterion and a short chain of evaluation steps (after the
 * record's request, reference and answer, which the four prompts share as a prefix), answered with
 * a single score 1–5; when the provider returns token log-probabilities the score is the
 * probability-weighted mean Σ k·p(k) over the tokens 1–5, otherwise the integer given. Each score s
 * maps to [0, 1] as (s − 1) / 4. An answer with no score in it is asked once more, then it is an
 * error (MODEL_ERROR) the caller records.
 *
 * `mode: 'joint'` (the default) asks once per record instead of four times: one prompt with the four
 * criteria and their evaluation steps (the same rubrics) and the record's request, reference and
 * answer once, answered with a JSON object of four scores 1–5; where the provider returns token
 * log-probabilities, each score is weighted by those of its digit's token, as above. It sends a
 * quarter of the requests and about a third of the input tokens (the judge was the largest part of
 * a search's bill: docs/guides/benchmarks.md, "Model requests and tokens per query"). What it trades
 * away is each dimension judged on its own (in one answer the first score tends to pull the others)
 * and a malformed answer costs all four scores at once (it is asked once more). `mode:
 * 'per-dimension'` asks G-Eval's way, one request per dimension.
 */

/** How the judge asks: one request for all four dimensions (default) or one G-Eval request per dimension. */
export type JudgeMode = 'per-dimension' | 'joint';
export const JUDGE_MODES: readonly JudgeMode[] = ['per-dimension', 'joint'];

/** How the judge asks when nothing says otherwise. */
export const DEFAULT_JUDGE_MODE: JudgeMode = 'joint';

interface Rubric {
  title: string;
  criterion: string;
  steps: string[];
}

export const GEVAL_RUBRICS: Record<EsDimension, Rubric> = {
  correctness: {
    title: 'Correctness',
    criterion:
      'Correctness (1–5): the facts, numbers, names and conclusions in the answer agree with the reference answer. Penalise every claim that contradicts the reference or is invented.',
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
    criterion:
      'Relevance (1–5): the answer addresses the request and stays on it, without unrelated or padded content.',
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
    gevalRecordPart(req),
    `Evaluation criteria:\n${r.criterion}`,
    `Evaluation steps:\n${r.steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}`,
    `Evaluation form (reply with the score only, a single digit from 1 to 5):\n${r.title}:`,
  ].join('\n\n');
}

/**
 * The part every dimension's prompt of a record begins with: the task, the request, the reference
 * and the candidate answer. It comes before the dimension's rubric so that the four requests of a
 * record share it as a prefix, which a provider's prefix cache serves once it is long enough.
 */
function gevalRecordPart(req: Pick<JudgeRequest, 'query' | 'reference' | 'answer'>): string {
  return [
    'You will be given a user request, a reference answer, and a candidate answer. Rate the candidate answer on one metric.',
    `Request:\n${req.query}`,
    `Reference answer:\n${req.reference}`,
    `Candidate answer:\n${req.answer}`,
  ].join('\n\n');
}

export const JUDGE_SYSTEM =
  'You are a strict, consistent evaluator. Reply with a single digit from 1 to 5 and nothing else.';

/** The one prompt of the joint mode: the four rubrics, then the request, reference and answer once. */
export function jointPrompt(req: Pick<JudgeRequest, 'query' | 'reference' | 'answer'>): string {
  return [
    'You will be given a user request, a reference answer, and a candidate answer. Rate the candidate answer on four metrics, each on its own.',
    ...ES_DIMENSIONS.map((d) => {
      const r = GEVAL_RUBRICS[d];
      return `Evaluation criteria:\n${r.criterion}\nEvaluation steps:\n${r.steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}`;
    }),
    `Request:\n${req.query}`,
    `Reference answer:\n${req.reference}`,
    `Candidate answer:\n${req.answer}`,
    `Evaluation form (reply with the JSON object only, each score a single digit from 1 to 5):\n{${ES_DIMENSIONS.map((d) => `"${d}": <1-5>`).join(', ')}}`,
  ].join('\n\n');
}

export const JOINT_JUDGE_SYSTEM =
  'You are a strict, consistent evaluator. Reply with one JSON object of four integer scores from 1 to 5 and nothing else.';

/** Output tokens a joint answer needs (the JSON object of four scores). */
export const JOINT_OUTPUT_TOKENS = 40;

/** The four scores of a joint answer: the first JSON object in the text with an integer 1–5 under every dimension. */
export function parseJointScores(text: string): Record<EsDimension, number> | undefined {
  const m = /\{[\s\S]*?\}/.exec(text);
  if (!m) return undefined;
  let obj: unknown;
  try {
    obj = JSON.parse(m[0]);
  } catch {
    return undefined;
  }
  if (!obj || typeof obj !== 'object') return undefined;
  const out = {} as Record<EsDimension, number>;
  for (const d of ES_DIMENSIONS) {
    const v = Number((obj as Record<string, unknown>)[d]);
    if (!Number.isInteger(v) || v < 1 || v > 5) return undefined;
    out[d] = v;
  }
  return out;
}

/**
 * The four scores of a joint answer weighted by the log-probabilities of their digits' tokens, or
 * undefined when one of them cannot be read (the integers stand then).
 */
function jointWeighted(tokens: readonly TokenLogprob[], text: string): Record<EsDimension, number> | undefined {
  const out = {} as Record<EsDimension, number>;
  for (const d of ES_DIMENSIONS) {
    const m = new RegExp(`"${d}"\\s*:\\s*([1-5])`).exec(text);
    const w = m ? weightedDigitAt(tokens, text, m.index + m[0].length - 1) : undefined;
    if (w === undefined) return undefined;
    out[d] = w;
  }
  return out;
}

/** The judge's rubric identity (memo keys): a hash of every text the mode sends besides the record's. */
function rubricId(mode: JudgeMode): string {
  const text =
    mode === 'joint'
      ? JOINT_JUDGE_SYSTEM + jointPrompt({ query: '', reference: '', answer: '' })
      : JUDGE_SYSTEM + ES_DIMENSIONS.map((d) => gevalPrompt(d, { query: '', reference: '', answer: '' })).join('');
  return `${mode}:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}

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
  /** One request for all four dimensions (default) or one per dimension (G-Eval). */
  mode?: JudgeMode;
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
  const mode = options.mode ?? DEFAULT_JUDGE_MODE;

  async function scoreJoint(
    req: JudgeRequest,
  ): Promise<{ scores: Record<EsDimension, number>; weighted: boolean; usage: Usage | undefined }> {
    const prompt = jointPrompt(req);
    let usage: Usage | undefined;
    let lastText = '';
    for (let attempt = 1; attempt <= 2; attempt++) {
      const r = await client.text({
        system: JOINT_JUDGE_SYSTEM,
        prompt,
        maxOutputTokens: 60,
        ...(wantLogprobs ? { logprobs: top } : {}),
        ...(req.signal ? { signal: req.signal } : {}),
      });
      usage = addUsage(usage, r.usage);
      lastText = r.value;
      const scores = parseJointScores(r.value);
      if (scores) {
        const weighted = r.logprobs ? jointWeighted(r.logprobs, r.value) : undefined;
        return weighted ? { scores: weighted, weighted: true, usage } : { scores, weighted: false, usage };
      }
    }
    throw new FlowScoutError({
      code: 'MODEL_ERROR',
      message: `judge '${spec}' gave no JSON object of four scores 1–5 after a retry (answer: ${JSON.stringify(lastText.slice(0, 80))})`,
      hint: 'Record this query as unscored, use a model that follows the evaluation form, or judge per dimension (--judge-mode per-dimension).',
      details: { answer: lastText.slice(0, 200), usage },
    });
  }

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
    id: mode === 'joint' ? `llm:${spec}:joint` : `llm:${spec}`,
    kind: 'llm',
    label: mode === 'joint' ? `LLM judge (${spec}, joint)` : `LLM judge (${spec})`,
    rubric: rubricId(mode),
    async score(req: JudgeRequest): Promise<JudgeScore> {
      if (!req.answer.trim()) {
        return {
          correctness: 0,
          completeness: 0,
          relevance: 0,
          clarity: 0,
          es: 0,
          rationale: 'empty answer: every dimension scores 0 (no model call)',
        };
      }
      if (mode === 'joint') {
        const { scores, weighted, usage } = await scoreJoint(req);
        const unit = (s: number) => (s - 1) / 4;
        const dims = {
          correctness: unit(scores.correctness),
          completeness: unit(scores.completeness),
          relevance: unit(scores.relevance),
          clarity: unit(scores.clarity),
        };
        return {
          ...dims,
          es: (dims.correctness + dims.completeness + dims.relevance + dims.clarity) / 4,
          rationale: `joint 1–5 scores${weighted ? ' (probability-weighted)' : ''}: ${ES_DIMENSIONS.map((d) => `${d} ${weighted ? scores[d].toFixed(2) : scores[d]}`).join(', ')}`,
          ...(usage ? { usage } : {}),
        };
      }
      // The four prompts share the record's part: when it is long enough for a provider's prefix
      // cache, the first dimension is asked alone, so the other three find it cached.
      const shared = estimateTokens(JUDGE_SYSTEM + gevalRecordPart(req)) >= CACHED_PREFIX_MIN_TOKENS;
      const [head, ...tail] = ES_DIMENSIONS;
      const results = shared
        ? [await scoreDimension(head!, req), ...(await Promise.all(tail.map((d) => scoreDimension(d, req))))]
        : await Promise.all(ES_DIMENSIONS.map((d) => scoreDimension(d, req)));
      const unit = (s: number) => Math.min(1, Math.max(0, (s - 1) / 4));
      const [correctness, completeness, relevance, clarity] = results.map((r) => unit(r.score)) as [
        number,
        number,
        number,
        number,
      ];
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
