/** Contracts at the bottom: the tool contract (descriptors, specs, registry, call outcomes) and the canonical argument form that TC, replay and the importers share. */
export type * from './tools.js';
export { awaitsApproval, PENDING_PREFIX } from './tools.js';
export { canonicalArgs, canonicalCallKey, stableStringify, type ParamSchema } from './canonical-args.js';
