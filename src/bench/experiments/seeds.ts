import {
  addParameterRows,
  addSources,
  emptySources,
  mostLost,
  type ArgumentSources,
  type ParameterCounts,
} from '../../dataflow/argument-sources.js';
import type { BootstrapInterval } from '../stats/bootstrap.js';
import { comparePaired } from '../stats/paired-compare.js';
import { mean, sampleSd } from '../stats/describe.js';
import type { ToolCoverage } from '../../records/split.js';
import type { BenchResults } from './results.js';

/**
 * `flowscout bench --seeds 0,1,2`: the whole benchmark once per seed (each seed its own split,
 * searches and bootstrap), then each approach's mean and spread over the seeds, per domain and
 * averaged over domains, and the paper's orderings checked on those means. A change that helps one
 * split only shows up here as spread, not as a win.
 */

/** One approach on one domain (or "average") over the seeds. */
export interface SeedStat {
  domain: string;
  id: string;
  label: string;
  /** Per seed, in the order of `seeds` (null: TC not defined for the approach). */
  tc: Array<number | null>;
  es: number[];
  tcMean: number | null;
  /** Sample SD over seeds (0 with one seed); null when TC is not defined. */
  tcSd: number | null;
  esMean: number;
  esSd: number;
  /** Calls per test query, mean over seeds: made, failed, beyond the reference, and the graded TC. */
  calls?: { made: number; failed: number; beyond: number; gradedTc: number };
  /** Reference arguments by where their value stands, pooled over seeds (and domains for the average). */
  argumentSources?: ArgumentSources;
}

/** FlowScout's mean TC against another approach's, per domain and on the average over domains. */
export interface OrderingCheck {
  /** The paper's claim, in words. */
  claim: string;
  other: string;
  domain: string;
  flowscout: number;
  baseline: number;
  /** FlowScout's mean minus the other's. */
  diff: number;
  /** Seeds on which FlowScout's TC is higher. */
  seedsAhead: number;
  /** True when FlowScout is ahead by a difference the report shows (`orderingHolds`). */
  holds: boolean;
}

/** The smallest difference of mean TC the report shows as non-zero (it prints three decimals). */
export const SHOWN_DIFFERENCE = 0.0005;

/**
 * Whether FlowScout's mean TC is ahead of the other's: by at least a difference the report's three
 * decimals show, so a row never reads "+0.000 … holds". A smaller gap is no difference either way.
 */
export function orderingVerdict(diff: number): 'holds' | 'no difference' | 'does not hold' {
  if (diff >= SHOWN_DIFFERENCE) return 'holds';
  return diff > -SHOWN_DIFFERENCE ? 'no difference' : 'does not hold';
}

/**
 * FlowScout against another approach on the test queries of every seed pooled, paired query by query
 * (per domain, and over all domains): whether a difference of the means is more than the spread of
 * the queries allows. Seeds split the records differently, so a query may appear in several seeds'
 * test splits; each appearance is one pair.
 */
export interface PairedOrdering {
  claim: string;
  other: string;
  /** A domain, or `all` (every domain's queries together). */
  domain: string;
  /** Pairs (test queries over all seeds). */
  n: number;
  /** Pairs whose TC differs. */
  differing: number;
  /** Mean of FlowScout's TC minus the other's over the pairs. */
  meanDiff: number;
  /** Seeded 95 % percentile-bootstrap interval of `meanDiff`. */
  ci?: BootstrapInterval;
  /** `ahead`: the interval lies above 0; `behind`: below 0; `not shown`: it holds 0. */
  verdict: 'ahead' | 'behind' | 'not shown';
}

export interface SeedsResults {
  version: 1;
  kind: 'seeds';
  command: string;
  code: BenchResults['code'];
  startedAt: string;
  durationMs: number;
  seeds: number[];
  labels: BenchResults['labels'];
  stats: SeedStat[];
  orderings: OrderingCheck[];
  /** The same claims on the pooled test queries, paired (absent in summaries written before it existed). */
  paired?: PairedOrdering[];
  /**
   * The bindings FlowScout's best workflows keep, per domain summed over seeds, and how many read an
   * earlier call's output (absent in summaries written before they were counted).
   */
  bestBindings?: Array<{ domain: string; total: number; upstream: number; seeds: number }>;
  /**
   * Per domain, each seed's measured test reference calls and how many are of a tool D_opt calls
   * (results.ts `coverage`; absent in summaries written before it was counted).
   */
  testCoverage?: Array<{ domain: string; seeds: ToolCoverage[] }>;
  /**
   * Per domain, the parameters whose reference arguments FlowScout lost the most, summed over the
   * seeds (results.ts `parameterSources`; the first `LOST_KEPT`; absent in summaries written before).
   */
  lostParameters?: Array<{ domain: string; rows: ParameterCounts[] }>;
  /** Where each seed's full report is, relative to the output folder. */
  seedFolders: string[];
  /** The code of each seed's run (seeds may have been run separately). */
  seedCode: Array<BenchResults['code']>;
}

