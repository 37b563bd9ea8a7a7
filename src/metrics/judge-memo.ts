import { createHash } from 'node:crypto';
import { stableStringify } from '../contracts/canonical-args.js';
import type { Usage } from '../llm/usage.js';
import type { Judge, JudgeRequest, JudgeScore } from './types.js';

/**
 * The judge memo: a judge's score is a function of (the judge — its model and mode —, its rubric,
 * the request, the reference answer, the candidate's answer), so once a record's answer has been
 * scored, any later candidate, iteration, resumed run or worker that produces the very same answer
 * for the same record reuses the score instead of asking again. The search keeps the scores with
 * its node memo (in memory, persisted in the store with the run; in Redis for workers), and counts
 * every reuse. For an LLM judge a score is one sample, reused like a memoized node's output (the
 * candidates compared then differ only where their answers differ).
 */

/** Where memoized scores live (the search memo, the run's Redis memo). `get` and `set` may be async. */
export interface JudgeMemo {
  getScore(key: string): JudgeScore | undefined | Promise<JudgeScore | undefined>;
  setScore(key: string, score: JudgeScore): void | Promise<void>;
}

/** Prefix of judge memo keys, so they can share a store with node memo keys. */
export const JUDGE_KEY_PREFIX = 'judge:';

/** The memo key of a judge request: sha256 over the judge's id and rubric, the request, the reference and the answer. */
export function judgeMemoKey(
  judge: Pick<Judge, 'id' | 'rubric'>,
  req: Pick<JudgeRequest, 'query' | 'reference' | 'answer'>,
): string {
  const material = stableStringify({
    v: 1,
    judge: judge.id,
    rubric: judge.rubric ?? '',
    query: req.query,
    reference: req.reference,
    answer: req.answer,
  });
  return `${JUDGE_KEY_PREFIX}${createHash('sha256').update(material).digest('hex')}`;
}

const NO_USAGE: Usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };

/**
 * The judge with a memo in front: a score found under the request's key is returned with `reused`
 * (what the first scoring cost) and no `usage` (nothing was sent); otherwise the judge scores and
 * the score is stored. A judge failure is not stored (the next candidate asks again).
 */
export function memoizeJudge(judge: Judge, memo: JudgeMemo): Judge {
  return {
    id: judge.id,
    kind: judge.kind,
    label: judge.label,
    ...(judge.rubric !== undefined ? { rubric: judge.rubric } : {}),
    async score(req: JudgeRequest): Promise<JudgeScore> {
      const key = judgeMemoKey(judge, req);
      const hit = await memo.getScore(key);
      if (hit) {
        const { usage, reused: _r, ...rest } = hit;
        return { ...rest, reused: usage ?? NO_USAGE };
      }
      const score = await judge.score(req);
      const { reused: _r, ...stored } = score;
      await memo.setScore(key, stored);
      return score;
    },
  };
}

/** What reusing judge scores saved: scores reused, and the model requests and tokens asking would have sent. */
export interface JudgeSavings {
  judgeScoresReused: number;
  judgeCallsSaved: number;
  judgeTokensSaved: number;
}

/** Adds one reused score (`JudgeScore.reused`) into `into`. */
export function countReuse(into: JudgeSavings, reused: Usage | undefined): void {
  if (!reused) return;
  into.judgeScoresReused++;
  into.judgeCallsSaved += reused.llmCalls;
  into.judgeTokensSaved += reused.inputTokens + reused.outputTokens;
}
