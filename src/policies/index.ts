/** Policies: who decides at LLM and tool nodes (LLM, offline, oracle), and how a model string picks one. */
export type * from './types.js';
export { ZERO_USAGE, addUsage } from './types.js';
export { createLlmPolicy, type LlmPolicyOptions } from './llm-policy.js';
export { createOfflinePolicy, OFFLINE_POLICY_LABEL, type OfflinePolicy, type OfflinePolicyOptions } from './offline/offline-policy.js';
export { createOraclePolicy, oracleWorkflowFor, ORACLE_LABEL } from './oracle.js';
export {
  resolvePolicy,
  resolveJudge,
  type ResolvedPolicy,
  type ResolvedJudge,
  type ResolvePolicyOptions,
  type ResolveJudgeOptions,
  type ClientOptions,
} from './resolve-policy.js';