/** The claims checked, FlowScout's TC against each (the paper's RQ1 and RQ3). */
export const CLAIMS: ReadonlyArray<{ id: string; claim: string }> = [
  { id: 'nominer', claim: 'RQ3: mining gives a better start (FlowScout > NoMiner)' },
  { id: 'beam', claim: 'RQ3: MCTS beats beam search at the same budget (FlowScout > Beam)' },
  { id: 'react', claim: 'RQ1: the workflow calls tools more correctly than a free agent (FlowScout > ReAct)' },
  { id: 'nomcts', claim: 'RQ3: the search improves on G0 (FlowScout > NoMCTS)' },
  { id: 'pm4py', claim: 'RQ1: FlowScout > PM4Py-style' },
];

export function seedStats(runs: readonly BenchResults[]): SeedStat[] {
  const domains = [...new Set(runs.flatMap((r) => r.domains.map((d) => d.domain)))];
  const ids = [...new Set(runs.flatMap((r) => r.domains.flatMap((d) => d.approaches.map((a) => a.id))))];
  const stats: SeedStat[] = [];
  const stat = (domain: string, id: string, label: string, tc: Array<number | null>, es: number[]): SeedStat => {
    const defined = tc.every((x) => x !== null);
    return {
      domain,
      id,
      label,
      tc,
      es,
      tcMean: defined ? mean(tc as number[]) : null,
      tcSd: defined ? sampleSd(tc as number[]) : null,
      esMean: mean(es),
      esSd: sampleSd(es),
    };
  };
  for (const id of ids) {
    let label = id;
    const perDomain: SeedStat[] = [];
    for (const domain of domains) {
      const found = runs.map((r) => r.domains.find((d) => d.domain === domain)?.approaches.find((a) => a.id === id));
      if (found.some((a) => a === undefined)) continue;
      label = found[0]!.label;
      perDomain.push({
        ...stat(
          domain,
          id,
          label,
          found.map((a) => a!.tc),
          found.map((a) => a!.es),
        ),
        ...callsOf(found.map((a) => a!.calls)),
        ...pooled(found.map((a) => a!.argumentSources)),
      });
    }
    stats.push(...perDomain);
    if (perDomain.length === domains.length && domains.length > 1) {
      // The average over domains, per seed, then its mean and spread over seeds.
      const tc = runs.map((_, s) =>
        perDomain.some((p) => p.tc[s] === null) ? null : mean(perDomain.map((p) => p.tc[s]!)),
      );
      stats.push({
        ...stat(
          'average',
          id,
          label,
          tc,
          runs.map((_, s) => mean(perDomain.map((p) => p.es[s]!))),
        ),
        ...callsOf(perDomain.flatMap((p) => (p.calls ? [p.calls] : []))),
        ...pooled(perDomain.map((p) => p.argumentSources)),
      });
    }
  }
  return stats;
}

/** Per domain, the bindings of FlowScout's best workflow summed over the seeds that counted them. */
export function bestBindings(runs: readonly BenchResults[]): NonNullable<SeedsResults['bestBindings']> {
  const out = new Map<string, { domain: string; total: number; upstream: number; seeds: number }>();
  for (const r of runs)
    for (const d of r.domains) {
      const b = d.bestWorkflow?.bindings;
      if (!b) continue;
      const row = out.get(d.domain) ?? { domain: d.domain, total: 0, upstream: 0, seeds: 0 };
      row.total += b.total;
      row.upstream += b.upstream;
      row.seeds += 1;
      out.set(d.domain, row);
    }
  return [...out.values()];
}

/** Per domain, each seed's test coverage by D_opt's tools, in seed order (seeds that did not count it left out). */
export function testCoverage(runs: readonly BenchResults[]): NonNullable<SeedsResults['testCoverage']> {
  const out = new Map<string, ToolCoverage[]>();
  for (const r of runs)
    for (const d of r.domains) {
      if (!d.split.coverage) continue;
      out.set(d.domain, [...(out.get(d.domain) ?? []), d.split.coverage]);
    }
  return [...out].map(([domain, seeds]) => ({ domain, seeds }));
}

/** How many of a domain's parameters that lost the most arguments a summary keeps. */
export const LOST_KEPT = 5;

/**
 * Per domain, FlowScout's per-parameter argument counts summed over the seeds whose results hold them,
 * the `LOST_KEPT` that lost the most first.
 */
export function lostParameters(runs: readonly BenchResults[]): NonNullable<SeedsResults['lostParameters']> {
  const out = new Map<string, Map<string, ParameterCounts>>();
  for (const r of runs)
    for (const d of r.domains) {
      const rows = d.approaches.find((a) => a.id === 'flowscout')?.parameterSources;
      if (!rows) continue;
      out.set(d.domain, addParameterRows(out.get(d.domain) ?? new Map(), rows));
    }
  return [...out].map(([domain, rows]) => ({ domain, rows: mostLost(rows.values()).slice(0, LOST_KEPT) }));
}

