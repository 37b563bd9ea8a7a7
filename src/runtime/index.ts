/** Running workflows: the interpreter, the compiler, the run object they share, and the pure steps. */
export { executeWorkflow } from './execute.js';
export { compileWorkflow, type CompileOptions } from './compile.js';
export { startRun } from './run-state.js';
export { isBudgetExhausted } from './node-step.js';
export {
  DEFAULT_CONCURRENCY,
  DEFAULT_CONTEXT_CHARS,
  type NodeResult,
  type RunContext,
  type RunInput,
  type RunOptions,
  type WorkflowRun,
} from './run-state.js';
export { nodeMemoKey, createMemoryMemo, type MemoKeyInput, type NodeMemo } from './memo.js';
export { evaluateGuard, readField, type GuardSource } from './guards.js';
export { isEdgeLive, decideNode, type NodeDecision, type ResolvedSource } from './frontier.js';
export { renderContext, renderInput, toNodeInput, type ToolNodeOutputCall } from './context.js';
export { candidateTools, isEmptyOutput } from './tool-node.js';
export type { PreCallCheck, PreCallDecision, PreCallRequest } from './pre-call.js';
export type * from './trace.js';
