import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The curated public API (docs/ARCHITECTURE.md, "Public API"): the root entry `src/index.ts`
 * exports the verbs a library user calls and their types, at most 30 values, and every name it
 * exports carries a doc comment at its definition. The subpath entries (package.json "exports")
 * hold the rest; the compiler's runtime entry exports only what a generated module imports.
 */
const repo = resolve(import.meta.dirname, '../..');

const ROOT = resolve(repo, 'src/index.ts');
const RUNTIME = resolve(repo, 'src/runtime/compiled-support.ts');
let program: ts.Program | undefined;

function exportsOf(entry: string): { name: string; documented: boolean; value: boolean }[] {
  program ??= ts.createProgram([ROOT, RUNTIME], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(moduleSymbol).map((s) => {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    const decls = target.getDeclarations() ?? [];
    // A doc comment on the declaration, or on the variable statement that holds it.
    const documented = decls.some((d) => {
      const holder = ts.isVariableDeclaration(d) ? d.parent.parent : d;
      return ts.getJSDocCommentsAndTags(holder).length > 0 || target.getDocumentationComment(checker).length > 0;
    });
    // A value is what exists at run time (a function, class, constant); a type or interface is not.
    return { name: s.getName(), documented, value: (target.flags & ts.SymbolFlags.Value) !== 0 };
  });
}

describe('the public API', () => {
  it('the root entry exports at most 30 values, each documented at its definition, as are its types', () => {
    const names = exportsOf(ROOT);
    const values = names.filter((n) => n.value).map((n) => n.name);
    expect(values.length).toBeLessThanOrEqual(30);
    expect(names.filter((n) => !n.documented).map((n) => n.name)).toEqual([]);
  });

  it('the root entry has a verb for each job: import, mine, validate, run, compile, evaluate, search, serve, export, conformance, drift', () => {
    const values = new Set(
      exportsOf(ROOT)
        .filter((n) => n.value)
        .map((n) => n.name),
    );
    const verbs = {
      import: 'importAgentLogs',
      mine: 'minedG0',
      validate: 'validateWorkflow',
      run: 'executeWorkflow',
      compile: 'compileWorkflow',
      evaluate: 'evaluateWorkflow',
      search: 'runSearch',
      serve: 'startHttpServer',
      export: 'exportLangGraph',
      conformance: 'checkConformance',
      drift: 'detectDrift',
    };
    expect(Object.entries(verbs).filter(([, name]) => !values.has(name))).toEqual([]);
  });

  it('flowscout/runtime exports exactly what a compiled module imports', () => {
    const names = exportsOf(RUNTIME)
      .map((n) => n.name)
      .sort();
    expect(names).toEqual([
      'NodeResult',
      'RunContext',
      'RunInput',
      'RunOptions',
      'Trace',
      'Workflow',
      'WorkflowNode',
      'WorkflowRun',
      'isEdgeLive',
      'startRun',
    ]);
  });
});
