import { describe, expect, it } from 'vitest';
import { formatSummary, noEditFound } from './format-search.js';
import type { SearchResult } from './run-search.js';
import { SearchTree, type Candidate } from './tree.js';

const labels = {
  policy: 'offline policy (no LLM)',
  judge: 'offline lexical judge',
  optimizer: 'rule-based optimizer (offline)',
  offline: true,
};

function result(children: Array<Partial<Candidate>>): SearchResult {
  const tree = new SearchTree();
  const root = {
    id: 'c0',
    parent: null,
    iteration: 0,
    children: [],
    visits: 1,
    w: 0.4,
    valScore: 0.4,
    valTc: 0.3,
    valEs: 0.5,
    summary: 'G0',
  } as unknown as Candidate;
  tree.add(root);
  children.forEach((c, i) =>
    tree.add({
      id: `c${i + 1}`,
      parent: 'c0',
      iteration: i + 1,
      children: [],
      visits: 0,
      w: 0,
      ...c,
    } as unknown as Candidate),
  );
  const iterations = children.map((_, i) => ({ iteration: i + 1 }));
  return {
    tree,
    root,
    best: root,
    iterations,
    stopReason: 'reached 2 iterations',
    usage: {},
  } as unknown as SearchResult;
}

describe('the closing summary of a search', () => {
  it('says that no edit was found when every expansion failed, instead of a normal summary', () => {
    const r = result([
      { error: 'the optimizer proposed no valid edit plan: unknown node step_9' },
      { error: 'invalid workflow' },
    ]);
    expect(noEditFound(r)).toMatch(
      /^no edit was found: all 2 expansions failed \(first: the optimizer proposed no valid edit plan: unknown node step_9\)/,
    );
    const text = formatSummary(r, labels);
    expect(text).toContain('no edit was found');
    expect(text).toContain('the best workflow written is G0 unchanged');
    expect(text).not.toContain('candidates: 3');
  });

  it('prints the normal summary when an expansion succeeded', () => {
    const r = result([{ error: 'invalid workflow' }, { valScore: 0.35, summary: 'add a retry' }]);
    expect(noEditFound(r)).toBeUndefined();
    expect(formatSummary(r, labels)).toContain('candidates: 3 (G0 + 2); best: c0');
  });

  it('names every edit from G0 to the best candidate, not only its last one', () => {
    const r = result([{ valScore: 0.45, summary: 'hints: 14 edits on 5 nodes' }]);
    r.tree.add({
      id: 'c2',
      parent: 'c1',
      iteration: 2,
      children: [],
      visits: 0,
      w: 0,
      valScore: 0.5,
      summary: 'calls one on step_2',
    } as unknown as Candidate);
    const text = formatSummary({ ...r, best: r.tree.get('c2') }, labels);
    expect(text).toContain('best: c2, from G0 → c1 (hints: 14 edits on 5 nodes) → c2 (calls one on step_2)');
  });
});