/** The argument-source counts summed over seeds (or domains); nothing when one lacks them. */
function pooled(list: ReadonlyArray<ArgumentSources | undefined>): Pick<SeedStat, 'argumentSources'> {
  if (list.length === 0 || list.some((x) => x === undefined)) return {};
  return { argumentSources: list.reduce<ArgumentSources>((acc, x) => addSources(acc, x!), emptySources()) };
}

/** The mean of the calls per query over seeds (or domains); nothing when one lacks the figures. */
function callsOf(
  list: ReadonlyArray<{ made: number; failed: number; beyond?: number; gradedTc?: number }>,
): Pick<SeedStat, 'calls'> {
  if (list.length === 0 || list.some((c) => c.beyond === undefined || c.gradedTc === undefined)) return {};
  return {
    calls: {
      made: mean(list.map((c) => c.made)),
      failed: mean(list.map((c) => c.failed)),
      beyond: mean(list.map((c) => c.beyond!)),
      gradedTc: mean(list.map((c) => c.gradedTc!)),
    },
  };
}

export function orderingChecks(stats: readonly SeedStat[]): OrderingCheck[] {
  const out: OrderingCheck[] = [];
  for (const f of stats.filter((s) => s.id === 'flowscout' && s.tcMean !== null)) {
    for (const { id, claim } of CLAIMS) {
      const b = stats.find((s) => s.id === id && s.domain === f.domain);
      if (!b || b.tcMean === null) continue;
      const diff = f.tcMean! - b.tcMean;
      out.push({
        claim,
        other: id,
        domain: f.domain,
        flowscout: f.tcMean!,
        baseline: b.tcMean,
        diff,
        seedsAhead: f.tc.filter((x, k) => x! > b.tc[k]!).length,
        holds: orderingVerdict(diff) === 'holds',
      });
    }
  }
  return out;
}

/** The claims on every seed's test queries pooled and paired by query (see `PairedOrdering`). */
export function pairedOrderings(runs: readonly BenchResults[]): PairedOrdering[] {
  const domains = [...new Set(runs.flatMap((r) => r.domains.map((d) => d.domain)))];
  type Pairs = { flowscout: number[]; other: number[] };
  const pairsOf = (domain: string, other: string): Pairs | undefined => {
    const pairs: Pairs = { flowscout: [], other: [] };
    for (const run of runs) {
      const d = run.domains.find((x) => x.domain === domain);
      const f = d?.approaches.find((a) => a.id === 'flowscout');
      const b = d?.approaches.find((a) => a.id === other);
      if (!f || !b) return undefined;
      const theirs = new Map(b.records.map((r) => [r.id, r.tc]));
      for (const r of f.records) {
        const t = theirs.get(r.id);
        if (r.tc === null || t === undefined || t === null) return undefined;
        pairs.flowscout.push(r.tc);
        pairs.other.push(t);
      }
    }
    return pairs;
  };
  const out: PairedOrdering[] = [];
  for (const { id, claim } of CLAIMS) {
    const perDomain = domains.map((domain) => ({ domain, pairs: pairsOf(domain, id) }));
    const all =
      perDomain.every((p) => p.pairs) && domains.length > 1
        ? {
            flowscout: perDomain.flatMap((p) => p.pairs!.flowscout),
            other: perDomain.flatMap((p) => p.pairs!.other),
          }
        : undefined;
    for (const { domain, pairs } of [...perDomain, ...(all ? [{ domain: 'all', pairs: all }] : [])]) {
      if (!pairs || pairs.flowscout.length === 0) continue;
      // The same paired comparison as each seed's significance table, over the pooled queries.
      const c = comparePaired(id, pairs.flowscout, pairs.other, `seeds:${domain}`);
      const ci = c.ci;
      out.push({
        claim,
        other: id,
        domain,
        n: c.n,
        differing: pairs.flowscout.filter((x, i) => x !== pairs.other[i]).length,
        meanDiff: c.meanDiff,
        ...(ci ? { ci } : {}),
        verdict: !ci ? 'not shown' : ci.low > 0 ? 'ahead' : ci.high < 0 ? 'behind' : 'not shown',
      });
    }
  }
  return out;
}

export function summarizeSeeds(
  runs: readonly BenchResults[],
  o: { command: string; startedAt: string; durationMs: number; seedFolders: string[] },
): SeedsResults {
  const stats = seedStats(runs);
  return {
    version: 1,
    kind: 'seeds',
    command: o.command,
    code: runs[0]!.code,
    startedAt: o.startedAt,
    durationMs: o.durationMs,
    seeds: runs.map((r) => r.settings.seed),
    labels: runs[0]!.labels,
    stats,
    orderings: orderingChecks(stats),
    paired: pairedOrderings(runs),
    bestBindings: bestBindings(runs),
    testCoverage: testCoverage(runs),
    lostParameters: lostParameters(runs),
    seedFolders: o.seedFolders,
    seedCode: runs.map((r) => r.code),
  };
}
