import { VALUE_SOURCES, type ArgumentSources } from '../../dataflow/argument-sources.js';
import { toolLabel } from '../../graph/tool-label.js';
import { clip } from '../../util/clip.js';
import type { ApproachResult, BenchResults, DomainResult, SearchSummary } from '../experiments/results.js';
import { mean } from '../stats/describe.js';
import { duration, fixed, pValue, signed, table } from './markdown.js';

/**
 * The report's tables, one function each: Table II (TC and ES per domain and averaged),
 * the paired significance tests, stability, the per-query cost of RQ2, what the traces show,
 * Table III (ablations), Table V (backbones) and the Table IV data check.
 */

/** The approaches of Table II, in order (ablations other than NoMCTS are in Table III). */
export const TABLE2_IDS = ['flowscout', 'nomcts', 'pm4py', 'react', 'llm-only'] as const;

function approach(d: DomainResult, id: string): ApproachResult | undefined {
  return d.approaches.find((a) => a.id === id);
}

function labelOf(r: BenchResults, id: string): string {
  for (const d of r.domains) {
    const a = approach(d, id);
    if (a) return a.label;
  }
  return id;
}

export function table2(r: BenchResults): string {
  const headers = ['approach', ...r.domains.flatMap((d) => [`${d.domain} TC`, `${d.domain} ES`]), 'Avg TC', 'Avg ES'];
  const rows = TABLE2_IDS.filter((id) => r.domains.some((d) => approach(d, id))).map((id) => {
    const cells = r.domains.flatMap((d) => {
      const a = approach(d, id);
      return [a ? fixed(a.tc) : '—', a ? fixed(a.es) : '—'];
    });
    const found = r.domains.map((d) => approach(d, id)).filter((a): a is ApproachResult => a !== undefined);
    const tcs = found.map((a) => a.tc);
    const avgTc = tcs.some((t) => t === null) ? null : mean(tcs as number[]);
    return [labelOf(r, id), ...cells, fixed(avgTc), fixed(mean(found.map((a) => a.es)))];
  });
  return table(
    headers,
    rows,
    headers.map((_, i) => (i === 0 ? 'l' : 'r')),
  );
}

export function significanceTable(r: BenchResults): string {
  const rows = r.significance.flatMap((f) =>
    f.comparisons.map((c) => [
      f.scope,
      f.metric.toUpperCase(),
      c.baseline,
      String(c.n),
      signed(c.meanDiff),
      c.ci ? `[${signed(c.ci.low)}, ${signed(c.ci.high)}]` : 'n/a',
      c.cohensD === null ? 'n/a (constant difference)' : fixed(c.cohensD, 2),
      `${c.wilcoxon.n} of ${c.n}`,
      c.wilcoxon.method,
      pValue(c.wilcoxon.p),
      pValue(c.pHolm),
    ]),
  );
  return table(
    [
      'scope',
      'metric',
      'FlowScout vs',
      'queries',
      'mean diff',
      '95% CI (bootstrap)',
      "Cohen's d",
      'non-zero pairs',
      'test',
      'p',
      'p (Holm)',
    ],
    rows,
    ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'r'],
  );
}

export function stabilityTable(r: BenchResults): string {
  const ids = [...new Set(r.domains.flatMap((d) => d.approaches.map((a) => a.id)))];
  const rows = ids.map((id) => [
    labelOf(r, id),
    ...r.domains.map((d) => {
      const a = approach(d, id);
      return a ? fixed(a.cv, 4) : '—';
    }),
  ]);
  return table(['approach (mean CV of ES)', ...r.domains.map((d) => d.domain)], rows, [
    'l',
    ...r.domains.map(() => 'r' as const),
  ]);
}

export function costTable(r: BenchResults): string {
  const ids = ['flowscout', 'react', 'llm-only', 'pm4py', 'nomcts'];
  const rows = r.domains.flatMap((d) =>
    ids.flatMap((id) => {
      const a = approach(d, id);
      return a
        ? [
            [
              d.domain,
              a.label,
              duration(a.cost.runtimeMs),
              fixed(a.cost.llmCalls, 2),
              fixed(a.cost.llmSteps, 2),
              fixed(a.cost.toolCalls, 2),
            ],
          ]
        : [];
    }),
  );
  return table(
    ['domain', 'approach', 'runtime / query', 'LLM calls / query', 'decisions / query', 'tool calls / query'],
    rows,
    ['l', 'l', 'r', 'r', 'r', 'r'],
  );
}

