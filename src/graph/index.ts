/** The workflow IR: schema, validation, edits, templates, hashing, rendering. */
export * from './schema.js';
export { PROBLEM_CODES, jsonPath, type Problem, type ProblemCode } from './problems.js';
export { parseWorkflow, validateWorkflow, assertValidWorkflow, type ParseResult, type ToolNames } from './validate.js';
export { adjacency, topologicalOrder, reachable, findCycles, compareIds, type Adjacency } from './graph-utils.js';
export * from './edits/index.js';
export {
  PROMPT_TEMPLATES,
  PLACEHOLDERS,
  RUNTIME_PLACEHOLDERS,
  NODE_FIELD_PLACEHOLDERS,
  DEFAULT_JUDGE_FIELD,
  placeholdersIn,
  renderPrompt,
  makeLlmNode,
  type PlaceholderName,
  type RenderOptions,
  type MakeLlmNodeOptions,
} from './prompt-templates.js';
export {
  SYNTHESIZE_DIRECTIVES,
  SYNTHESIZE_DIRECTIVE_IDS,
  SYNTHESIZE_VARIANTS,
  SYNTHESIZE_VARIANT_IDS,
  synthesizeVariant,
  synthesizeVariantOf,
  isSynthesizeDirective,
  directiveLine,
  type SynthesizeDirective,
  type SynthesizeVariant,
} from './synthesize-variants.js';
export { nodePromptText, choiceLines, choiceValues } from './node-prompt.js';
export { workflowHash, canonicalWorkflow } from './hash.js';
export { prepareWorkflow, indexWorkflow, isPreparedWorkflow, type PreparedWorkflow } from './prepare.js';
export { toMermaid, guardLabel, type MermaidOptions } from './to-mermaid.js';
