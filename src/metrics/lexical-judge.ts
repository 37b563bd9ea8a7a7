import type { Judge, JudgeRequest, JudgeScore } from './types.js';
import { contentStems, namedEntities, numberFound, numbers, phraseText, sentences, words } from './text-features.js';

/**
 * The offline lexical judge of ES (docs/DESIGN.md, "Metrics"): a deterministic, model-free
 * stand-in for the G-Eval judge, always labelled "offline lexical judge". Each dimension is in [0, 1]:
 *
 * - **correctness**: the share of the reference's facts found in the answer. Facts are its numbers
 *   (an answer may round them: 18.34 is found as 18.3) and its named entities and codes (capitalised
 *   spans such as "Deutsche Bahn", codes such as AAPL or EUR/USD), matched case-insensitively as
 *   whole words. A reference with no facts falls back to completeness.
 * - **completeness**: the recall of the reference's content words (stop words removed, light
 *   stemming) in the answer. A reference without content words gives 1 for a non-empty answer.
 * - **relevance**: the share of the query's content words that the answer takes up.
 * - **clarity**: 1 minus penalties for long sentences (mean words per sentence above 25: up to 0.4),
 *   raw JSON or Python-literal dumps (0.4), truncation marks such as a trailing "..." (0.2), heavy
 *   symbol density (0.2), and a bare answer under three words (0.3); floored at 0.
 *
 * An empty answer scores 0 on every dimension. ES = the mean of the four.
 */
export function createLexicalJudge(): Judge {
  return {
    id: 'lexical',
    kind: 'offline',
    label: 'offline lexical judge',
    // Bump when the rules below change: memoized scores of the old rules are then not reused.
    rubric: 'lexical-v1',
    score: async (req: JudgeRequest): Promise<JudgeScore> => lexicalScore(req),
  };
}

/** The scores themselves, synchronous (the judge wraps them). */
export function lexicalScore(req: Pick<JudgeRequest, 'query' | 'reference' | 'answer'>): JudgeScore {
  const answer = req.answer.trim();
  if (words(answer).length === 0) {
    return { correctness: 0, completeness: 0, relevance: 0, clarity: 0, es: 0, rationale: 'empty answer' };
  }
  const facts = factRecall(req.reference, answer, req.query);
  const complete = recall(contentStems(req.reference), contentStems(answer));
  const correctness = facts.total > 0 ? facts.found / facts.total : complete;
  const relevance = recall(contentStems(req.query), contentStems(answer));
  const clear = clarity(answer);
  const dims = { correctness, completeness: complete, relevance, clarity: clear.score };
  const es = (dims.correctness + dims.completeness + dims.relevance + dims.clarity) / 4;
  const rationale = [
    facts.total > 0
      ? `${facts.found}/${facts.total} reference numbers and names found`
      : 'no numbers or names in the reference',
    `${pct(complete)} of reference content words`,
    `${pct(relevance)} of query content words`,
    clear.notes.length ? `clarity: ${clear.notes.join(', ')}` : 'clarity: no issues',
  ].join('; ');
  return { ...dims, es, rationale };
}

function factRecall(reference: string, answer: string, query: string): { found: number; total: number } {
  const answerNumbers = numbers(answer);
  const refNumbers = dedupe(numbers(reference), (n) => n.text);
  const answerPhrases = phraseText(answer);
  const entities = [...namedEntities(reference, query)];
  const foundNumbers = refNumbers.filter((n) => numberFound(n, answerNumbers)).length;
  const foundEntities = entities.filter((e) => answerPhrases.includes(` ${e} `)).length;
  return { found: foundNumbers + foundEntities, total: refNumbers.length + entities.length };
}

function recall(target: ReadonlySet<string>, got: ReadonlySet<string>): number {
  if (target.size === 0) return 1;
  let hit = 0;
  for (const t of target) if (got.has(t)) hit++;
  return hit / target.size;
}

/** Readability penalties (see the module comment). */
export function clarity(answer: string): { score: number; notes: string[] } {
  const notes: string[] = [];
  let penalty = 0;
  const sents = sentences(answer);
  const meanLength = words(answer).length / Math.max(1, sents.length);
  if (meanLength > 25) {
    const p = Math.min(0.4, (meanLength - 25) / 50);
    penalty += p;
    notes.push(`long sentences (${meanLength.toFixed(0)} words on average)`);
  }
  if (looksLikeDump(answer)) {
    penalty += 0.4;
    notes.push('raw JSON / Python literal');
  }
  if (/(\.\.\.|…)\s*$|\[truncated\]/i.test(answer)) {
    penalty += 0.2;
    notes.push('truncated');
  }
  const symbols = answer.replace(/[\p{L}\p{N}\s.,;:!?'"()%°$€£-]/gu, '').length;
  if (symbols / answer.length > 0.08) {
    penalty += 0.2;
    notes.push('many symbols');
  }
  if (words(answer).length < 3) {
    penalty += 0.3;
    notes.push('under three words');
  }
  return { score: Math.max(0, 1 - penalty), notes };
}

/** `{"key": …`, `{'key': …`, `[{'…`, or Python `None`/`True`/`False` next to JSON punctuation. */
function looksLikeDump(text: string): boolean {
  return /[{[]\s*["'][^"'\n]{1,60}["']\s*:/.test(text) || /[:,[]\s*(None|True|False)\s*[,}\]]/.test(text);
}

function dedupe<T>(items: readonly T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => (seen.has(key(t)) ? false : (seen.add(key(t)), true)));
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}
