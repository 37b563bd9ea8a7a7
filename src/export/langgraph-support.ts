/**
 * What a module exported by `flowscout export --to langgraph` imports (see to-langgraph.ts): the
 * node steps, the `results` reducer, the edge-liveness step and the types it names. Tests import
 * the generated modules against this file; it is the package's `flowscout/langgraph` entry, which
 * published modules import.
 */
export {
  createFlowGraphSteps,
  mergeNodeResults,
  type FlowGraphNodeConfig,
  type FlowGraphSteps,
} from './langgraph-runtime.js';
export { isEdgeLive } from '../runtime/frontier.js';
export type { RunContext } from '../runtime/run-state.js';
export type { NodeObservation, Trace } from '../runtime/trace.js';
export type { Workflow, WorkflowNode } from '../graph/schema.js';
