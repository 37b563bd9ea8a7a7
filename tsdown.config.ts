import { defineConfig } from 'tsdown';

// The published build: one entry per package.json export, each with its types, and the CLI that
// bin/flowscout.js runs when dist/ exists. Plain `.js` names, as package.json's exports expect.
// `npm run build` then builds the web UI into dist/ui/ (ui/vite.config.ts).
//   flowscout          src/index.ts                  the curated library API
//   flowscout/runtime  src/runtime/compiled-support.ts  what a compiled workflow module imports
//   flowscout/testing  src/testing/index.ts          the scripted policy and edit-test fixtures
//   flowscout/mining   src/mining/index.ts           the whole inductive miner and its event logs
//   flowscout/bench    src/bench/index.ts            experiments, baselines, statistics, figures
//   flowscout/langgraph src/export/langgraph-support.ts what a module exported to LangGraph.js imports
//   flowscout/distributed src/distributed/index.ts   distributed evaluation on BullMQ and Redis (the root entry loads neither)
// and the plumbing the root entry leaves out, one subpath per job, each its folder's index.ts:
//   flowscout/workflow     src/graph/        the IR: schema, validation, edit plans, hashing, Mermaid
//   flowscout/records      src/records/      records, splits, the TRAJECT-Bench and ToolBench importers, bundled data
//   flowscout/tools        src/tools/        the registry and every tool source (functions, MCP, replay)
//   flowscout/models       src/llm/          model strings, the LLM client, budgets, prices
//   flowscout/policies     src/policies/     the LLM, offline and oracle policies
//   flowscout/metrics      src/metrics/      TC, the lexical and LLM judges, scoring of predictions
//   flowscout/search       src/search/       the optimizers, MCTS, memo, artifacts
//   flowscout/wiring       src/wiring/       model strings to policy, judge and optimizer; a search from its settings
//   flowscout/store        src/store/        the SQLite store of runs
//   flowscout/serve        src/serve/        the served workflow: service, MCP server, HTTP server, metrics
//   flowscout/conformance  src/conformance/  alignments, run health, the conformance profile, drift
//   flowscout/errors       src/errors/       the error class, its codes and their facts, errors as data
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    runtime: 'src/runtime/compiled-support.ts',
    testing: 'src/testing/index.ts',
    mining: 'src/mining/index.ts',
    bench: 'src/bench/index.ts',
    langgraph: 'src/export/langgraph-support.ts',
    distributed: 'src/distributed/index.ts',
    workflow: 'src/graph/index.ts',
    records: 'src/records/index.ts',
    tools: 'src/tools/index.ts',
    models: 'src/llm/index.ts',
    policies: 'src/policies/index.ts',
    metrics: 'src/metrics/index.ts',
    search: 'src/search/index.ts',
    wiring: 'src/wiring/index.ts',
    store: 'src/store/index.ts',
    serve: 'src/serve/index.ts',
    conformance: 'src/conformance/index.ts',
    errors: 'src/errors/index.ts',
    'cli/main': 'src/cli/main.ts',
  },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  fixedExtension: false,
  dts: true,
  clean: true,
  // Vite builds the web UI in a checkout only (src/ui/server/spa.ts); an installed package ships the
  // built app, so the bundle never holds Vite.
  deps: { neverBundle: ['vite'] },
});
