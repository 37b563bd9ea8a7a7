import { OPERATOR_SYMBOL, type ProcessTree, type ProcessTreeOperator } from './schema.js';

/**
 * PM4Py's `fold` (docs/DESIGN.md, "Matching PM4Py" §5), applied once after mining. It removes tau children from `->` and
 * `+`, keeps at most one tau in `X`, replaces single-child operators by their child, drops empty
 * operators, and flattens `->` in `->`, `X` in `X`, `+` in `+` in place (never loops), repeating
 * until the printed tree stops getting shorter.
 *
 * This is a behavioural re-implementation on a mutable copy of the tree. Two PM4Py quirks are kept
 * on purpose because they decide which tau survives where: tau leaves are removed from a child list
 * while iterating over that same list (so the element after a removed one is skipped), and removal
 * takes out the *first* child equal to the one found (all tau leaves are equal). The outer loop
 * compares printed lengths, as PM4Py does.
 */
interface MNode {
  op: ProcessTreeOperator | null;
  label: string | null;
  children: MNode[];
}

/** Folds a mined tree; the input is not changed. */
export function foldProcessTree(tree: ProcessTree): ProcessTree {
  const folded = fold(toMutable(tree));
  return fromMutable(folded);
}

function toMutable(t: ProcessTree): MNode {
  if ('op' in t) return { op: t.op, label: null, children: t.children.map(toMutable) };
  if ('label' in t) return { op: null, label: t.label, children: [] };
  return { op: null, label: null, children: [] };
}

function fromMutable(n: MNode): ProcessTree {
  if (n.op !== null) return { op: n.op, children: n.children.map(fromMutable) };
  if (n.label !== null) return { label: n.label };
  return { tau: true };
}

/** PM4Py's `is_tau_leaf`: no operator, no label, no children. */
function isTauLeaf(n: MNode): boolean {
  return n.op === null && n.label === null && n.children.length === 0;
}

/** PM4Py's `ProcessTree.__eq__` against a tau leaf: label None and no children. */
function equalsTau(n: MNode): boolean {
  return n.label === null && n.children.length === 0;
}

function removeFirstTau(children: MNode[]): void {
  const i = children.findIndex(equalsTau);
  if (i >= 0) children.splice(i, 1);
}

/** `for c in children: if tau: children.remove(c)`, with Python's skip-after-removal. */
function removeTausWhileIterating(children: MNode[]): void {
  for (let i = 0; i < children.length; i++) if (isTauLeaf(children[i]!)) removeFirstTau(children);
}

/** Removes the first tau until `silents` is 1. */
function keepOneTau(children: MNode[], silents: number): void {
  while (silents > 1) {
    removeFirstTau(children);
    silents--;
  }
}

/** PM4Py's `reduce_tau_leafs`, bottom-up. */
function reduceTauLeaves(t: MNode): MNode {
  if (t.children.length === 0) return t;
  for (const c of t.children) reduceTauLeaves(c);
  const silents = t.children.filter(isTauLeaf).length;
  if (silents === 0) return t;
  if (silents === t.children.length) {
    if (t.op === 'seq' || t.op === 'and' || t.op === 'xor') keepOneTau(t.children, silents);
    else if (t.op === 'loop' && t.children.length === 2) removeTausWhileIterating(t.children);
  } else if (t.op === 'seq' || t.op === 'and') {
    removeTausWhileIterating(t.children);
  } else if (t.op === 'xor') {
    keepOneTau(t.children, silents);
  }
  return t;
}

/** PM4Py's `_fold`: one pass; returns the node that replaces `t`, or null to drop it. */
function foldPass(t: MNode): MNode | null {
  reduceTauLeaves(t);
  if (t.children.length === 0) return t;
  t.children = t.children.map(foldPass).filter((c): c is MNode => c !== null);
  if (t.children.length === 0) return null;
  if (t.children.length === 1) return t.children[0]!;
  if (t.op === 'seq' || t.op === 'and') {
    t.children = t.children.filter((c) => !(c.op === null && c.label === null));
    if (t.children.length === 0) t.op = null;
  }
  if (t.op === 'seq' || t.op === 'xor' || t.op === 'and') {
    const flat: MNode[] = [];
    for (const c of t.children) {
      if (c.op === t.op) flat.push(...c.children);
      else flat.push(c);
    }
    t.children = flat;
  }
  return t;
}

/** PM4Py's `fold`: passes until the printed length no longer changes. */
function fold(input: MNode): MNode {
  let tree = foldPass(input) ?? { op: null, label: null, children: [] };
  while (tree.op !== null && tree.children.length === 1) tree = tree.children[0]!;
  let printed = printedLength(tree, true);
  reduceTauLeaves(tree);
  if (printedLength(tree, true) !== printed) {
    tree = fold(tree);
    printed = printedLength(tree, true);
  }
  const again = foldPass(tree) ?? { op: null, label: null, children: [] };
  if (printedLength(again, true) !== printed) return fold(again);
  return again;
}

/** Length of PM4Py's `str(tree)` (a root leaf is unquoted, labels inside operators are quoted). */
function printedLength(t: MNode, root: boolean): number {
  if (t.op === null) {
    if (t.label === null) return 3;
    return t.label.length + (root ? 0 : 2);
  }
  let len = OPERATOR_SYMBOL[t.op].length + 2 + 2;
  t.children.forEach((c, i) => {
    len += printedLength(c, false) + (i > 0 ? 2 : 0);
  });
  return len;
}
