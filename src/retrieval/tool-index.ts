import MiniSearch from 'minisearch';
import type { ToolDescriptor } from '../contracts/tools.js';
import { nameWordsOf, splitIdentifiers, terms } from '../text/words.js';

/**
 * Tool retrieval (docs/DESIGN.md, "Policies": BM25 retrieval (minisearch) over tool names,
 * descriptions and parameter names), shared by every policy. Each tool is a document of its name
 * (split into words, a run-together one into the words of its description: `nameWordsOf`), description and parameter names; a workflow's hints may add a fourth field, the
 * words requests use when they ask for the tool (`ToolHint.asks`, see `workflowIndex`). Scores are
 * BM25 (minisearch's BM25+), restricted to the node's candidates.
 *
 * The index never changes once built, so a ranking depends only on the text and the candidates: it
 * is remembered (up to RANK_MEMO_SIZE rankings, oldest dropped first). An evaluation asks the same
 * questions for every candidate workflow of a search, and ranking was half of an offline eval's CPU.
 */

/** Rankings one index remembers. */
export const RANK_MEMO_SIZE = 10_000;
/** Longer texts (whole long requests) are ranked each time they are asked, so the memo stays small. */
const RANK_MEMO_MAX_TEXT = 2_000;

export interface ToolIndex {
  /** BM25 scores of the candidates for `text`, highest first (candidates with no match are absent). */
  rank(text: string, candidates: readonly string[]): ReadonlyArray<{ readonly name: string; readonly score: number }>;
}

interface Doc {
  id: string;
  name: string;
  description: string;
  params: string;
  learned: string;
}

export function createToolIndex(
  tools: readonly ToolDescriptor[],
  asks?: ReadonlyMap<string, readonly string[]>,
): ToolIndex {
  const index = new MiniSearch<Doc>({
    fields: ['name', 'description', 'params', 'learned'],
    idField: 'id',
    tokenize: (text) => terms(text),
    processTerm: (t) => t,
  });
  index.addAll(
    tools.map((t) => {
      const props = Object.keys(
        ((t.inputSchema as { properties?: Record<string, unknown> }).properties ?? {}) as object,
      );
      return {
        id: t.name,
        name: nameWordsOf(t.name, t.description),
        description: t.description,
        params: props.map(splitIdentifiers).join(' '),
        learned: (asks?.get(t.name) ?? []).join(' '),
      };
    }),
  );
  // Spans of time a tool's name fixes ("5_day", "48_hours"): a request for another span of the same
  // unit ("a 21-day forecast") is not what the tool gives.
  const spans = new Map(
    tools.map((t) => [t.name, timeSpans(splitIdentifiers(t.name))] as const).filter(([, s]) => s.length > 0),
  );
  const memo = new Map<string, ReadonlyArray<{ name: string; score: number }>>();
  // Candidate lists are long and few: each distinct list gets a short id for the memo key.
  const lists = new Map<string, number>();
  return {
    rank(text, candidates) {
      const list = candidates.join('\u0001');
      let id = lists.get(list);
      if (id === undefined) lists.set(list, (id = lists.size));
      const key = `${id}\u0000${text}`;
      const hit = memo.get(key);
      if (hit) return hit;
      const allowed = new Set(candidates);
      // The spans of time the text asks for, read once (only when a ranked tool's name fixes one).
      let asked: ReturnType<typeof timeSpans> | undefined;
      const ranked: ReadonlyArray<{ name: string; score: number }> = Object.freeze(
        terms(text).length === 0
          ? []
          : index
              .search(text, {
                boost: { name: 2, description: 1, params: 0.5, learned: 1.5 },
                combineWith: 'OR',
                filter: (r) => allowed.has(r.id as string),
              })
              .map((r) => {
                const own = spans.get(r.id as string);
                const off = own && conflicts(own, (asked ??= timeSpans(text)));
                return Object.freeze({ name: r.id as string, score: off ? r.score * SPAN_CONFLICT : r.score });
              })
              .sort((a, b) => b.score - a.score),
      );
      if (text.length > RANK_MEMO_MAX_TEXT) return ranked;
      if (memo.size >= RANK_MEMO_SIZE) memo.delete(memo.keys().next().value!);
      memo.set(key, ranked);
      return ranked;
    },
  };
}

/** What a tool's score is multiplied by when its name fixes a span of time the text asks otherwise for. */
export const SPAN_CONFLICT = 0.25;

/** Spans of time a text writes ("5 day", "21-day", "48 hours"): amount and unit. */
export function timeSpans(text: string): Array<{ n: number; unit: string }> {
  return [...text.toLowerCase().matchAll(/\b(\d+)[\s-]*(minute|hour|day|week|month|year)s?\b/g)].map((m) => ({
    n: Number(m[1]),
    unit: m[2]!,
  }));
}

/** The text asks for a span of a unit the tool's name fixes, and for none of the spans it fixes. */
function conflicts(own: ReadonlyArray<{ n: number; unit: string }>, asked: ReadonlyArray<{ n: number; unit: string }>) {
  const same = (a: { n: number; unit: string }, b: { n: number; unit: string }) => a.n === b.n && a.unit === b.unit;
  return (
    asked.some((a) => own.some((o) => o.unit === a.unit && o.n !== a.n)) &&
    !asked.some((a) => own.some((o) => same(o, a)))
  );
}
