import type { ToolCoverage } from '../../records/split.js';
import { formatMostLost } from '../../dataflow/argument-sources.js';
import { SOURCE_HEADERS, SOURCES_NOTE, sourceRow } from './tables.js';
import { describeCodeVersion } from '../experiments/code-version.js';
import { orderingVerdict, type SeedStat, type SeedsResults } from '../experiments/seeds.js';
import { duration, fixed, signed, table } from './markdown.js';

/**
 * `report.md` of a multi-seed benchmark (`flowscout bench --seeds 0,1,2`): the command on top, then
 * each approach's test TC and ES as mean ± sample SD over the seeds (per domain and averaged over
 * domains), the per-seed figures, and the paper's orderings checked on the means. Each seed's full
 * report (significance, stability, search, cost, ablations) is in its own folder.
 */

const ORDER = ['flowscout', 'nomcts', 'noroutes', 'nominer', 'beam', 'pm4py', 'react', 'llm-only'];

function cell(mean: number | null, sd: number | null): string {
  return mean === null ? 'n/a' : `${fixed(mean)} ± ${fixed(sd)}`;
}

function ids(stats: readonly SeedStat[]): string[] {
  const present = [...new Set(stats.map((s) => s.id))];
  return [...ORDER.filter((id) => present.includes(id)), ...present.filter((id) => !ORDER.includes(id))];
}

export function seedsTable(r: SeedsResults, metric: 'tc' | 'es'): string {
  const domains = [...new Set(r.stats.map((s) => s.domain))];
  const rows = ids(r.stats).map((id) => {
    const label = r.stats.find((s) => s.id === id)!.label;
    return [
      label,
      ...domains.map((d) => {
        const s = r.stats.find((x) => x.id === id && x.domain === d);
        if (!s) return '—';
        return metric === 'tc' ? cell(s.tcMean, s.tcSd) : cell(s.esMean, s.esSd);
      }),
    ];
  });
  return table(['approach', ...domains], rows, ['l', ...domains.map(() => 'r' as const)]);
}

export function perSeedTable(r: SeedsResults): string {
  const domains = [...new Set(r.stats.map((s) => s.domain))].filter((d) => d !== 'average');
  const rows = ids(r.stats).flatMap((id) => {
    const label = r.stats.find((s) => s.id === id)!.label;
    return r.seeds.map((seed, k) => [
      label,
      String(seed),
      ...domains.map((d) => {
        const s = r.stats.find((x) => x.id === id && x.domain === d);
        return s ? `${fixed(s.tc[k] ?? null)} / ${fixed(s.es[k])}` : '—';
      }),
    ]);
  });
  return table(['approach', 'seed', ...domains.map((d) => `${d} TC / ES`)], rows, [
    'l',
    'r',
    ...domains.map(() => 'r' as const),
  ]);
}

/** Calls per test query (mean over seeds): made, failed, beyond the reference; the graded TC beside the exact one. */
export function callsTable(r: SeedsResults): string {
  const domains = [...new Set(r.stats.map((s) => s.domain))];
  const rows = ids(r.stats).flatMap((id) =>
    domains.flatMap((d) => {
      const s = r.stats.find((x) => x.id === id && x.domain === d);
      if (!s?.calls) return [];
      return [
        [
          s.label,
          d,
          fixed(s.calls.made, 2),
          fixed(s.calls.failed, 2),
          fixed(s.calls.beyond, 2),
          s.tcMean === null ? 'n/a' : fixed(s.tcMean),
          s.tcMean === null ? 'n/a' : fixed(s.calls.gradedTc),
        ],
      ];
    }),
  );
  return table(['approach', 'domain', 'calls made', 'failed calls', 'beyond the reference', 'TC', 'graded TC'], rows, [
    'l',
    'l',
    'r',
    'r',
    'r',
    'r',
    'r',
  ]);
}

/**
 * What data flow FlowScout's best workflows carry: their bindings per domain over the seeds, and how
 * many of them read an earlier call's output (nothing for summaries that did not count them).
 */
