import { z } from 'zod';
import { col, type Table } from './columns.js';
import type { CandidateRow, EvaluationRow, RunLock, RunRecordRow, RunRow, ServedRunRow } from './types.js';

/**
 * The column table of each stored entity (see columns.ts). The SQL schema itself is migrations.ts
 * (shipped migrations never change); these tables say how each row type maps onto it. A row type
 * and its table must agree field for field: `Columns<Row>` makes a missing or mistyped column a
 * compile error.
 */

const str = z.string();
const num = z.number();
const json = z.record(z.string(), z.unknown());
const split = z.enum(['opt', 'val', 'test']);
const fileHash = z.object({ file: str, sha256: str, bytes: num });

export const RUNS: Table<RunRow> = {
  name: 'runs',
  key: ['id'],
  columns: {
    id: col('id', 'raw', str),
    createdAt: col('created_at', 'raw', str),
    updatedAt: col('updated_at', 'raw', str),
    status: col('status', 'raw', z.enum(['running', 'done', 'stopped', 'failed'])),
    stopReason: col('stop_reason', 'text', str.optional()),
    seed: col('seed', 'raw', num),
    strategy: col('strategy', 'raw', str),
    config: col('config', 'json', json),
    policyLabel: col('policy_label', 'text', str),
    judgeLabel: col('judge_label', 'text', str),
    optimizerLabel: col('optimizer_label', 'text', str),
    recordsFile: col('records_file', 'text', str.optional()),
    outDir: col('out_dir', 'text', str.optional()),
    iterationsDone: col('iterations_done', 'raw', num),
    sinceImprovement: col('since_improvement', 'raw', num),
    bestCandidate: col('best_candidate', 'raw', str.optional()),
    usage: col('usage', 'json', json.optional()),
    result: col('result', 'json', json.optional()),
    inputs: col('inputs', 'json', z.object({ records: fileHash, tools: fileHash, settings: str }).optional()),
    owner: col('owner', 'json', z.object({ pid: num, host: str }).optional()),
  },
};

export const CANDIDATES: Table<CandidateRow> = {
  name: 'candidates',
  key: ['run_id', 'id'],
  columns: {
    id: col('id', 'raw', str),
    seq: col('seq', 'raw', num),
    parent: col(
      'parent',
      'raw',
      str
        .nullable()
        .optional()
        .transform((v) => v ?? null),
    ),
    iteration: col('iteration', 'raw', num),
    workflow: col('workflow', 'json', z.unknown()),
    hash: col('hash', 'raw', str.optional()),
    plan: col('plan', 'json', z.unknown()),
    summary: col('summary', 'text', str.optional()),
    optReward: col('opt_reward', 'raw', num.optional()),
    optTc: col('opt_tc', 'raw', num.optional()),
    optEs: col('opt_es', 'raw', num.optional()),
    feedback: col('feedback', 'json', z.unknown()),
    valScore: col('val_score', 'raw', num.optional()),
    valTc: col('val_tc', 'raw', num.optional()),
    valEs: col('val_es', 'raw', num.optional()),
    visits: col('visits', 'raw', num),
    w: col('w', 'raw', num),
    q: col('q', 'raw', num),
    error: col('error', 'text', str.optional()),
    duplicateOf: col('duplicate_of', 'raw', str.optional()),
  },
};

export const EVALUATIONS: Table<EvaluationRow> = {
  name: 'evaluations',
  key: ['run_id', 'candidate_id', 'split', 'record_id'],
  columns: {
    candidateId: col('candidate_id', 'raw', str),
    split: col('split', 'raw', split),
    recordId: col('record_id', 'raw', str),
    tc: col('tc', 'raw', num),
    es: col('es', 'raw', num),
    dims: col('dims', 'json', z.record(z.string(), num)),
    answer: col('answer', 'text', str),
    calls: col('calls', 'json', z.array(z.unknown())),
    error: col('error', 'text', str.optional()),
    trace: col('trace', 'blob', z.unknown()),
  },
};

export const RUN_RECORDS: Table<RunRecordRow> = {
  name: 'run_records',
  key: ['run_id', 'record_id'],
  columns: {
    recordId: col('record_id', 'raw', str),
    split: col('split', 'raw', split),
    record: col('record', 'json', z.unknown()),
  },
};

export interface MemoRow {
  key: string;
  observation: unknown;
}

export const NODE_MEMO: Table<MemoRow> = {
  name: 'node_memo',
  key: ['run_id', 'key'],
  columns: {
    key: col('key', 'raw', str),
    observation: col('observation', 'json', z.unknown()),
  },
};

export interface IterationRow {
  iteration: number;
  data: Record<string, unknown>;
}

export const ITERATIONS: Table<IterationRow> = {
  name: 'iterations',
  key: ['run_id', 'iteration'],
  columns: {
    iteration: col('iteration', 'raw', num),
    data: col('data', 'json', json),
  },
};

export const RUN_LOCKS: Table<RunLock> = {
  name: 'run_locks',
  key: ['run_id'],
  columns: {
    pid: col('pid', 'raw', num),
    host: col('host', 'raw', str),
    acquiredAt: col('acquired_at', 'raw', str),
    heartbeatAt: col('heartbeat_at', 'raw', str),
  },
};

export const SERVED_RUNS: Table<ServedRunRow> = {
  name: 'served_runs',
  key: ['id'],
  columns: {
    id: col('id', 'raw', num),
    createdAt: col('created_at', 'raw', str),
    workflow: col('workflow', 'text', str),
    workflowHash: col('workflow_hash', 'raw', str.optional()),
    transport: col('transport', 'raw', str),
    policyLabel: col('policy_label', 'text', str),
    query: col('query', 'text', str),
    status: col('status', 'raw', z.enum(['ok', 'error'])),
    answer: col('answer', 'text', str),
    error: col('error', 'text', str.optional()),
    durationMs: col('duration_ms', 'raw', num),
    trace: col('trace', 'json', z.unknown()),
    fitness: col('fitness', 'raw', num.optional()),
    health: col('health', 'raw', num.optional()),
  },
};
