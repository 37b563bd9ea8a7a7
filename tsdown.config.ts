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
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    runtime: 'src/runtime/compiled-support.ts',
    testing: 'src/testing/index.ts',
    mining: 'src/mining/index.ts',
    bench: 'src/bench/index.ts',
    langgraph: 'src/export/langgraph-support.ts',
    distributed: 'src/distributed/index.ts',
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
