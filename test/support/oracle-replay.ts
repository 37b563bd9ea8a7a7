import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { toolCallCorrectness } from '../../src/metrics/tool-call-lcs.js';
import { createOraclePolicy, oracleWorkflowFor } from '../../src/policies/oracle.js';
import { bundledTrajectPaths } from '../../src/records/bundled.js';
import { importTraject } from '../../src/records/import/traject.js';
import { executeWorkflow } from '../../src/runtime/execute.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { createReplayTools } from '../../src/tools/replay-tools.js';

/**
 * Oracle replay over one TRAJECT-Bench domain (docs/DESIGN.md, "Policies": the oracle "replays the
 * reference calls of a known record, to prove that the harness reaches TC = 1"): every record whose calls all succeeded
 * is run with `oracleWorkflowFor(record)` and the oracle policy over the replay tools built from the
 * domain's records; replay hits, misses and TC are counted. Used by `src/policies/oracle.test.ts`
 * and by `benchmarks/runtime-replay-oracle.ts`.
 */

export interface OracleReplayRow {
  domain: string;
  records: number;
  calls: number;
  hits: number;
  misses: number;
  /** Mean TC over the records. */
  tc: number;
  /** Records whose TC was below 1 (ids), for diagnosis. */
  imperfect: string[];
  /** Reference calls the runtime's grounding withheld (not sent to replay): record id, tool and why. */
  withheld: Array<{ record: string; tool: string; why: string }>;
}

/** Where a domain's files are: `<dir>/sequential/<Domain>/traj_query.json` and `<dir>/tools/<Domain>_tool.json`, or the bundled copy. */
export function trajectFiles(domain: string, publicDataDir?: string): { trajQuery: string; tools: string } {
  if (!publicDataDir) return bundledTrajectPaths(domain);
  const seq = join(publicDataDir, 'sequential', domain, 'traj_query.json');
  return {
    trajQuery: existsSync(seq) ? seq : join(publicDataDir, domain, 'traj_query.json'),
    tools: join(publicDataDir, 'tools', `${domain}_tool.json`),
  };
}

/** Runs the oracle over every all-ok record of one domain. */
export async function oracleReplayDomain(domain: string, publicDataDir?: string): Promise<OracleReplayRow> {
  const files = trajectFiles(domain, publicDataDir);
  const { records, tools: descriptors } = importTraject(files.trajQuery, files.tools);
  const allOk = records.filter((r) => r.calls.every((c) => c.status !== 'error'));
  const tools = createToolRegistry(createReplayTools(allOk, descriptors));
  const policy = createOraclePolicy(allOk);
  const schemas = Object.fromEntries(descriptors.map((d) => [d.name, d.inputSchema]));
  let tcSum = 0;
  const imperfect: string[] = [];
  const withheld: OracleReplayRow['withheld'] = [];
  for (const record of allOk) {
    const trace = await executeWorkflow(
      oracleWorkflowFor(record),
      { query: record.query, recordId: record.id },
      { policy, tools, concurrency: 1 },
    );
    const { tc } = toolCallCorrectness(record.calls, trace.calls, { schemas });
    tcSum += tc;
    for (const w of trace.withheld ?? []) withheld.push({ record: record.id, tool: w.tool, why: w.why });
    if (tc < 1) imperfect.push(record.id);
  }
  const stats = tools.stats();
  return {
    domain,
    records: allOk.length,
    calls: allOk.reduce((n, r) => n + r.calls.length, 0),
    hits: stats.replayHits,
    misses: stats.replayMisses,
    tc: allOk.length ? tcSum / allOk.length : 1,
    imperfect,
    withheld,
  };
}
