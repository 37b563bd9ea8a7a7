import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagesLoadedBy } from '../support/loaded-packages.js';
import { planToolAnswer } from '../support/workflows.js';

/**
 * The package as a user installs it: `npm run build` (tsdown.config.ts) into a package folder that
 * holds what package.json's "files" ship — bin/, cjs/, dist/, data/, the valid workflow fixtures that
 * `flowscout/testing` reads — and no src/, so bin/flowscout.js
 * runs the built CLI. A user's app next to it imports 'flowscout', and its tool module is TypeScript.
 * (node_modules and data/ are linked from this checkout rather than installed or copied.)
 */
const repo = resolve(import.meta.dirname, '../..');
let tmp: string;
let pkg: string;
let app: string;

function flowscout(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(pkg, 'bin', 'flowscout.js'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, FLOWSCOUT_MODEL: '' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'flowscout-package-'));
  pkg = join(tmp, 'flowscout');
  app = join(tmp, 'app');
  mkdirSync(pkg);
  cpSync(join(repo, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(repo, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(repo, 'cjs'), join(pkg, 'cjs'), { recursive: true });
  symlinkSync(join(repo, 'data'), join(pkg, 'data'));
  mkdirSync(join(pkg, 'test', 'fixtures', 'workflows'), { recursive: true });
  symlinkSync(
    join(repo, 'test', 'fixtures', 'workflows', 'valid'),
    join(pkg, 'test', 'fixtures', 'workflows', 'valid'),
  );
  symlinkSync(join(repo, 'node_modules'), join(pkg, 'node_modules'));
  execFileSync(
    process.execPath,
    [join(repo, 'node_modules', 'tsdown', 'dist', 'run.mjs'), '--out-dir', join(pkg, 'dist'), '--log-level', 'error'],
    { cwd: repo, stdio: 'pipe' },
  );
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  symlinkSync(pkg, join(app, 'node_modules', 'flowscout'));
  writeFileSync(join(app, 'package.json'), '{ "type": "module" }\n');
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the built package', () => {
  it('ships the entry package.json names, with types, and the library imports as "flowscout"', () => {
    const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    for (const file of [manifest.exports['.'].import, manifest.exports['.'].types, manifest.main, manifest.types])
      expect(existsSync(join(pkg, file)), file).toBe(true);
    expect(existsSync(join(pkg, 'src'))).toBe(false);
    writeFileSync(
      join(app, 'check.mjs'),
      "import * as fs from 'flowscout';\nconsole.log(['importAgentLogs', 'minedG0', 'validateWorkflow', 'executeWorkflow', 'compileWorkflow', 'evaluateWorkflow', 'runSearch', 'startHttpServer', 'exportLangGraph', 'checkConformance', 'detectDrift', 'defineTool'].map((n) => `${n}:${typeof fs[n]}`).join(' '));\n",
    );
    const out = execFileSync(process.execPath, ['check.mjs'], { cwd: app, encoding: 'utf8' }).trim();
    expect(out).toBe(
      'importAgentLogs:function minedG0:function validateWorkflow:function executeWorkflow:function compileWorkflow:function evaluateWorkflow:function runSearch:function startHttpServer:function exportLangGraph:function checkConformance:function detectDrift:function defineTool:function',
    );
  });

  it('imports the subpaths of package.json "exports" from the installed package, each with its types', () => {
    const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.exports)).toEqual([
      '.',
      './runtime',
      './testing',
      './mining',
      './bench',
      './langgraph',
      './distributed',
      './workflow',
      './records',
      './tools',
      './models',
      './policies',
      './metrics',
      './search',
      './wiring',
      './store',
      './serve',
      './conformance',
      './errors',
    ]);
    for (const entry of Object.values(manifest.exports) as { types: string; import: string }[]) {
      expect(existsSync(join(pkg, entry.types)), entry.types).toBe(true);
      expect(existsSync(join(pkg, entry.import)), entry.import).toBe(true);
    }
    writeFileSync(
      join(app, 'subpaths.mjs'),
      [
        "import * as runtime from 'flowscout/runtime';",
        "import * as testing from 'flowscout/testing';",
        "import * as mining from 'flowscout/mining';",
        "import * as bench from 'flowscout/bench';",
        "import * as langgraph from 'flowscout/langgraph';",
        "import * as distributed from 'flowscout/distributed';",
        'const policy = testing.createScriptedPolicy();',
        "const linear = testing.fixture('linear');",
        "const tree = mining.formatProcessTree(mining.discoverProcessTree(mining.eventLogFromTraces([['a', 'b'], ['a', 'c']])));",
        'console.log(JSON.stringify({',
        '  runtime: Object.keys(runtime).sort(),',
        '  policy: policy.label,',
        '  fixture: linear.name,',
        '  tree,',
        '  bench: [typeof bench.runBench, typeof bench.wilcoxonSignedRank],',
        '  langgraph: Object.keys(langgraph).sort(),',
        '  distributed: [typeof distributed.startEvaluationWorker, typeof distributed.createQueueRunner],',
        '}));',
        '',
      ].join('\n'),
    );
    const out = JSON.parse(execFileSync(process.execPath, ['subpaths.mjs'], { cwd: app, encoding: 'utf8' }));
    expect(out.runtime).toEqual(['isEdgeLive', 'startRun']);
    expect(out.policy).toBe('scripted policy (tests)');
    expect(out.fixture).toBe(
      JSON.parse(readFileSync(join(repo, 'test/fixtures/workflows/valid/linear.json'), 'utf8')).name,
    );
    // PM4Py's order: X's children sorted by the md5 of their labels ('c' before 'b').
    expect(out.tree).toBe("->( 'a', X( 'c', 'b' ) )");
    expect(out.bench).toEqual(['function', 'function']);
    expect(out.langgraph).toEqual(['createFlowGraphSteps', 'isEdgeLive', 'mergeNodeResults']);
    expect(out.distributed).toEqual(['function', 'function']);
  });

  it('imports every subpath, and finds each name the root entry no longer holds on the subpath of its job', () => {
    const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    const subpaths = Object.keys(manifest.exports)
      .filter((k) => k !== '.')
      .map((k) => `flowscout/${k.slice(2)}`);
    // What the root entry exported before it kept only the verbs, and where each is now.
    const moved: Record<string, string[]> = {
      'flowscout/workflow': [
        'WorkflowSchema',
        'assertValidWorkflow',
        'prepareWorkflow',
        'workflowHash',
        'toMermaid',
        'EditPlanSchema',
        'applyEditPlan',
      ],
      'flowscout/records': [
        'RecordSchema',
        'writeRecordsFile',
        'importTraject',
        'importToolbench',
        'writeImportFolder',
        'BUNDLED_DOMAINS',
        'bundledTrajectPaths',
      ],
      'flowscout/mining': [
        'readEventLog',
        'eventLogFromRecords',
        'discoverProcessTree',
        'formatProcessTree',
        'parseProcessTree',
        'processTreeToWorkflow',
      ],
      'flowscout/tools': ['loadFunctionTools', 'connectMcpTools', 'createReplayTools'],
      'flowscout/models': ['resolveModel', 'createLlmClient', 'createBudget'],
      'flowscout/policies': ['createLlmPolicy', 'createOraclePolicy'],
      'flowscout/metrics': ['toolCallCorrectness', 'createLexicalJudge', 'createLlmJudge', 'scorePredictions'],
      'flowscout/search': ['createRuleBasedOptimizer', 'createLlmOptimizer', 'writeSearchArtifacts'],
      'flowscout/wiring': ['prepareSearch'],
      'flowscout/store': ['openStore'],
      'flowscout/errors': ['toFlowScoutError'],
      'flowscout/serve': ['createWorkflowMcpServer'],
      'flowscout/conformance': ['alignTraces', 'workflowProcessTree', 'observedRunOfTrace'],
    };
    writeFileSync(
      join(app, 'every-subpath.mjs'),
      [
        `const subpaths = ${JSON.stringify(subpaths)};`,
        `const moved = ${JSON.stringify(moved)};`,
        'const out = {};',
        'for (const s of subpaths) {',
        '  const m = await import(s);',
        '  out[s] = { exports: Object.keys(m).length, missing: (moved[s] ?? []).filter((n) => m[n] === undefined) };',
        '}',
        'console.log(JSON.stringify(out));',
        '',
      ].join('\n'),
    );
    const out = JSON.parse(execFileSync(process.execPath, ['every-subpath.mjs'], { cwd: app, encoding: 'utf8' }));
    expect(Object.keys(out)).toEqual(subpaths);
    expect(Object.keys(moved).filter((s) => !subpaths.includes(s))).toEqual([]);
    for (const s of subpaths) {
      expect(out[s].exports, s).toBeGreaterThan(0);
      expect(out[s].missing, s).toEqual([]);
    }
  });

  it("import('flowscout') from the installed build loads no BullMQ or ioredis module (they are flowscout/distributed's)", () => {
    const loadedBy = (specifier: string) => {
      const r = packagesLoadedBy(
        ['-e', `import(${JSON.stringify(specifier)}).then((m) => console.log(Object.keys(m).length))`],
        app,
      );
      expect(r.status, r.stderr).toBe(0);
      expect(Number(r.stdout)).toBeGreaterThan(0);
      return r.loaded;
    };
    const root = loadedBy('flowscout');
    expect(root.has('zod')).toBe(true);
    expect(root.has('bullmq')).toBe(false);
    expect(root.has('ioredis')).toBe(false);
    const distributed = loadedBy('flowscout/distributed');
    expect(distributed.has('bullmq')).toBe(true);
    expect(distributed.has('ioredis')).toBe(true);
  });

  it('runs a workflow over a user\'s TypeScript tool module made with defineTool from "flowscout"', () => {
    writeFileSync(
      join(app, 'my-tools.ts'),
      [
        "import { defineTool } from 'flowscout';",
        '',
        'export const weather = defineTool({',
        "  name: 'get_weather',",
        "  description: 'Current weather for a city',",
        "  inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'city name' } }, required: ['city'] },",
        "  execute: async ({ city }: { city: string }) => ({ city, temperatureC: city === 'Paris' ? 18 : 25 }),",
        '});',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(app, 'tools.config.json'),
      '{ "version": 1, "sources": [ { "type": "functions", "module": "./my-tools.ts" } ] }\n',
    );
    const workflow = planToolAnswer({
      name: 'weather',
      tool: { id: 'look', task: 'Look up the current weather of the city', tools: ['get_weather'] },
    });
    writeFileSync(join(app, 'wf.json'), JSON.stringify(workflow));
    const r = flowscout(
      ['run', 'wf.json', '--tools', 'tools.config.json', '--query', 'What is the weather in Paris right now?'],
      app,
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('policy: offline policy (no LLM)');
    expect(r.stdout).toContain('1. get_weather {"city":"Paris"} → ok (live): {"city":"Paris","temperatureC":18}');
  });

  it('compiles the workflow into a module the app runs with its own tools and the offline policy', () => {
    const compiled = flowscout(['compile', 'wf.json', '-o', 'weather.workflow.ts'], app);
    expect(compiled.status, compiled.stderr).toBe(0);
    writeFileSync(
      join(app, 'use.ts'),
      [
        "import { createOfflinePolicy, loadToolConfig } from 'flowscout';",
        "import { run } from './weather.workflow.ts';",
        '',
        "const tools = await loadToolConfig('tools.config.json');",
        'const policy = createOfflinePolicy({ tools: tools.list() });',
        "const trace = await run('What is the weather in Paris right now?', { policy, tools });",
        'await tools.close();',
        'console.log(JSON.stringify({ status: trace.status, calls: trace.calls.map((c) => [c.tool, c.args, c.output]), answer: trace.answer }));',
        '',
      ].join('\n'),
    );
    // The generated module type-checks in a strict TypeScript project against the published types.
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['weather.workflow.ts'],
      }),
    );
    // It imports the runtime subpath and nothing else of FlowScout.
    const imports = readFileSync(join(app, 'weather.workflow.ts'), 'utf8').match(/^import .* from .*$/gm) ?? [];
    expect(imports.map((l) => l.replace(/.* from /, ''))).toEqual(['"flowscout/runtime";']);
    const tsc = spawnSync(
      process.execPath,
      [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
      { cwd: app, encoding: 'utf8' },
    );
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    const tsx = join(repo, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const out = JSON.parse(execFileSync(process.execPath, [tsx, 'use.ts'], { cwd: app, encoding: 'utf8' }));
    expect(out.status).toBe('ok');
    expect(out.calls).toEqual([['get_weather', { city: 'Paris' }, { city: 'Paris', temperatureC: 18 }]]);
    expect(out.answer).toContain('temperatureC: 18');
  });

  it('a compiled module loads in a folder whose package.json has no "type": "module" (CommonJS), or says in one line what it needs', () => {
    const cjsApp = join(tmp, 'cjs-app');
    mkdirSync(join(cjsApp, 'node_modules'), { recursive: true });
    symlinkSync(pkg, join(cjsApp, 'node_modules', 'flowscout'));
    writeFileSync(join(cjsApp, 'package.json'), '{ "name": "cjs-app", "private": true }\n');
    writeFileSync(
      join(cjsApp, 'tools.mjs'),
      "export const weather = { name: 'get_weather', description: 'Current weather for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, execute: async ({ city }) => ({ city, temperatureC: 18 }) };\n",
    );
    writeFileSync(
      join(cjsApp, 'tools.config.json'),
      '{ "version": 1, "sources": [ { "type": "functions", "module": "./tools.mjs" } ] }\n',
    );
    const compiled = flowscout(['compile', join(app, 'wf.json'), '-o', 'weather.workflow.ts'], cjsApp);
    expect(compiled.status, compiled.stderr).toBe(0);
    // Here tsx loads .ts files as CommonJS: the module's import of flowscout/runtime becomes a require().
    writeFileSync(
      join(cjsApp, 'use.ts'),
      [
        "import { run } from './weather.workflow';",
        '',
        'async function main() {',
        "  const { createOfflinePolicy, loadToolConfig } = await import('flowscout');",
        "  const tools = await loadToolConfig('tools.config.json');",
        '  const policy = createOfflinePolicy({ tools: tools.list() });',
        "  const trace = await run('What is the weather in Paris right now?', { policy, tools });",
        '  await tools.close();',
        '  console.log(JSON.stringify({ status: trace.status, calls: trace.calls.map((c) => [c.tool, c.args]) }));',
        '}',
        'void main();',
        '',
      ].join('\n'),
    );
    const tsx = join(repo, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const load = (nodeOptions: string) =>
      spawnSync(process.execPath, [tsx, 'use.ts'], {
        cwd: cjsApp,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: nodeOptions },
      });
    const ran = load('');
    expect(ran.status, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({ status: 'ok', calls: [['get_weather', { city: 'Paris' }]] });
    // A Node.js that cannot require() an ES module: one line says what the module needs.
    const old = load('--no-experimental-require-module');
    expect(old.status).not.toBe(0);
    expect(old.stderr).toContain(
      `Error: flowscout/runtime is an ES module and this Node.js (${process.version}) cannot require() one (Node.js 20.19 and later can, unless started with --no-experimental-require-module): load the compiled workflow as an ES module (name it .mts, or add "type": "module" to the package.json of its folder)`,
    );
    expect(old.stderr).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it("exports the workflow to a LangGraph module that type-checks strictly and runs on the app's @langchain/langgraph", () => {
    mkdirSync(join(app, 'node_modules', '@langchain'), { recursive: true });
    for (const name of ['langgraph', 'core', 'langgraph-checkpoint', 'langgraph-sdk', 'protocol']) {
      if (existsSync(join(repo, 'node_modules', '@langchain', name)))
        symlinkSync(join(repo, 'node_modules', '@langchain', name), join(app, 'node_modules', '@langchain', name));
    }
    const exported = flowscout(['export', 'wf.json', '--to', 'langgraph', '-o', 'weather.graph.ts'], app);
    expect(exported.status, exported.stderr).toBe(0);
    writeFileSync(
      join(app, 'use-graph.ts'),
      [
        "import { createOfflinePolicy, loadToolConfig } from 'flowscout';",
        "import { createGraph, run } from './weather.graph.ts';",
        '',
        "const tools = await loadToolConfig('tools.config.json');",
        'const policy = createOfflinePolicy({ tools: tools.list() });',
        "const trace = await run('What is the weather in Paris right now?', { policy, tools });",
        "const state = await createGraph({ policy, tools }).invoke({ query: 'What is the weather in Paris right now?' });",
        'await tools.close();',
        'console.log(JSON.stringify({ status: trace.status, calls: trace.calls.map((c) => [c.tool, c.args]), same: state.answer === trace.answer, nodes: Object.keys(state.results) }));',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true,
          types: ['node'],
          typeRoots: [join(repo, 'node_modules', '@types')],
        },
        files: ['weather.graph.ts', 'use-graph.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
      { cwd: app, encoding: 'utf8' },
    );
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    const tsx = join(repo, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const out = JSON.parse(execFileSync(process.execPath, [tsx, 'use-graph.ts'], { cwd: app, encoding: 'utf8' }));
    expect(out).toEqual({
      status: 'ok',
      calls: [['get_weather', { city: 'Paris' }]],
      same: true,
      nodes: ['plan', 'look', 'answer'],
    });
  });

  it('imports the bundled data, searches with its SQLite store, and lists the run', () => {
    const imported = flowscout(['import', 'traject', '--domain', 'Weather', '--out', 'weather'], app);
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('Wrote weather/records.jsonl, weather/tools.json, weather/tools.config.json');
    const search = flowscout(
      [
        'search',
        '--records',
        'weather/records.jsonl',
        '--tools',
        'weather/tools.config.json',
        '--iterations',
        '1',
        '--db',
        'runs.db',
        '--out',
        'best',
      ],
      app,
    );
    expect(search.stderr).toBe('');
    expect(search.status).toBe(0);
    expect(search.stdout).toMatch(/test set \(\d+ records\):\s+G0 TC \d\.\d{3} ES \d\.\d{3}/);
    for (const f of ['best.workflow.json', 'best.workflow.ts', 'best.workflow.mmd', 'search.json'])
      expect(existsSync(join(app, 'best', f)), f).toBe(true);
    const runs = flowscout(['runs', 'list', '--db', 'runs.db'], app);
    expect(runs.status).toBe(0);
    expect(runs.stdout).toMatch(/run-\d{8}-\d{6}-[0-9a-f]{4}/);
  });
  it("runs the shipping guide's library example on the imported data: G0 evaluated, a search, both type-checked against the published types", () => {
    const guide = readFileSync(join(repo, 'docs/guides/shipping.md'), 'utf8');
    const code = /## As a library[\s\S]*?```ts\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(code, 'a ts block in "As a library"').toBeDefined();
    writeFileSync(join(app, 'library.ts'), code!.replaceAll('travel/', 'weather/'));
    writeFileSync(
      join(app, 'tsconfig.library.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(repo, 'node_modules', '@types')],
        },
        files: ['library.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.library.json'],
      { cwd: app, encoding: 'utf8' },
    );
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    const tsx = join(repo, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const run = spawnSync(process.execPath, [tsx, 'library.ts'], {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, FLOWSCOUT_MODEL: '' },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^G0 test TC \d\.\d{3}; best c?\w+: test TC \d\.\d{3}\n$/);
  });
});
