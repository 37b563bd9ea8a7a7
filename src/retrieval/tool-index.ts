import MiniSearch from 'minisearch';
import type { ToolDescriptor } from '../contracts/tools.js';
import { nameWordsOf, splitIdentifiers, terms } from '../text/words.js';
import { remember } from '../util/remember.js';

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
/** Text in double quotes (straight or curly). */
const QUOTED = /"[^"]*"|“[^”]*”/g;
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
  const memo = new Map<string, ReadonlyArray<{ name: string; score: number }>>();
  // Candidate lists are long and few: each distinct list gets a short id for the memo key.
  const lists = new Map<string, number>();
  return {
    rank(text, candidates) {
      const list = candidates.join('\u0001');
      let id = lists.get(list);
      if (id === undefined) lists.set(list, (id = lists.size));
      if (text.length > RANK_MEMO_MAX_TEXT) return rankNow(text, candidates);
      return remember(memo, `${id}\u0000${text}`, RANK_MEMO_SIZE, () => rankNow(text, candidates));
    },
  };

  function rankNow(text: string, candidates: readonly string[]): ReadonlyArray<{ name: string; score: number }> {
    const allowed = new Set(candidates);
    // Text a request quotes is a value the call passes (a title, a phrase to search for), not
    // words for what the tool does: the rest of the text ranks the tools, unless nothing is left.
    const unquoted = text.replace(QUOTED, ' ');
    const asked = terms(unquoted).length > 0 ? unquoted : text;
    return Object.freeze(
      terms(asked).length === 0
        ? []
        : index
            .search(asked, {
              boost: { name: 2, description: 1, params: 0.5, learned: 1.5 },
              combineWith: 'OR',
              filter: (r) => allowed.has(r.id as string),
            })
            .map((r) => Object.freeze({ name: r.id as string, score: r.score }))
            .sort((a, b) => b.score - a.score),
    );
  }
}
