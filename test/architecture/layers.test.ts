import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import rule of docs/ARCHITECTURE.md ("Folders"), checked over every `src/**\/*.ts`:
 *
 * - a folder of `src/` may import only the folders its row of `ALLOWED` names (the same table as
 *   the document, bottom layer first); `src/index.ts` (the public entry) may import every folder;
 * - no import cycle between folders, and none between files (type-only imports count too);
 * - code that ships (not `*.test.ts`) imports nothing outside `src/` but packages.
 *
 * Tests (`*.test.ts`) are leaves: they may import any folder and `test/support/`, and are left out
 * of the folder rule; they still count for cycles between files.
 */
const ALLOWED: Record<string, readonly string[]> = {
  errors: [],
  util: ['errors'],
  contracts: [],
  text: [],
  dataflow: ['errors', 'util', 'contracts', 'text'],
  graph: ['errors', 'util', 'dataflow'],
  retrieval: ['errors', 'util', 'contracts', 'graph', 'dataflow', 'text'],
  records: ['errors', 'util', 'contracts'],
  llm: ['errors', 'util', 'contracts'],
  tools: ['errors', 'util', 'contracts', 'records'],
  store: ['errors', 'util', 'llm'],
  metrics: ['errors', 'util', 'contracts', 'records', 'llm'],
  mining: ['errors', 'util', 'contracts', 'graph', 'dataflow', 'retrieval', 'text', 'records'],
  policies: ['errors', 'util', 'contracts', 'graph', 'dataflow', 'retrieval', 'text', 'records', 'llm', 'tools'],
  runtime: ['errors', 'util', 'contracts', 'graph', 'dataflow', 'retrieval', 'text', 'llm', 'tools', 'policies'],
  testing: [
    'errors',
    'util',
    'contracts',
    'graph',
    'dataflow',
    'retrieval',
    'text',
    'records',
    'llm',
    'tools',
    'policies',
    'runtime',
  ],
  evaluate: [
    'errors',
    'util',
    'contracts',
    'graph',
    'dataflow',
    'retrieval',
    'text',
    'records',
    'llm',
    'tools',
    'metrics',
    'policies',
    'runtime',
  ],
  export: [
    'errors',
    'util',
    'contracts',
    'graph',
    'dataflow',
    'retrieval',
    'text',
    'llm',
    'tools',
    'policies',
    'runtime',
  ],
  conformance: ['errors', 'util', 'contracts', 'graph', 'dataflow', 'records', 'mining', 'runtime'],
  serve: [
    'errors',
    'util',
    'contracts',
    'graph',
    'dataflow',
    'retrieval',
    'text',
    'llm',
    'tools',
    'policies',
    'runtime',
  ],
  search: [
    'errors',
    'util',
    'contracts',
    'graph',
    'dataflow',
    'retrieval',
    'text',
    'records',
    'llm',
    'tools',
    'store',
    'metrics',
    'mining',
    'policies',
    'runtime',
    'evaluate',
    'conformance',
  ],
  wiring: [
    'errors',
    'util',
    'contracts',
    'graph',
    'dataflow',
    'retrieval',
    'text',
    'records',
    'llm',
    'tools',
    'store',
    'metrics',
    'mining',
    'policies',
    'runtime',
    'evaluate',
    'search',
  ],
  distributed: [
    'errors',
    'util',
    'contracts',
    'graph',
    'dataflow',
    'retrieval',
    'text',
    'records',
    'llm',
    'tools',
    'metrics',
    'policies',
    'runtime',
    'evaluate',
    'wiring',
  ],
  bench: [
    'errors',
    'util',
    'contracts',
    'graph',
    'dataflow',
    'retrieval',
    'text',
    'records',
    'llm',
    'tools',
    'store',
    'metrics',
    'mining',
    'policies',
    'runtime',
    'evaluate',
    'search',
    'wiring',
    'distributed',
  ],
  ui: ['errors', 'util', 'contracts', 'graph', 'dataflow', 'store', 'mining', 'conformance'],
  cli: [
    'errors',
    'util',
    'contracts',
    'graph',
    'dataflow',
    'retrieval',
    'text',
    'records',
    'llm',
    'tools',
    'store',
    'metrics',
    'mining',
    'ui',
    'policies',
    'runtime',
    'evaluate',
    'export',
    'conformance',
    'serve',
    'search',
    'wiring',
    'distributed',
    'bench',
  ],
};
const ROOT_ENTRY = 'index.ts';

const repo = resolve(import.meta.dirname, '../..');
const src = join(repo, 'src');

export interface ImportEdge {
  from: string;
  to: string;
  spec: string;
}

/** Every `.ts` file under `dir`, as paths relative to `src/` with `/` separators. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(relative(src, p).split(sep).join('/'));
  }
  return out.sort();
}

// Static imports and re-exports at the start of a line (`import … from`, `import '…'`, `export … from`;
// a comment line starts with `//` or `*`, so it never matches) and dynamic `import('…')` outside comments.
const STATIC = /^[ \t]*(?:import|export)\s+(?:type\s+)?(?:[\w*${},\s]+?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /^(?![ \t]*(?:\/\/|\*|\/\*)).*?\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The relative imports of a file's text, resolved to paths relative to `src/` (`../x` outside it). */
export function importsOf(file: string, text: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const m of [...text.matchAll(STATIC), ...text.matchAll(DYNAMIC)]) {
    const spec = m[1]!;
    if (!spec.startsWith('.')) continue;
    let target = resolve(src, dirname(file), spec);
    if (target.endsWith('.js')) target = `${target.slice(0, -3)}.ts`;
    else if (!target.endsWith('.ts') && !target.endsWith('.json'))
      target = existsSync(`${target}.ts`) ? `${target}.ts` : join(target, 'index.ts');
    edges.push({ from: file, to: relative(src, target).split(sep).join('/'), spec });
  }
  return edges;
}

