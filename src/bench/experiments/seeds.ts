import { mean, sampleSd } from '../stats/describe.js';
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
  holds: boolean;
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
      perDomain.push(
        stat(
          domain,
          id,
          label,
          found.map((a) => a!.tc),
          found.map((a) => a!.es),
        ),
      );
    }
    stats.push(...perDomain);
    if (perDomain.length === domains.length && domains.length > 1) {
      // The average over domains, per seed, then its mean and spread over seeds.
      const tc = runs.map((_, s) =>
        perDomain.some((p) => p.tc[s] === null) ? null : mean(perDomain.map((p) => p.tc[s]!)),
      );
      stats.push(
        stat(
          'average',
          id,
          label,
          tc,
          runs.map((_, s) => mean(perDomain.map((p) => p.es[s]!))),
        ),
      );
    }
  }
  return stats;
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
        holds: diff > 0,
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
    seedFolders: o.seedFolders,
    seedCode: runs.map((r) => r.code),
  };
}
