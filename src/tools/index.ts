/** Tools T: the registry, and the sources it is built from (functions, MCP, replay, a config file). */
export type * from '../contracts/tools.js';
export * from './config-schema.js';
export { createToolRegistry, DEFAULT_TOOL_TIMEOUT_MS, type ToolRegistryOptions } from './registry.js';
export { defineTool } from './define-tool.js';
export { loadFunctionTools } from './function-tools.js';
export { connectMcpTools, type ConnectMcpOptions } from './mcp-tools.js';
export {
  createReplayTools,
  type ReplayExample,
  type ReplayIndexStats,
  type ReplayOptions,
  type ReplayTools,
  type SimulateFn,
} from './replay-tools.js';
export { loadToolConfig, readDescriptors, type LoadToolConfigOptions } from './load-tool-config.js';
export { toolResult, isToolResult, type ToolResultFields } from './tool-result.js';
export { closeNames } from './close-names.js';
export {
  changesState,
  effectFromMcpAnnotations,
  needsGrounding,
  resolveEffects,
  type EffectRules,
  type EffectSetting,
} from './effects.js';
export {
  addWriteCalls,
  createWriteAnswers,
  guardLiveWrites,
  isGuarded,
  REFUSED_WRITE,
  writeGuardHeader,
  writeGuardSummary,
  type GuardedToolRegistry,
  type WriteGuardOptions,
  type WriteAnswers,
  type WriteCallCounts,
  type WriteGuardReport,
} from './write-guard.js';