export function tracesTable(r: BenchResults): string {
  const rows = r.domains.flatMap((d) =>
    d.approaches.map((a) => [
      d.domain,
      a.label,
      fixed(a.calls.reference, 2),
      fixed(a.calls.made, 2),
      fixed(a.calls.matched, 2),
      fixed(a.calls.failed, 2),
      a.calls.beyond === undefined ? '—' : fixed(a.calls.beyond, 2),
      a.calls.gradedTc === undefined || a.tc === null ? '—' : fixed(a.calls.gradedTc, 3),
      a.toolStats ? `${a.toolStats.replayHits} / ${a.toolStats.replayMisses}` : '—',
    ]),
  );
  return table(
    [
      'domain',
      'approach',
      'reference calls K',
      'calls made K̂',
      'matched (LCS)',
      'failed calls',
      'beyond the reference',
      'graded TC',
      'replay hits / misses',
    ],
    rows,
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
}

/** The best candidate and every edit that made it from G0 (each clipped), or its own edit in older results. */
function bestCandidate(s: SearchSummary): string {
  if (!s.bestPath) return `${s.best} (${s.bestSummary.slice(0, 80)})`;
  if (s.bestPath.length === 0) return `${s.best} (${s.bestSummary || 'G0'}, unchanged)`;
  return `${s.best}: G0 → ${s.bestPath.map((c) => `${c.id} (${clip(c.summary, 60)})`).join(' → ')}`;
}

export function searchTable(r: BenchResults): string {
  const rows = r.domains.flatMap((d) =>
    d.searches.map((s) => [
      d.domain,
      s.variant,
      fixed(s.g0Val),
      fixed(s.bestVal),
      bestCandidate(s),
      String(s.candidates),
      s.stopReason,
      duration(s.searchMs),
    ]),
  );
  return table(['domain', 'search', 'start val', 'best val', 'best candidate', 'candidates', 'stopped', 'time'], rows, [
    'l',
    'l',
    'r',
    'r',
    'l',
    'r',
    'l',
    'r',
  ]);
}

export function table3(r: BenchResults): string {
  if (!r.ablation) return '_No ablation domain was run._';
  const rows = r.ablation.rows.map((x) => [
    x.label,
    fixed(x.tc),
    fixed(x.es),
    x.id === 'nomcts' ? '0 (no search)' : duration(x.searchMs),
    String(x.candidates),
  ]);
  return table(['variant', 'TC', 'ES', 'search time', 'candidates'], rows, ['l', 'r', 'r', 'r', 'r']);
}

export function table5(r: BenchResults): string {
  const rows = r.backbone.rows.map((b) => [b.domain, b.model, b.policy, fixed(b.tc), fixed(b.es)]);
  return table(['domain', 'backbone', 'policy', 'TC', 'ES'], rows, ['l', 'l', 'l', 'r', 'r']);
}

export function swapTable(r: BenchResults, top = 12): string {
  const ordered = [...r.toolSwap.pairs].sort(
    (a, b) => b.testCalls - a.testCalls || b.replayable - a.replayable || b.similarity - a.similarity,
  );
  const rows = ordered
    .slice(0, top)
    .map((p) => [
      p.domain,
      toolLabel(p.original),
      toolLabel(p.substitute),
      fixed(p.similarity, 2),
      String(p.testCalls),
      String(p.replayable),
    ]);
  const more =
    ordered.length > top
      ? `\n\n(the ${top} pairs with the most test calls of ${ordered.length}; all of them are in results.json)`
      : '';
  return `${table(['domain', 'tool', 'most similar tool', 'similarity', 'test calls', 'replayable after swap'], rows, ['l', 'l', 'l', 'r', 'r', 'r'])}${more}`;
}

/**
 * Where FlowScout's TC differs from ReAct's, from the traces: the workflow has a fixed number of
 * steps, ReAct takes one turn per part of the request. Queries whose reference makes more calls
 * than the workflow has steps are split from the rest, with both approaches' TC on each part.
 */
export function positionsTable(r: BenchResults): string {
  const rows = r.domains.flatMap((d) => {
    const f = approach(d, 'flowscout');
    const re = approach(d, 'react');
    const wf = d.bestWorkflow;
    if (!f || !re || !wf) return [];
    const positions = wf.toolPositions;
    const many = wf.manyPositions;
    const longer = f.records.map((x) => x.k > positions);
    const part = (a: ApproachResult, want: boolean) => {
      const xs = a.records.filter((_, i) => longer[i] === want).map((x) => x.tc ?? 0);
      return xs.length ? fixed(mean(xs)) : '—';
    };
    const n = longer.filter(Boolean).length;
    return [
      [
        d.domain,
        `${positions}${many ? ` (${many} × calls: many)` : ''}`,
        fixed(mean(f.records.map((x) => x.k)), 2),
        fixed(mean(f.records.map((x) => x.made)), 2),
        fixed(mean(re.records.map((x) => x.made)), 2),
        `${n} of ${f.records.length}`,
        `${part(f, true)} / ${part(re, true)}`,
        `${part(f, false)} / ${part(re, false)}`,
      ],
    ];
  });
  return table(
    [
      'domain',
      "tool positions in FlowScout's workflow",
      'reference calls / query',
      'FlowScout calls / query',
      'ReAct calls / query',
      'queries with more reference calls than positions',
      'TC there: FlowScout / ReAct',
      'TC on the rest: FlowScout / ReAct',
    ],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
}

/** What the table of reference arguments by source says (both reports print it). */
export const SOURCES_NOTE =
  "Each reference argument is classed by where its value stands: written in the request, found in an earlier reference call's result (an id a search returned), or neither (a constant, a default). Called: the approach called that reference call's tool at its place; right: it also passed that value.";

/** The header, row cells and alignment of a table of reference arguments by source (see `sourcesTable`). */
export const SOURCE_HEADERS = [
  'approach',
  'domain',
  'from the request',
  'called',
  'right',
  'from an earlier result',
  'called',
  'right',
  'neither',
  'called',
  'right',
];

/** One row: the arguments of each source, the share called and the share passed right. */
export function sourceRow(label: string, domain: string, a: ArgumentSources): string[] {
  const pct = (n: number, of: number) => (of > 0 ? `${Math.round((100 * n) / of)} %` : '—');
  return [
    label,
    domain,
    ...VALUE_SOURCES.flatMap((k) => [String(a[k].args), pct(a[k].called, a[k].args), pct(a[k].right, a[k].args)]),
  ];
}

/** Where calls go wrong, one seed: per approach with TC and domain, the reference arguments by source. */
export function sourcesTable1(r: BenchResults): string {
  const rows = TABLE2_IDS.flatMap((id) =>
    r.domains.flatMap((d) => {
      const a = approach(d, id);
      return a && a.tc !== null && a.argumentSources ? [sourceRow(a.label, d.domain, a.argumentSources)] : [];
    }),
  );
  return table(
    SOURCE_HEADERS,
    rows,
    SOURCE_HEADERS.map((_, i) => (i < 2 ? 'l' : 'r')),
  );
}
