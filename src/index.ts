/**
 * FlowScout: turn logs of past tool-using agent runs into reliable, reusable agent workflows.
 * The one public entry point of the library; the CLI is a thin shell over it.
 */
export * from './errors/index.js';
export * from './graph/index.js';
export * from './records/index.js';
export type * from './tools/types.js';
export type * from './policies/types.js';
export { ZERO_USAGE, addUsage } from './policies/types.js';
export type * from './runtime/trace.js';
export type * from './metrics/types.js';
export { ES_DIMENSIONS } from './metrics/types.js';
