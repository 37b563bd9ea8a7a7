/**
 * What a compiled workflow module imports (see compile.ts): the run object that keeps observations,
 * the concurrency bound and the budget stop (run-state.ts, `startRun`), and the pure edge-liveness step. The
 * workflow's structure itself is in the generated code. This file is the package's
 * `flowscout/runtime` entry, and generated modules import from it and nothing else of FlowScout.
 */
export { startRun } from './run-state.js';
export type { NodeResult, RunContext, RunInput, RunOptions, WorkflowRun } from './run-state.js';
export { isEdgeLive } from './frontier.js';
export type { Trace } from './trace.js';
export type { Workflow, WorkflowNode } from '../graph/schema.js';
