/** Wiring: model strings → policy, judge, optimizer with one shared rate limiter and budget; a search's settings → a ready search. */
export {
  chosenModel,
  resolvePolicy,
  resolveJudge,
  resolveOptimizer,
  type ResolvedPolicy,
  type ResolvedJudge,
  type ResolvedOptimizer,
  type ResolvePolicyOptions,
  type ResolveJudgeOptions,
  type ResolveOptimizerOptions,
  type ClientOptions,
} from './resolve-models.js';
export {
  createModelWiring,
  wireModels,
  type ModelSettings,
  type ModelWiring,
  type WiredModels,
} from './wire-models.js';
export { prepareSearch, type SearchConfig, type PreparedSearch } from './prepare-search.js';
