import { compareAgainstBaselines } from '../stats/paired-compare.js';
import { finite, type ApproachResult, type DomainResult, type SignificanceFamily } from './results.js';

/**
 * The significance tables: FlowScout against each baseline on the same test queries, per
 * domain and with the queries of every domain pooled ("all"), for TC and for ES. One family per
 * (scope, metric): Holm's correction runs across the baselines of a family. Baselines whose TC is
 * undefined (LLM-only) are left out of the TC families. Ablations are not baselines: Table III
 * shows them without tests.
 */

/** The baselines FlowScout is tested against, in table order. */
export const BASELINE_IDS = ['nomcts', 'pm4py', 'react', 'llm-only'] as const;

function scores(a: ApproachResult, metric: 'tc' | 'es'): number[] | undefined {
  if (metric === 'tc' && a.tc === null) return undefined;
  // ES is compared only on records with a reference answer (the same records for every approach).
  return metric === 'tc' ? a.records.map((r) => r.tc!) : a.records.filter((r) => !r.noReference).map((r) => r.es);
}

export function significanceFamilies(domains: readonly DomainResult[], seed: number): SignificanceFamily[] {
  const out: SignificanceFamily[] = [];
  const scopes: Array<{ scope: string; parts: readonly DomainResult[] }> = [
    ...domains.map((d) => ({ scope: d.domain, parts: [d] })),
    ...(domains.length > 1 ? [{ scope: 'all', parts: domains }] : []),
  ];
  for (const { scope, parts } of scopes) {
    for (const metric of ['tc', 'es'] as const) {
      const flow: number[] = [];
      const base = new Map<string, { name: string; scores: number[] }>();
      let complete = true;
      for (const d of parts) {
        const f = d.approaches.find((a) => a.id === 'flowscout');
        const fs = f && scores(f, metric);
        if (!fs) {
          complete = false;
          break;
        }
        flow.push(...fs);
        for (const id of BASELINE_IDS) {
          const a = d.approaches.find((x) => x.id === id);
          const s = a && scores(a, metric);
          if (!a || !s) continue;
          const entry = base.get(id) ?? { name: a.label.replace(/ \(.*\)$/, ''), scores: [] };
          entry.scores.push(...s);
          base.set(id, entry);
        }
      }
      if (!complete || flow.length === 0) continue;
      const usable = [...base.values()].filter((b) => b.scores.length === flow.length);
      if (usable.length === 0) continue;
      const comparisons = compareAgainstBaselines(flow, usable, `${seed}:${scope}:${metric}`).map((c) => ({
        ...c,
        cohensD: finite(c.cohensD),
      }));
      out.push({ scope, metric, comparisons });
    }
  }
  return out;
}
