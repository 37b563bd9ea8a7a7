/**
 * Mining (docs/DESIGN.md, "Pipeline" and "Mining": D_opt.π → event log → inductive miner → process tree → G0):
 * event logs from records, XES, CSV and JSONL; the inductive miner (IM / IMf) reproducing PM4Py's
 * trees; process trees printed in PM4Py's notation, parsed and drawn; and the initial workflow G0.
 */
export {
  EventLogBuilder,
  eventLogFromTraces,
  namedVariants,
  type EventLog,
  type Variant,
} from './event-log/event-log.js';
export { eventLogFromRecords, activityByParentTool, type FromRecordsOptions } from './event-log/from-records.js';
export { readXes, type ReadXesOptions } from './event-log/read-xes.js';
export { readCsvLog, type ReadCsvOptions } from './event-log/read-csv.js';
export { readJsonlLog, type ReadJsonlLogOptions } from './event-log/read-jsonl-log.js';
export {
  readEventLog,
  type EventLogSource,
  type ReadEventLogOptions,
  type ReadEventLogResult,
} from './event-log/read-event-log.js';
export { summarizeDfg, type DfgSummary } from './event-log/dfg-summary.js';
export type { CaseOrder } from './event-log/order-cases.js';
export { DEFAULT_READER_LIMITS, type ReaderLimits } from './event-log/read-limits.js';
export { discoverProcessTree, type DiscoverOptions } from './inductive/discover.js';
export { CUTS } from './inductive/cuts/index.js';
export { BASE_CASES } from './inductive/base-cases/index.js';
export { FALL_THROUGHS } from './inductive/fall-throughs/index.js';
export type { BaseCase, Cut, FallThrough } from './inductive/types.js';
export * from './process-tree/schema.js';
export { formatProcessTree } from './process-tree/format.js';
export { parseProcessTree } from './process-tree/parse.js';
export { processTreeToMermaid } from './process-tree/mermaid.js';
export { foldProcessTree } from './process-tree/fold.js';
export { sortProcessTree } from './process-tree/sort.js';
export { processTreeToWorkflow, type ToWorkflowOptions } from './to-workflow.js';
export { retriedTools } from './retry-tools.js';
export { comparePython } from './python-order.js';
