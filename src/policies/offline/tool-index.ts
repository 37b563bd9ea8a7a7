import MiniSearch from 'minisearch';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { CueModel } from './cue-model.js';
import { splitIdentifiers, terms } from './text.js';

/**
 * Tool retrieval of the offline policy (docs/DESIGN.md, "Policies": BM25 retrieval
 * (minisearch) over tool names, descriptions and parameter names). Each tool is a document of its
 * name (split into words), description and parameter names; when the optimisation records are given,
 * the query clauses that asked for the tool there are a fourth field (document expansion learned from
 * D_opt). Scores are BM25 (minisearch's BM25+), restricted to the node's candidates.
 */

export interface ToolIndex {
  /** BM25 scores of the candidates for `text`, highest first (candidates with no match are absent). */
  rank(text: string, candidates: readonly string[]): Array<{ name: string; score: number }>;
}

interface Doc {
  id: string;
  name: string;
  description: string;
  params: string;
  learned: string;
}

export function createToolIndex(tools: readonly ToolDescriptor[], model?: CueModel): ToolIndex {
  const index = new MiniSearch<Doc>({
    fields: ['name', 'description', 'params', 'learned'],
    idField: 'id',
    tokenize: (text) => terms(text),
    processTerm: (t) => t,
  });
  index.addAll(
    tools.map((t) => {
      const props = Object.keys(((t.inputSchema as { properties?: Record<string, unknown> }).properties ?? {}) as object);
      return {
        id: t.name,
        name: splitIdentifiers(t.name),
        description: t.description,
        params: props.map(splitIdentifiers).join(' '),
        learned: (model?.tools.get(t.name)?.clauses ?? []).join(' . '),
      };
    }),
  );
  return {
    rank(text, candidates) {
      const allowed = new Set(candidates);
      if (terms(text).length === 0) return [];
      return index
        .search(text, { boost: { name: 2, description: 1, params: 0.5, learned: 1.5 }, combineWith: 'OR', filter: (r) => allowed.has(r.id as string) })
        .map((r) => ({ name: r.id as string, score: r.score }));
    },
  };
}