export function bindingsLine(rows: SeedsResults['bestBindings']): string[] {
  if (!rows || rows.length === 0) return [];
  const total = rows.reduce((n, x) => n + x.total, 0);
  const upstream = rows.reduce((n, x) => n + x.upstream, 0);
  const each = rows.map((x) => `${x.domain} ${x.total} (${x.upstream})`).join(', ');
  return [
    `FlowScout's best workflows (one per domain and seed) hold ${total} binding${total === 1 ? '' : 's'} (${upstream} reading an earlier call's output): ${each}.`,
    '',
  ];
}

/**
 * Which parameters FlowScout lost the most reference arguments of, per domain (the first three with
 * any lost; none for results written before they were counted): what a user looks at to fix.
 */
export function lostLine(rows: SeedsResults['lostParameters'], seeds: number): string[] {
  const each = (rows ?? []).flatMap((x) => {
    const line = formatMostLost(x.rows);
    return line ? [`${x.domain}: ${line}`] : [];
  });
  if (each.length === 0) return [];
  return [
    `Parameters whose reference arguments FlowScout lost the most (passed wrong or their call not made; ${seeds > 1 ? 'summed over seeds' : 'this seed'}): ${each.join('. ')}.`,
    '',
  ];
}

/**
 * How much of the test queries' calls D_opt's tools cover, one line (none when nothing was counted):
 * a domain whose test calls are of tools D_opt never calls keeps less of what the search learned.
 */
export function coverageLine(rows: SeedsResults['testCoverage']): string[] {
  if (!rows || rows.length === 0) return [];
  const pct = (c: ToolCoverage) => (c.calls === 0 ? 'n/a' : `${Math.round((100 * c.seen) / c.calls)} %`);
  const each = rows.map((x) => `${x.domain} ${x.seeds.map(pct).join(' / ')}`).join(', ');
  return [
    `Reference calls of the test queries whose tool some D_opt record calls (what is learned per tool can serve only these; ${rows[0]!.seeds.length > 1 ? 'per seed' : 'this seed'}): ${each}.`,
    '',
  ];
}

/**
 * Where calls go wrong: per approach and domain, the reference arguments of the test queries by where
 * their value stands, with the share whose call's tool the approach called and the share it passed
 * right, pooled over seeds.
 */
export function sourcesTable(r: SeedsResults): string {
  const domains = [...new Set(r.stats.map((s) => s.domain))];
  const rows = ids(r.stats).flatMap((id) =>
    domains.flatMap((d) => {
      const s = r.stats.find((x) => x.id === id && x.domain === d);
      return s?.argumentSources && s.tcMean !== null ? [sourceRow(s.label, d, s.argumentSources)] : [];
    }),
  );
  return table(
    SOURCE_HEADERS,
    rows,
    SOURCE_HEADERS.map((_, i) => (i < 2 ? 'l' : 'r')),
  );
}

/** The verdict as the table prints it, from the difference itself (summaries written before carry the old flag). */
const ORDERING_TEXT = {
  holds: 'holds',
  'no difference': '**no difference** (under 0.0005)',
  'does not hold': '**does not hold**',
} as const;

export function orderingsTable(r: SeedsResults): string {
  const rows = r.orderings.map((o) => [
    o.claim,
    o.domain,
    fixed(o.flowscout),
    fixed(o.baseline),
    signed(o.diff),
    `${o.seedsAhead} of ${r.seeds.length}`,
    ORDERING_TEXT[orderingVerdict(o.diff)],
  ]);
  return table(
    [
      'claim (test TC, mean over seeds)',
      'domain',
      'FlowScout',
      'other',
      'difference',
      'seeds FlowScout ahead',
      'offline',
    ],
    rows,
    ['l', 'l', 'r', 'r', 'r', 'r', 'l'],
  );
}

const VERDICT = {
  ahead: 'FlowScout ahead',
  behind: '**FlowScout behind**',
  'not shown': '**no difference shown**',
} as const;

