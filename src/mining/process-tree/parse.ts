import { FlowScoutError } from '../../errors/index.js';
import { TAU, type ProcessTree, type ProcessTreeOperator, type ProcessTreeOperatorNode } from './schema.js';

/**
 * Parses PM4Py's process-tree notation (the inverse of `formatProcessTree`), e.g.
 * `->( 'a', X( tau, 'b' ), +( 'c', 'd' ), *( 'e', tau ) )`. Labels are not escaped in that notation,
 * so a quote ends a label only when a `,` or `)` (or the end) follows it; `it's` survives. A root
 * that is not an operator is a single leaf, quoted or not. Iterative, so deep trees are fine.
 */
export function parseProcessTree(text: string): ProcessTree {
  const s = text.trim();
  if (operatorAt(s, 0) === null) {
    if (s === 'tau' || s === 'τ') return TAU;
    if (s.length >= 2 && s.startsWith("'") && s.endsWith("'")) return { label: s.slice(1, -1) };
    if (s.length === 0) throw parseError(text, 0, 'the text is empty');
    return { label: s };
  }
  const stack: ProcessTreeOperatorNode[] = [];
  let root: ProcessTree | null = null;
  let i = 0;
  const skip = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  const attach = (node: ProcessTree) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(node);
    else root = node;
  };
  for (;;) {
    skip();
    const op = operatorAt(s, i);
    if (op) {
      const node: ProcessTreeOperatorNode = { op: op.op, children: [] };
      attach(node);
      stack.push(node);
      i = op.end;
      skip();
      if (s[i] === ')') {
        i++;
        stack.pop();
      } else continue;
    } else if (s[i] === "'") {
      const end = labelEnd(s, i + 1);
      if (end < 0) throw parseError(text, i, 'a quoted label is not closed');
      attach({ label: s.slice(i + 1, end) });
      i = end + 1;
    } else if (s.startsWith('tau', i)) {
      attach(TAU);
      i += 3;
    } else if (s[i] === 'τ') {
      attach(TAU);
      i += 1;
    } else {
      throw parseError(
        text,
        i,
        `expected an operator (->, X, +, *), a quoted label or tau, found ${JSON.stringify(s.slice(i, i + 10))}`,
      );
    }
    // After a child: any number of ')' closing operators, then ',' or the end.
    for (;;) {
      skip();
      if (s[i] === ')') {
        if (stack.length === 0) throw parseError(text, i, 'unbalanced ")"');
        stack.pop();
        i++;
        continue;
      }
      break;
    }
    if (stack.length === 0) {
      skip();
      if (i < s.length) throw parseError(text, i, 'unexpected text after the end of the tree');
      return root!;
    }
    if (s[i] !== ',') throw parseError(text, i, 'expected "," or ")"');
    i++;
  }
}

const SYMBOLS: [string, ProcessTreeOperator][] = [
  ['->', 'seq'],
  ['X', 'xor'],
  ['+', 'and'],
  ['*', 'loop'],
];

/** The operator starting at `i` (its symbol followed by optional spaces and "("), if any. */
function operatorAt(s: string, i: number): { op: ProcessTreeOperator; end: number } | null {
  for (const [sym, op] of SYMBOLS) {
    if (!s.startsWith(sym, i)) continue;
    let j = i + sym.length;
    while (j < s.length && /\s/.test(s[j]!)) j++;
    if (s[j] === '(') return { op, end: j + 1 };
  }
  return null;
}

/** Index of the quote closing a label that starts at `from`, or -1. */
function labelEnd(s: string, from: number): number {
  let q = s.indexOf("'", from);
  while (q >= 0) {
    let j = q + 1;
    while (j < s.length && /\s/.test(s[j]!)) j++;
    if (j >= s.length || s[j] === ',' || s[j] === ')') return q;
    q = s.indexOf("'", q + 1);
  }
  return -1;
}

function parseError(text: string, at: number, what: string): FlowScoutError {
  return new FlowScoutError({
    code: 'PARSE_ERROR',
    message: `not a process tree in PM4Py notation at character ${at + 1}: ${what}`,
    hint: "Write trees like ->( 'a', X( tau, 'b' ), +( 'c', 'd' ), *( 'e', tau ) ).",
    location: { path: `char ${at + 1}` },
    details: { text: text.length > 200 ? `${text.slice(0, 200)}…` : text },
  });
}
