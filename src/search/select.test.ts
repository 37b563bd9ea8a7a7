import { describe, expect, it } from 'vitest';
import { annealedLambda } from './anneal.js';
import { backpropagate } from './backprop.js';
import { selectPath, uctScore, type SelectNode } from './select.js';

const tree = (nodes: SelectNode[]) => new Map(nodes.map((n) => [n.id, n]));

describe('Algorithm 1 helpers', () => {
  it('anneals λ by a cosine from λ_max at the first iteration to λ_min at the last', () => {
    const o = { lambdaMax: 1, lambdaMin: 0.1 };
    expect(annealedLambda(1, 30, o)).toBeCloseTo(1);
    expect(annealedLambda(30, 30, o)).toBeCloseTo(0.1);
    expect(annealedLambda(15.5, 30, o)).toBeCloseTo(0.55);
    const seq = Array.from({ length: 30 }, (_, i) => annealedLambda(i + 1, 30, o));
    for (let i = 1; i < seq.length; i++) expect(seq[i]!).toBeLessThan(seq[i - 1]!);
  });

  it('scores Q + λ·sqrt(ln(C_parent + 1) / (C_child + 1)), +∞ for an unvisited child', () => {
    expect(uctScore(0.4, 5, 2, 0.5)).toBeCloseTo(0.4 + 0.5 * Math.sqrt(Math.log(6) / 3));
    expect(uctScore(0, 5, 0, 0.5)).toBe(Infinity);
  });

  it('stops at the first node with room for a child, else descends to the best-scoring child', () => {
    const nodes = tree([
      { id: 'r', children: ['a', 'b', 'c'], visits: 10, q: 0.3 },
      { id: 'a', children: [], visits: 6, q: 0.5 },
      { id: 'b', children: [], visits: 2, q: 0.45 },
      { id: 'c', children: [], visits: 1, q: 0.2 },
    ]);
    expect(selectPath(nodes, 'r', { children: 4, lambda: 1 })).toEqual(['r']);
    // Greedy (λ = 0) follows Q; a large λ prefers the rarely visited child.
    expect(selectPath(nodes, 'r', { children: 3, lambda: 0 })).toEqual(['r', 'a']);
    expect(selectPath(nodes, 'r', { children: 3, lambda: 2 })).toEqual(['r', 'c']);
    // A vetoed child (failed or duplicate) is never entered.
    expect(selectPath(nodes, 'r', { children: 3, lambda: 0, expandable: (id) => id !== 'a' })).toEqual(['r', 'b']);
    // Every child vetoed: the full node itself is expanded.
    expect(selectPath(nodes, 'r', { children: 3, lambda: 0, expandable: () => false })).toEqual(['r']);
  });

  it('takes the child created first on a tie', () => {
    const nodes = tree([
      { id: 'r', children: ['x', 'y'], visits: 3, q: 0 },
      { id: 'x', children: [], visits: 1, q: 0.5 },
      { id: 'y', children: [], visits: 1, q: 0.5 },
    ]);
    expect(selectPath(nodes, 'r', { children: 2, lambda: 0.3 })).toEqual(['r', 'x']);
  });

  it('backpropagates C, W and Q along the path only', () => {
    const stats = new Map([
      ['r', { visits: 2, w: 0.8, q: 0.4 }],
      ['a', { visits: 1, w: 0.5, q: 0.5 }],
      ['b', { visits: 1, w: 0.2, q: 0.2 }],
      ['new', { visits: 0, w: 0, q: 0 }],
    ]);
    const out = backpropagate(stats, ['r', 'a', 'new'], 0.7);
    expect(out.get('r')).toEqual({ visits: 3, w: 1.5, q: 0.5 });
    expect(out.get('a')).toEqual({ visits: 2, w: 1.2, q: 0.6 });
    expect(out.get('new')).toEqual({ visits: 1, w: 0.7, q: 0.7 });
    expect(out.has('b')).toBe(false);
    expect(stats.get('r')!.visits).toBe(2);
  });
});