/** The claims on the pooled, paired test queries (empty for summaries written before they were computed). */
export function pairedTable(r: SeedsResults): string {
  if (!r.paired?.length) return '';
  const rows = r.paired.map((p) => [
    p.claim,
    p.domain,
    String(p.n),
    String(p.differing),
    signed(p.meanDiff),
    p.ci ? `${signed(p.ci.low)} to ${signed(p.ci.high)}` : 'n/a',
    VERDICT[p.verdict],
  ]);
  return table(
    [
      'claim (test TC, every seed pooled)',
      'domain',
      'pairs',
      'pairs that differ',
      'mean difference',
      '95 % interval',
      'offline',
    ],
    rows,
    ['l', 'l', 'r', 'r', 'r', 'r', 'l'],
  );
}

/** The code line: one commit for every seed, or each seed's own. */
function codeLines(r: SeedsResults): string[] {
  const each = (r.seedCode ?? []).map(describeCodeVersion);
  if (each.length === 0 || each.every((c) => c === each[0])) return [`- code: ${describeCodeVersion(r.code)}`];
  return [`- code, per seed: ${r.seeds.map((s, k) => `seed ${s}: ${each[k]}`).join('; ')}`];
}

export function renderSeedsReport(r: SeedsResults): string {
  const who = `_${r.labels.offline ? 'OFFLINE · ' : ''}policy: ${r.labels.policy} · judge: ${r.labels.judge} · optimizer: ${r.labels.optimizer} · seeds ${r.seeds.join(', ')}_`;
  const out = [
    `# FlowScout benchmark over seeds ${r.seeds.join(', ')}${r.labels.offline ? ' (offline)' : ''}`,
    '',
    'Regenerate these numbers with:',
    '',
    '```sh',
    r.command,
    '```',
    '',
    ...codeLines(r),
    `- one full benchmark per seed (its own split, searches and bootstrap); each seed's report: ${r.seedFolders.map((f) => `[${f}](${f}/report.md)`).join(', ')}`,
    `- started ${r.startedAt}; the seeds' runs took ${duration(r.durationMs)} together`,
    ...(r.labels.offline
      ? [
          "- **Note:** Every number in this report is an OFFLINE figure: no LLM ran anywhere (offline policy, lexical judge, rule-based optimizer). Offline figures are not LLM figures and are not comparable with the paper's.",
        ]
      : []),
    '',
    '## Test TC, mean ± SD over seeds',
    '',
    who,
    '',
    seedsTable(r, 'tc'),
    '',
    '## Test ES, mean ± SD over seeds',
    '',
    who,
    '',
    seedsTable(r, 'es'),
    '',
    '## Calls per test query, and the graded TC, mean over seeds',
    '',
    who,
    '',
    'Graded TC: a call of the right tool earns the share of its arguments it got right (exact TC counts only equal calls); beyond the reference: calls with no call of their tool in the reference to pair with.',
    '',
    callsTable(r),
    '',
    '## Where calls go wrong: reference arguments by source, test queries pooled over seeds',
    '',
    who,
    '',
    SOURCES_NOTE,
    '',
    sourcesTable(r),
    '',
    ...bindingsLine(r.bestBindings),
    ...coverageLine(r.testCoverage),
    ...lostLine(r.lostParameters, r.seeds.length),
    "## The paper's orderings (test TC)",
    '',
    who,
    '',
    orderingsTable(r),
    '',
    ...(r.paired?.length
      ? [
          "## The same orderings on every seed's test queries, paired query by query",
          '',
          who,
          '',
          "Each seed's test queries are pooled; a pair is one query run by FlowScout and by the other approach. The interval is a seeded 95 % percentile bootstrap of the mean difference: a claim is shown only when the interval lies above 0.",
          '',
          pairedTable(r),
          '',
        ]
      : []),
    '## Per seed (test TC / ES)',
    '',
    who,
    '',
    perSeedTable(r),
    '',
  ];
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
