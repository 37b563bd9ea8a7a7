import type { RegisterCommand } from './register.js';

export type { RegisterCommand } from './register.js';

/**
 * Every command the CLI offers, in help order (only commands that work are listed). A command's
 * module — and with it the library it drives (models, SQLite, MCP, the miner) — is loaded only when
 * that command runs; `flowscout --help` lists the commands from this table alone, which is why each
 * entry repeats its command's name, arguments and description (a test checks they match).
 */
export interface CommandEntry {
  name: string;
  /** The arguments as the top-level help shows them, e.g. `<workflow>`. */
  args: string;
  /** Whether the command has options (the help shows `[options]`). */
  options: boolean;
  description: string;
  load(): Promise<RegisterCommand>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'import',
    args: '',
    options: false,
    description: 'convert a dataset into FlowScout records (records.jsonl, tools.json, tools.config.json)',
    load: async () => (await import('./import.js')).registerImport,
  },
  {
    name: 'mine',
    args: '<input>',
    options: true,
    description:
      'discover a process tree (PM4Py inductive miner) from records or an event log, or the initial workflow G0',
    load: async () => (await import('./mine.js')).registerMine,
  },
  {
    name: 'conformance',
    args: '<log>',
    options: true,
    description:
      "align every run of a log with a process tree or a workflow: PM4Py's fitness per variant, what each skipped or inserted",
    load: async () => (await import('./conformance.js')).registerConformance,
  },
  {
    name: 'drift',
    args: '<workflow>',
    options: true,
    description:
      'compare new runs with what a workflow was learned from and say whether it drifted, why, and what to run next',
    load: async () => (await import('./drift.js')).registerDrift,
  },
  {
    name: 'validate',
    args: '<workflow>',
    options: true,
    description: 'check a workflow file against the IR schema and Valid(G, T); exit 0 valid, 1 invalid',
    load: async () => (await import('./validate.js')).registerValidate,
  },
  {
    name: 'render',
    args: '<workflow>',
    options: true,
    description: 'render a workflow as a Mermaid flowchart or canonical JSON',
    load: async () => (await import('./render.js')).registerRender,
  },
  {
    name: 'run',
    args: '<workflow>',
    options: true,
    description: 'run a workflow on one query over real tools and print the answer, the calls and the policy',
    load: async () => (await import('./run.js')).registerRun,
  },
  {
    name: 'compile',
    args: '<workflow>',
    options: true,
    description: 'compile a workflow into a standalone TypeScript module with run(query, context)',
    load: async () => (await import('./compile.js')).registerCompile,
  },
  {
    name: 'export',
    args: '<workflow>',
    options: true,
    description: 'export a workflow to another agent framework: a LangGraph.js StateGraph module',
    load: async () => (await import('./export.js')).registerExport,
  },
  {
    name: 'serve',
    args: '<workflow>',
    options: true,
    description: 'serve a workflow as an MCP tool (stdio or Streamable HTTP) and/or an HTTP endpoint',
    load: async () => (await import('./serve.js')).registerServe,
  },
  {
    name: 'eval',
    args: '[workflow]',
    options: true,
    description:
      'score a workflow (run on every record) or predictions (one {"id", "calls", "answer"} object a line) with TC and ES',
    load: async () => (await import('./eval.js')).registerEval,
  },
  {
    name: 'search',
    args: '',
    options: true,
    description:
      'search for a better workflow with MCTS over edit plans, driven by execution feedback (mined G0 → best on D_val)',
    load: async () => (await import('./search.js')).registerSearch,
  },
  {
    name: 'runs',
    args: '',
    options: false,
    description: 'list and show stored search runs',
    load: async () => (await import('./runs.js')).registerRuns,
  },
  {
    name: 'ui',
    args: '',
    options: true,
    description: 'serve the local web UI over stored runs (read-only) until Ctrl-C',
    load: async () => (await import('./ui.js')).registerUi,
  },
  {
    name: 'bench',
    args: '',
    options: true,
    description:
      "run the paper's experiments on the bundled TRAJECT-Bench data, or on your own records and tools, and write report.md, SVG figures and results.json",
    load: async () => (await import('./bench.js')).registerBench,
  },
  {
    name: 'baseline',
    args: '<name>',
    options: true,
    description:
      'run one baseline (react, pm4py-style, llm-only) on your records as `bench` does, and print TC and ES on the test queries',
    load: async () => (await import('./baseline.js')).registerBaseline,
  },
  {
    name: 'tools',
    args: '[file or command...]',
    options: true,
    description:
      "list the tools of a tool config (MCP servers included) or a tools.json, or write tools.json from a running MCP server's tool list (--mcp / --url)",
    load: async () => (await import('./tools.js')).registerTools,
  },
  {
    name: 'worker',
    args: '',
    options: true,
    description:
      'take evaluation jobs from a Redis queue and run them (start any number, on any machine, next to search/eval/bench --redis)',
    load: async () => (await import('./worker.js')).registerWorker,
  },
  {
    name: 'demo',
    args: '',
    options: true,
    description:
      'run the whole pipeline on the bundled TRAJECT-Bench Travel data (offline unless --model): mine, search, compare with baselines',
    load: async () => (await import('./demo.js')).registerDemo,
  },
];
