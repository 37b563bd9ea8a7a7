/**
 * Tool-shortlist recall on the bundled TRAJECT-Bench domains (not a test): how often the tool of a
 * reference call is among the k tools a shortlist sends (src/policies/tool-shortlist.ts), for
 * k = 5, 10, 20, 40, and which k the default is chosen from.
 *
 *   npx tsx benchmarks/tool-shortlist-recall.ts [--seed N] [--test]
 *
 * Per domain, the records whose calls all succeeded are split 5:2:3 (seed 0, as `search` does); the
 * shortlister reads T and the request (and a workflow's hints: G0 carries none), and G0 is mined from D_opt.
 *   - workflow positions: G0 runs every record with the oracle policy over the replay tools, so each
 *     reference call is made by the G0 position that reaches it (in order); the shortlist ranks that
 *     position's candidates for the request. Reference calls left over when G0 has fewer positions than the log are counted apart.
 *   - ReAct: the tool list of the baseline is ranked from the request alone over all of T.
 * Recall = calls whose tool is in the shortlist / calls. k is chosen on D_val: the smallest k with
 * recall >= 0.95 on every domain for both sides, among k = 5 … 40. D_test figures are printed only with --test.
 */
import { fileURLToPath } from 'node:url';
import { createOraclePolicy } from '../src/policies/oracle.js';
import { createToolShortlister, DEFAULT_SHORTLIST_SIZE } from '../src/policies/tool-shortlist.js';
import type { ExecutionPolicy } from '../src/policies/types.js';
import { BUNDLED_DOMAINS, bundledTrajectPaths } from '../src/records/bundled.js';
import { importTraject } from '../src/records/import/traject.js';
import type { TaskRecord } from '../src/records/schema.js';
import { splitRecords } from '../src/records/split.js';
import { executeWorkflow } from '../src/runtime/execute.js';
import { minedG0 } from '../src/search/variants.js';
import { createToolRegistry } from '../src/tools/registry.js';
import { createReplayTools } from '../src/tools/replay-tools.js';

export const KS = [5, 10, 20, 40] as const;
/** The sizes the default is chosen from: every k from 5 to 40. */
export const CHOICES = Array.from({ length: 36 }, (_, i) => i + 5);

/** Rank (0-based) of each reference call's tool in its shortlist ranking; Infinity when absent. */
export interface RecallRanks {
  workflow: number[];
  /** Reference calls no G0 position reached. */
  unreached: number;
  react: number[];
}

export interface DomainRecall {
  domain: string;
  tools: number;
  opt: RecallRanks;
  val: RecallRanks;
  test: RecallRanks;
}

export function recallAt(ranks: readonly number[], k: number): number {
  return ranks.length === 0 ? 1 : ranks.filter((r) => r < k).length / ranks.length;
}

export async function measureDomain(domain: string, seed = 0): Promise<DomainRecall> {
  const files = bundledTrajectPaths(domain);
  const { records, tools: descriptors } = importTraject(files.trajQuery, files.tools);
  const allOk = records.filter((r) => r.calls.every((c) => c.status !== 'error'));
  const splits = splitRecords(allOk, { seed });
  // The skeleton alone: a shortlist matters at its generic positions (a route's positions are bound
  // to one tool each, so nothing is left out there), and every request a router sends to `other` runs it.
  const g0 = minedG0(splits.opt, descriptors, { routes: false });
  const shortlister = createToolShortlister({ tools: descriptors });
  const tools = createToolRegistry(createReplayTools(allOk, descriptors));
  const oracle = createOraclePolicy(allOk);

  async function ranksOf(set: readonly TaskRecord[]): Promise<RecallRanks> {
    const out: RecallRanks = { workflow: [], unreached: 0, react: [] };
    const policy: ExecutionPolicy = {
      ...oracle,
      async planToolCalls(req) {
        const plan = await oracle.planToolCalls(req);
        if (req.attempt > 1) return plan; // a retry replays the same calls; count each reference call once
        const ranking = shortlister.rank({ query: req.query, candidates: req.candidates }).map((t) => t.name);
        for (const c of plan.calls) {
          const i = ranking.indexOf(c.tool);
          out.workflow.push(i < 0 ? Infinity : i);
        }
        return plan;
      },
    };
    for (const record of set) {
      const trace = await executeWorkflow(
        g0,
        { query: record.query, recordId: record.id },
        { policy, tools, concurrency: 1 },
      );
      const issued = trace.observations.reduce((n, o) => n + (o.calls ?? []).filter((c) => c.attempt === 1).length, 0);
      out.unreached += Math.max(0, record.calls.length - issued);
      const ranking = shortlister.rank({ query: record.query, candidates: descriptors }).map((t) => t.name);
      for (const c of record.calls) {
        const i = ranking.indexOf(c.tool);
        out.react.push(i < 0 ? Infinity : i);
      }
    }
    return out;
  }

  return {
    domain,
    tools: descriptors.length,
    opt: await ranksOf(splits.opt),
    val: await ranksOf(splits.val),
    test: await ranksOf(splits.test),
  };
}

/** The smallest k of CHOICES whose D_val recall is at least `target` on every domain, both sides. */
export function chooseK(rows: readonly DomainRecall[], target = 0.95): number | undefined {
  return CHOICES.find((k) =>
    rows.every((r) => recallAt(r.val.workflow, k) >= target && recallAt(r.val.react, k) >= target),
  );
}

/** The printed columns: KS and the default size. */
const COLUMNS = [...new Set<number>([...KS, DEFAULT_SHORTLIST_SIZE])].sort((a, b) => a - b);

function line(label: string, ranks: readonly number[], extra = ''): string {
  return `  ${label.padEnd(26)} ${String(ranks.length).padStart(5)}  ${COLUMNS.map((k) => recallAt(ranks, k).toFixed(3).padStart(6)).join(' ')}${extra}`;
}

async function main(): Promise<void> {
  const seedArg = process.argv.indexOf('--seed');
  const seed = seedArg > 0 ? Number(process.argv[seedArg + 1]) : 0;
  const showTest = process.argv.includes('--test');
  console.log(
    `tool-shortlist recall (share of reference calls whose tool is in the shortlist), bundled TRAJECT-Bench, split 5:2:3 seed ${seed}`,
  );
  const rows: DomainRecall[] = [];
  for (const domain of BUNDLED_DOMAINS) {
    const r = await measureDomain(domain, seed);
    rows.push(r);
    console.log(`${r.domain} (${r.tools} tools)        calls   ${COLUMNS.map((k) => `k=${k}`.padStart(6)).join(' ')}`);
    const sets: Array<['opt' | 'val' | 'test', string]> = [
      ['opt', 'D_opt'],
      ['val', 'D_val'],
    ];
    if (showTest) sets.push(['test', 'D_test']);
    for (const [key, name] of sets) {
      const x = r[key];
      console.log(
        line(
          `${name} workflow positions`,
          x.workflow,
          x.unreached ? `   (+${x.unreached} calls no G0 position reached)` : '',
        ),
      );
      console.log(line(`${name} ReAct tool list`, x.react));
    }
  }
  const k = chooseK(rows);
  console.log(
    `chosen on D_val (smallest k with recall >= 0.95 on every domain, both sides): k = ${k ?? 'none of 5 … 40'}; default in src/policies/tool-shortlist.ts: ${DEFAULT_SHORTLIST_SIZE}`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
