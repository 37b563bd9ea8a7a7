/** The workflow IR: schema, validation, edits, templates, rendering. */
export * from './schema.js';
export { PROBLEM_CODES, jsonPath, type Problem, type ProblemCode } from './problems.js';
export { parseWorkflow, validateWorkflow, assertValidWorkflow, type ParseResult, type ToolNames } from './validate.js';
export { adjacency, topologicalOrder, type Adjacency } from './graph-utils.js';
