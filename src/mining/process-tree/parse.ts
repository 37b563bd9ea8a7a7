import { FlowScoutError } from '../../errors/index.js';
import { MAX_JSON_DEPTH } from '../../util/json-depth.js';
import { TAU, type ProcessTree, type ProcessTreeOperator, type ProcessTreeOperatorNode } from './schema.js';

/**
 * How deep a tree read from text may nest, the limit of the JSON readers (`util/json-depth.ts`):
 * the parser is iterative, but what walks the tree afterwards (printing, the aligner's automaton)
 * recurses, so a tree nested 20,000 levels deep would end in a stack overflow far from the file.
 */
export const MAX_TREE_DEPTH = MAX_JSON_DEPTH;

/**
 * Parses PM4Py's process-tree notation (the inverse of `formatProcessTree`), e.g.
 * `->( 'a', X( tau, 'b' ), +( 'c', 'd' ), *( 'e', tau ) )`, and refuses, with the character where
 * it goes wrong, what that notation does not allow: an operator other than `->`, `X`, `+`, `*`
 * (`Q( 'a' )`; PM4Py's `O` and `<>` included, which FlowScout does not mine or align), children
 * without a comma between them (`->( 'a' 'b' )`), an operator without children, text after the
 * tree, and nesting deeper than `MAX_TREE_DEPTH`. Labels are not escaped in that notation, so a
 * quote ends a label when a `,` or `)` (or the end) follows it, and a quote followed by spaces and
 * the start of another child is a missing comma; `it's` and `rock 'n' roll` survive. A root that is
 * not an operator is a single leaf, quoted or not. Iterative, so a deep tree is refused, not a crash.
 */
export function parseProcessTree(text: string): ProcessTree {
  const s = text.trim();
  // Positions in errors count from the first character of `text`, as an editor shows them.
  const lead = text.length - text.trimStart().length;
  const fail = (at: number, what: string) => parseError(text, lead + at, what);
  if (operatorAt(s, 0) === null) {
    if (s === 'tau' || s === 'τ') return TAU;
    if (s.length === 0) throw fail(0, 'the text is empty');
    const unknown = unknownOperatorAt(s, 0);
    if (unknown) throw fail(0, unknown);
    if (s.startsWith("'")) {
      const end = labelEnd(s, 1);
      if (end.missingComma !== undefined) throw fail(end.missingComma, MISSING_COMMA);
      if (end.close < 0) throw fail(0, 'a quoted label is not closed');
      if (end.close < s.length - 1)
        throw fail(end.close + 1, 'unexpected text after the end of the tree (several children need an operator)');
      return { label: s.slice(1, -1) };
    }
    return { label: s };
  }
  const stack: Array<{ node: ProcessTreeOperatorNode; at: number }> = [];
  let root: ProcessTree | null = null;
  let i = 0;
  const skip = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  const attach = (node: ProcessTree) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.node.children.push(node);
    else root = node;
  };
  for (;;) {
    skip();
    const op = operatorAt(s, i);
    if (op) {
      if (stack.length >= MAX_TREE_DEPTH)
        throw fail(i, `the tree is nested more than ${MAX_TREE_DEPTH} levels deep (the most FlowScout reads)`);
      const node: ProcessTreeOperatorNode = { op: op.op, children: [] };
      attach(node);
      stack.push({ node, at: i });
      i = op.end;
      skip();
      if (s[i] === ')') throw fail(i, `the operator at character ${lead + stack.at(-1)!.at + 1} has no children`);
      continue;
    } else if (s[i] === "'") {
      const end = labelEnd(s, i + 1);
      if (end.missingComma !== undefined) throw fail(end.missingComma, MISSING_COMMA);
      if (end.close < 0) throw fail(i, 'a quoted label is not closed');
      attach({ label: s.slice(i + 1, end.close) });
      i = end.close + 1;
    } else if (tauAt(s, i)) {
      attach(TAU);
      i += s[i] === 'τ' ? 1 : 3;
    } else {
      throw fail(
        i,
        unknownOperatorAt(s, i) ??
          (i >= s.length
            ? 'the text ends inside an operator: expected a child, "," or ")"'
            : `expected an operator (->, X, +, *), a quoted label or tau, found ${JSON.stringify(s.slice(i, i + 10))}`),
      );
    }
    // After a child: any number of ')' closing operators, then ',' or the end.
    for (;;) {
      skip();
      if (s[i] === ')') {
        if (stack.length === 0) throw fail(i, 'unbalanced ")"');
        stack.pop();
        i++;
        continue;
      }
      break;
    }
    if (stack.length === 0) {
      skip();
      if (i < s.length) throw fail(i, 'unexpected text after the end of the tree');
      return root!;
    }
    if (s[i] !== ',') {
      if (i >= s.length)
        throw fail(
          i,
          `the text ends inside the operator at character ${lead + stack.at(-1)!.at + 1}: expected "," or ")"`,
        );
      throw fail(i, startsChild(s, i) ? MISSING_COMMA : 'expected "," or ")"');
    }
    i++;
  }
}

const MISSING_COMMA = 'expected "," between two children of an operator';

const SYMBOLS: [string, ProcessTreeOperator][] = [
  ['->', 'seq'],
  ['X', 'xor'],
  ['+', 'and'],
  ['*', 'loop'],
];

/** What PM4Py's notation has that FlowScout does not read, by symbol. */
const UNSUPPORTED: Record<string, string> = { O: 'or', '<>': 'interleaving' };

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

/**
 * Why the text at `i` is an operator FlowScout does not read — a single capital or one or two
 * symbols before "(" (`Q( 'a' )`, PM4Py's `O( … )` and `<>( … )`) — or undefined. A longer word
 * before "(" is left alone: as a root it is an activity's name (`check(ticket)`).
 */
function unknownOperatorAt(s: string, i: number): string | undefined {
  const m = /^([A-Z]|[^\sA-Za-z0-9'(),]{1,2})\s*\(/.exec(s.slice(i, i + 8));
  if (!m) return undefined;
  const sym = m[1]!;
  const pm4py = UNSUPPORTED[sym];
  return pm4py
    ? `PM4Py's ${pm4py} operator "${sym}" is not one FlowScout reads (it reads ->, X, +, *)`
    : `unknown operator "${sym}" (PM4Py's notation has ->, X, +, *)`;
}

/** Whether tau (or τ) starts at `i` as a child: followed by a space, ",", ")" or the end. */
function tauAt(s: string, i: number): boolean {
  if (s[i] === 'τ') return true;
  return s.startsWith('tau', i) && (i + 3 >= s.length || /[\s,)]/.test(s[i + 3]!));
}

/** Whether another child starts at `i`: a quote, tau or an operator (known or not). */
function startsChild(s: string, i: number): boolean {
  return s[i] === "'" || tauAt(s, i) || operatorAt(s, i) !== null || unknownOperatorAt(s, i) !== undefined;
}

/**
 * The quote closing a label that starts at `from` (`close`, -1 when none does), or, when a quote
 * inside it is followed by spaces and the start of another child, where that child starts
 * (`missingComma`): `'a' 'b'` is two labels without a comma, not the label `a' 'b`.
 */
function labelEnd(s: string, from: number): { close: number; missingComma?: number } {
  let q = s.indexOf("'", from);
  while (q >= 0) {
    let j = q + 1;
    while (j < s.length && /\s/.test(s[j]!)) j++;
    if (j >= s.length || s[j] === ',' || s[j] === ')') return { close: q };
    if (j > q + 1 && startsChild(s, j)) return { close: q, missingComma: j };
    q = s.indexOf("'", q + 1);
  }
  return { close: -1 };
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
