import { describe, expect, it } from 'vitest';
import { comparePython } from '../python-order.js';
import { foldProcessTree } from './fold.js';
import { formatProcessTree } from './format.js';
import { processTreeToMermaid } from './mermaid.js';
import { FlowScoutError } from '../../errors/index.js';
import { MAX_JSON_DEPTH } from '../../util/json-depth.js';
import { MAX_TREE_DEPTH, parseProcessTree } from './parse.js';
import type { ProcessTree } from './schema.js';
import { labelKey, sortProcessTree } from './sort.js';

const p = parseProcessTree;
const fold = (s: string) => formatProcessTree(foldProcessTree(p(s)));

describe('PM4Py notation', () => {
  it('prints operators, quotes leaves inside them, prints a root leaf unquoted and never escapes', () => {
    const t: ProcessTree = {
      op: 'seq',
      children: [
        { label: 'a' },
        { op: 'xor', children: [{ tau: true }, { label: "it's" }] },
        { op: 'loop', children: [{ label: 'e' }, { tau: true }] },
      ],
    };
    expect(formatProcessTree(t)).toBe("->( 'a', X( tau, 'it's' ), *( 'e', tau ) )");
    expect(formatProcessTree({ label: 'search_web' })).toBe('search_web');
    expect(formatProcessTree({ tau: true })).toBe('tau');
  });

  it('parses its own output back, labels with quotes and commas included', () => {
    const s = "->( 'a', X( tau, 'it's', 'x, y' ), +( 'c', 'd' ), *( 'e', tau ) )";
    expect(formatProcessTree(p(s))).toBe(s);
    expect(p('search_web')).toEqual({ label: 'search_web' });
    expect(p("'quoted root'")).toEqual({ label: 'quoted root' });
  });

  it('reports where a tree stops making sense', () => {
    expect(() => p("->( 'a', ")).toThrow(/at character \d+/);
    expect(() => p("->( 'a' ) )")).toThrow(/unbalanced|after the end/);
    expect(() => p("X( 'a', b )")).toThrow('a quoted label or tau, found "b )"');
  });

  it("refuses what PM4Py's notation does not allow, naming the character, instead of reading it as one activity", () => {
    const refused = (text: string) => {
      try {
        p(text);
      } catch (e) {
        return (e as FlowScoutError).message.replace('not a process tree in PM4Py notation at ', '');
      }
      return `read as ${formatProcessTree(p(text))}`;
    };
    expect(refused("->( 'a' 'b' )")).toBe('character 9: expected "," between two children of an operator');
    expect(refused("->( 'a', X( 'b' tau ) )")).toBe('character 17: expected "," between two children of an operator');
    expect(refused("->( 'a' X( 'b' ) )")).toBe('character 9: expected "," between two children of an operator');
    expect(refused("->( tau 'b' )")).toBe('character 9: expected "," between two children of an operator');
    expect(refused("Q( 'a' )")).toBe('character 1: unknown operator "Q" (PM4Py\'s notation has ->, X, +, *)');
    expect(refused("->( 'a', Q( 'b' ) )")).toBe(
      'character 10: unknown operator "Q" (PM4Py\'s notation has ->, X, +, *)',
    );
    expect(refused("O( 'a', 'b' )")).toBe(
      'character 1: PM4Py\'s or operator "O" is not one FlowScout reads (it reads ->, X, +, *)',
    );
    expect(refused("<>( 'a', 'b' )")).toBe(
      'character 1: PM4Py\'s interleaving operator "<>" is not one FlowScout reads (it reads ->, X, +, *)',
    );
    expect(refused("->( 'a', X( ) )")).toBe('character 13: the operator at character 10 has no children');
    expect(refused("'a', 'b'")).toBe(
      'character 4: unexpected text after the end of the tree (several children need an operator)',
    );
    expect(refused("'a")).toBe('character 1: a quoted label is not closed');
    expect(refused("->( 'a', 'b'")).toBe(
      'character 13: the text ends inside the operator at character 1: expected "," or ")"',
    );
    // Positions count from the start of the text, leading spaces included.
    expect(refused("  ->( 'a' 'b' )")).toBe('character 11: expected "," between two children of an operator');
    // Quotes inside a label that no child follows stay part of it; a name with brackets is a root activity.
    expect(refused("->( 'it's', 'rock 'n' roll' )")).toBe("read as ->( 'it's', 'rock 'n' roll' )");
    expect(refused('check(ticket)')).toBe('read as check(ticket)');
  });

  it('bounds how deep a tree nests, like the JSON readers: 20,000 levels are refused at the level past the limit', () => {
    const nested = (n: number) => `${'->( '.repeat(n)}'a'${' )'.repeat(n)}`;
    expect(MAX_TREE_DEPTH).toBe(MAX_JSON_DEPTH);
    let depth = 0;
    for (let t = p(nested(MAX_TREE_DEPTH)); 'op' in t; t = t.children[0]!) depth++;
    expect(depth).toBe(MAX_TREE_DEPTH);
    const at = 4 * MAX_TREE_DEPTH + 1;
    for (const n of [MAX_TREE_DEPTH + 1, 20_000])
      expect(() => p(nested(n))).toThrow(
        `at character ${at}: the tree is nested more than ${MAX_TREE_DEPTH} levels deep (the most FlowScout reads)`,
      );
  });
});