/** `graph` for `graph/validate.ts`; `(root)` for `index.ts`; `(outside)` for `../test/…`. */
export function folderOf(path: string): string {
  if (path.startsWith('../')) return '(outside)';
  const parts = path.split('/');
  return parts.length === 1 ? '(root)' : parts[0]!;
}

/** Every import that breaks the folder rule, as `from -> to (spec)` lines. */
export function forbiddenImports(
  edges: readonly ImportEdge[],
  allowed: Record<string, readonly string[]> = ALLOWED,
): string[] {
  const out: string[] = [];
  for (const e of edges) {
    if (e.from.endsWith('.test.ts')) continue;
    const a = folderOf(e.from);
    const b = folderOf(e.to);
    if (a === b) continue;
    if (b === '(outside)') {
      out.push(`${e.from} -> ${e.spec}: shipped code imports nothing outside src/`);
      continue;
    }
    if (a === '(root)' && e.from === ROOT_ENTRY) continue;
    if (!(a in allowed)) {
      out.push(`${e.from}: folder '${a}' has no row in the import table`);
      continue;
    }
    if (!allowed[a]!.includes(b)) out.push(`${e.from} -> ${e.to}: '${a}' may not import '${b}'`);
  }
  return out;
}

/** The cycles of a directed graph: one list of nodes per strongly connected component with more than one node (or a self-loop). */
export function cyclesOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || graph.get(v)?.has(v)) out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

function graphOf(
  edges: readonly ImportEdge[],
  key: (path: string) => string,
  include: (e: ImportEdge) => boolean,
): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!include(e)) continue;
    const a = key(e.from);
    const b = key(e.to);
    if (!g.has(a)) g.set(a, new Set());
    if (a !== b || key === String) g.get(a)!.add(b);
  }
  return g;
}

const files = sourceFiles(src);
const edges = files.flatMap((f) => importsOf(f, readFileSync(join(src, f), 'utf8')));
const shipped = (e: ImportEdge) => !e.from.endsWith('.test.ts') && !e.to.startsWith('../');

describe('the import rule of docs/ARCHITECTURE.md', () => {
  it('sees the source tree (every folder of src/ has a row in the table, and imports are found)', () => {
    const folders = [...new Set(files.map(folderOf))].filter((f) => f !== '(root)').sort();
    expect(folders).toEqual(Object.keys(ALLOWED).sort());
    expect(edges.length).toBeGreaterThan(500);
    // Every relative import names a file that exists (so a moved file cannot hide from the rule).
    expect(edges.filter((e) => !existsSync(resolve(src, e.to))).map((e) => `${e.from} -> ${e.spec}`)).toEqual([]);
  });

  it('has no import that the table forbids', () => {
    expect(forbiddenImports(edges)).toEqual([]);
  });

  it('has no import cycle between folders', () => {
    expect(cyclesOf(graphOf(edges, folderOf, shipped))).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(cyclesOf(graphOf(edges, String, (e) => !e.to.startsWith('../')))).toEqual([]);
  });

  it('documents the same table', () => {
    const doc = readFileSync(join(repo, 'docs/ARCHITECTURE.md'), 'utf8');
    for (const [folder, deps] of Object.entries(ALLOWED)) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${folder}\` |`));
      expect(row, `docs/ARCHITECTURE.md has an import-rule row for ${folder}`).toBeDefined();
      const cells = row!.split('|').map((c) => c.trim());
      const listed = cells[2] === '—' ? [] : cells[2]!.split(',').map((c) => c.trim().replace(/`/g, ''));
      expect(listed.sort(), `the documented imports of ${folder}`).toEqual([...deps].sort());
    }
  });
});

describe('the checks themselves', () => {
  it('catch a forbidden import, an import from outside src/, a folder cycle and a file cycle', () => {
    const fake = [
      ...importsOf('graph/validate.ts', "import { runSearch } from '../search/run-search.js';"),
      ...importsOf('llm/client.ts', "import type { X } from '../../test/support/x.js';"),
      ...importsOf('search/a.ts', "export { b } from './b.js';"),
      ...importsOf('search/b.ts', "const m = await import('./a.js');"),
    ];
    expect(forbiddenImports(fake)).toEqual([
      "graph/validate.ts -> search/run-search.ts: 'graph' may not import 'search'",
      'llm/client.ts -> ../../test/support/x.js: shipped code imports nothing outside src/',
    ]);
    expect(cyclesOf(graphOf(fake, String, () => true))).toEqual([['search/a.ts', 'search/b.ts']]);
    const folderCycle = [...fake, ...importsOf('search/c.ts', "import type { G } from '../graph/schema.js';")];
    expect(cyclesOf(graphOf(folderCycle, folderOf, shipped))).toEqual([['graph', 'search']]);
    // Comments do not count as imports.
    expect(
      importsOf(
        'graph/x.ts',
        "// import { a } from '../search/a.js';\n/*\n * export * from '../cli/main.js';\n * await import('../cli/main.js');\n */",
      ),
    ).toEqual([]);
  });
});
