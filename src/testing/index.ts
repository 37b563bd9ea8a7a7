/**
 * `flowscout/testing`: what tests of workflows use instead of a model — the scripted policy (plain
 * functions decide at every node) and the edit-test helpers over the shipped valid workflow fixtures.
 */
export { createScriptedPolicy, defaultLlmOutput, type ScriptedPolicyScript } from './scripted-policy.js';
export { schemaDefaults } from '../policies/schema-defaults.js';
export { fixture, edges, apply, ok, refusal } from './edit-fixtures.js';
