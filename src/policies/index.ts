/** Policies: who decides at LLM and tool nodes (LLM, offline, oracle), (a model string picks one in `wiring/`). */
export type * from './types.js';
export { createLlmPolicy, type LlmPolicyOptions } from './llm-policy.js';
export { createOfflinePolicy, OFFLINE_POLICY_LABEL, type OfflinePolicyOptions } from './offline/offline-policy.js';
export { createOraclePolicy, oracleWorkflowFor, ORACLE_LABEL } from './oracle.js';
