/** Records (q, r, π): schema, canonical arguments, readers, importers, splits. */
export { CallSchema, RecordSchema, type Call, type CallKey, type TaskRecord } from './schema.js';
export { canonicalArgs, canonicalCallKey, stableStringify, type ParamSchema } from './canonical-args.js';
