/** Exporting a workflow to other runtimes: LangGraph.js (the generator and what its modules import). */
export { exportLangGraph, type LangGraphExportOptions } from './to-langgraph.js';
export {
  createFlowGraphSteps,
  mergeNodeResults,
  FlowScoutRetryAttempt,
  type FlowGraphNodeConfig,
  type FlowGraphRetryPolicy,
  type FlowGraphState,
  type FlowGraphSteps,
} from './langgraph-runtime.js';
