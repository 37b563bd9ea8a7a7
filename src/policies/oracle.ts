import { FlowScoutError } from '../errors/index.js';
import type { LlmNode, Workflow } from '../graph/schema.js';
import type { Call, TaskRecord } from '../records/schema.js';
import { schemaDefaults } from './schema-defaults.js';
import type { ExecutionPolicy, LlmNodeRequest, LlmNodeResult, ToolPlanRequest, ToolPlanResult } from './types.js';

/**
 * The oracle replay policy (docs/DESIGN.md, "Policies": "replays the reference calls of a
 * known record, to prove the harness reaches TC = 1"). Tests only — it needs the answer key.
 *
 * Tool nodes: a per-run cursor (in `req.scratch`) walks the record's reference calls in order.
 * `calls: 'one'` takes the next call; `calls: 'many'` takes the next call and every following call
 * to the same tool (a maximal run of one tool); a retry rewinds to where the node's first attempt
 * started, so the same calls are replayed. An exhausted log is a plan error for `one` and an empty
 * plan for `many`. The oracle ignores the node's candidates (the runtime refuses calls outside them).
 * Parallel branches take calls in the order they start (topological, ties by node id), so the exact
 * reference order needs a sequential workflow such as `oracleWorkflowFor(record)`.
 *
 * LLM nodes are answered trivially: plan → the query; synthesize → the reference answer; judge and
 * other JSON nodes → an object with a default value per declared field; other text nodes → the query.
 */

/** How oracle results are labelled wherever they are shown. */
export const ORACLE_LABEL = 'oracle replay (tests only)';

const CURSOR = 'oracle:cursor';
const startKey = (nodeId: string) => `oracle:start:${nodeId}`;

/** The oracle over these records (a run names its record with `recordId`). */
export function createOraclePolicy(records: readonly TaskRecord[]): ExecutionPolicy {
  const byId = new Map(records.map((r) => [r.id, r]));
  const recordFor = (recordId: string | undefined): TaskRecord => {
    if (recordId === undefined) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: "the oracle policy needs a record id: it replays that record's reference calls",
        hint: 'Run with {recordId} set to a record the oracle was built with.',
      });
    }
    const r = byId.get(recordId);
    if (!r)
      throw new FlowScoutError({
        code: 'NOT_FOUND',
        message: `the oracle policy has no record '${recordId}' (it knows ${byId.size} records)`,
      });
    return r;
  };
  return {
    id: 'oracle',
    kind: 'oracle',
    label: ORACLE_LABEL,
    async runLlmNode(req: LlmNodeRequest): Promise<LlmNodeResult> {
      const record = recordFor(req.recordId);
      return { output: oracleLlmOutput(req.node, req.query, record.reference), model: 'oracle' };
    },
    async planToolCalls(req: ToolPlanRequest): Promise<ToolPlanResult> {
      const record = recordFor(req.recordId);
      let start: number;
      if (req.attempt <= 1 || !req.scratch.has(startKey(req.node.id))) {
        start = (req.scratch.get(CURSOR) as number | undefined) ?? 0;
        req.scratch.set(startKey(req.node.id), start);
      } else {
        start = req.scratch.get(startKey(req.node.id)) as number;
      }
      const calls = takeCalls(record.calls, start, req.node.calls ?? 'one');
      req.scratch.set(CURSOR, start + calls.length);
      if (calls.length === 0 && req.node.calls !== 'many') {
        return {
          calls: [],
          model: 'oracle',
          error: `record '${record.id}' has no reference call left (all ${record.calls.length} used)`,
        };
      }
      return { calls: calls.map((c) => ({ tool: c.tool, args: c.args })), model: 'oracle' };
    },
  };
}

/** The reference calls a node takes from `start` (see the rules above). */
export function takeCalls(calls: readonly Call[], start: number, mode: 'one' | 'many'): Call[] {
  const first = calls[start];
  if (!first) return [];
  if (mode === 'one') return [first];
  let end = start + 1;
  while (end < calls.length && calls[end]!.tool === first.tool) end++;
  return calls.slice(start, end);
}

function oracleLlmOutput(node: LlmNode, query: string, reference: string): string | Record<string, unknown> {
  if (node.output.type === 'json') {
    const out = schemaDefaults(node.output.schema);
    if (node.role === 'synthesize') {
      const textField = Object.entries(node.output.schema.properties).find(([, p]) => p.type === 'string')?.[0];
      if (textField) out[textField] = reference;
    }
    return out;
  }
  if (node.role === 'synthesize') return reference;
  return query;
}

/**
 * A sequential workflow that lets the oracle reproduce a record's log exactly: plan → one tool node
 * per maximal run of calls to one tool (`calls: 'many'` for a run longer than one, the tool as the
 * hint) → synthesize. Used to prove the harness: oracle + replay over it must give TC = 1.
 */
export function oracleWorkflowFor(record: TaskRecord): Workflow {
  const nodes: Workflow['nodes'] = [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan how to answer: {{query}}', output: { type: 'text' } },
  ];
  const edges: Workflow['edges'] = [];
  let prev = 'plan';
  for (let i = 0, k = 1; i < record.calls.length; k++) {
    const run = takeCalls(record.calls, i, 'many');
    const id = `call_${k}`;
    nodes.push({
      id,
      kind: 'tool',
      task: `call ${run[0]!.tool}`,
      tools: [run[0]!.tool],
      ...(run.length > 1 ? { calls: 'many' as const } : {}),
    });
    edges.push({ from: prev, to: id, kind: 'data' });
    prev = id;
    i += run.length;
  }
  nodes.push({
    id: 'synthesize',
    kind: 'llm',
    role: 'synthesize',
    prompt: 'Answer {{query}} from {{inputs}}',
    output: { type: 'text' },
  });
  edges.push({ from: prev, to: 'synthesize', kind: 'data' });
  return { version: 1, name: `oracle-${record.id}`, nodes, edges };
}
