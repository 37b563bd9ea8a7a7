/**
 * FlowScout: turn logs of past tool-using agent runs into reliable, reusable agent workflows.
 * The one public entry point of the library; the CLI is a thin shell over it. Each folder's own
 * `index.ts` lists its public names explicitly; this file gathers them.
 */
export * from './errors/index.js';
export * from './graph/index.js';
export * from './records/index.js';
export * from './mining/index.js';
export * from './tools/index.js';
export * from './policies/index.js';
export * from './llm/index.js';
export * from './runtime/index.js';
export * from './metrics/index.js';
export { createLlmJudge, GEVAL_RUBRICS, type LlmJudgeOptions } from './metrics/llm-judge.js';
export { createRandom, type Random } from './util/random.js';
export { mapLimit } from './util/map-limit.js';
export { readJsonFile, parseJsonText, writeTextFile } from './util/json-file.js';
export * from './evaluate/index.js';
export * from './search/index.js';
export * from './store/index.js';
export * from './wiring/index.js';
export * from './distributed/index.js';
export * from './bench/index.js';