describe('fold (PM4Py behaviour)', () => {
  it('drops tau from -> and +, keeps one tau in X, unwraps single children, flattens same operators but not loops', () => {
    expect(fold("->( tau, 'a', ->( 'b', tau ), 'c' )")).toBe("->( 'a', 'b', 'c' )");
    expect(fold("X( tau, X( tau, 'a' ), 'b' )")).toBe("X( tau, 'a', 'b' )");
    expect(fold("+( tau, ->( 'a' ) )")).toBe('a');
    expect(fold("*( *( 'a', tau ), tau )")).toBe("*( *( 'a', tau ), tau )");
    expect(fold('X( tau, tau )')).toBe('tau');
  });
});

describe('tree_sort (md5 keys, BigInt)', () => {
  it('orders X and + children by the md5 sum of their labels, tau first; -> and * keep their order', () => {
    expect(labelKey('search_docs') < labelKey('search_web')).toBe(true);
    expect(labelKey('search_web') < labelKey('query_db')).toBe(true);
    const sorted = sortProcessTree(p("X( 'query_db', 'search_web', tau, 'search_docs' )"));
    expect(formatProcessTree(sorted)).toBe("X( tau, 'search_docs', 'search_web', 'query_db' )");
    expect(formatProcessTree(sortProcessTree(p("->( 'query_db', 'search_docs' )")))).toBe(
      "->( 'query_db', 'search_docs' )",
    );
  });
});

describe('Python string order', () => {
  it('compares by code point, so astral characters sort after U+E000–U+FFFF', () => {
    expect(comparePython('\uffff', '😀')).toBeLessThan(0);
    expect('\uffff' < '😀').toBe(false); // JavaScript's UTF-16 order differs
    expect(['b', 'B', 'a', 'ab'].sort(comparePython)).toEqual(['B', 'a', 'ab', 'b']);
  });
});

describe('Mermaid', () => {
  it('draws operators as circles, leaves as boxes, loop edges as do/redo, and quotes labels', () => {
    const m = processTreeToMermaid(p(`*( X( 'say "hi"', tau ), 'b' )`));
    expect(m).toContain('flowchart TD');
    expect(m).toContain('t0(("↺"))');
    expect(m).toContain('-->|do|');
    expect(m).toContain('-->|redo|');
    expect(m).toContain('"say #quot;hi#quot;"');
    expect(m).toContain('([τ])');
  });
});
