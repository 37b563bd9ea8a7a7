/** The Workflow Optimizer (docs/DESIGN.md, "Search"): optimizers, MCTS and beam search, memo, budgets (evaluation and feedback are in `evaluate/`). */
export type { Optimizer, Proposal, ProposeInput } from './optimizers/types.js';
export { OptimizerError } from './optimizers/optimizer-error.js';
export { createRuleBasedOptimizer, RULE_BASED_LABEL } from './optimizers/rule-based.js';
export { ruleEdits, type RuleEdit } from './optimizers/rule-edits.js';
export { createLlmOptimizer } from './optimizers/llm-optimizer.js';
export { runSearch, type RunSearchInput, type SearchResult, type Scores } from './run-search.js';
export {
  DEFAULT_SETTINGS,
  noToolNodes,
  type IterationRow,
  type SearchContext,
  type SearchSettings,
} from './search-context.js';
export { SearchTree, type Candidate } from './tree.js';
export { annealedLambda, DEFAULT_LAMBDA_MAX, DEFAULT_LAMBDA_MIN } from './anneal.js';
export { selectPath, uctScore } from './select.js';
export { backpropagate } from './backprop.js';
export { createSearchMemo, type MemoSavings, type SearchMemo } from './memo.js';
export { createBudgetWatch, type BudgetWatch } from './budget-watch.js';
export { minedG0, plainSkeleton, llmOnlySkeleton, type SearchStart } from './variants.js';
export { writeSearchArtifacts, searchDocument, type SearchDocument, type CandidateSummary } from './artifacts.js';
