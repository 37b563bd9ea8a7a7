import { describeCodeVersion } from '../experiments/code-version.js';
import type { BenchResults, DomainResult } from '../experiments/results.js';
import { FIG3, FIG5, whoLine } from './figures.js';
import { duration, fixed } from './markdown.js';
import { bindingsLine, coverageLine, lostLine } from './render-seeds.js';
import { bestBindings, lostParameters, testCoverage } from '../experiments/seeds.js';
import {
  SOURCES_NOTE,
  sourcesTable1,
  costTable,
  positionsTable,
  searchTable,
  significanceTable,
  stabilityTable,
  swapTable,
  table2,
  table3,
  table5,
  tracesTable,
} from './tables.js';

/**
 * `report.md` of a benchmark run: the command and seed on top, who produced the numbers
 * with every table, then RQ1–RQ4 in the paper's order, each table drawn from `results.json`.
 * The "findings" are comparisons computed from the numbers, not opinions.
 */

export function renderReport(r: BenchResults): string {
  const s = r.settings;
  const who = `_${whoLine(r)} · optimizer: ${r.labels.optimizer}_`;
  const out: string[] = [
    `# FlowScout benchmark${r.labels.offline ? ' (offline)' : ''}`,
    '',
    'Regenerate these numbers with:',
    '',
    '```sh',
    r.command,
    '```',
    '',
    `- code: ${describeCodeVersion(r.code)}`,
    `- seed **${s.seed}**; split 5:2:3 ${splitUnit(r)} (seeded); iterations J = ${s.iterations}, patience P = ${s.patience}; ${s.runs} runs per approach on up to ${s.maxTest} test queries per domain; concurrency ${s.concurrency}${s.maxRecords !== undefined ? `; **${s.maxRecords} records sampled per domain**` : ''}`,
    `- execution policy: **${r.labels.policy}** (model: ${r.labels.model}); judge: **${r.labels.judge}**; optimizer: **${r.labels.optimizer}**`,
    `- started ${r.startedAt}, took ${duration(r.durationMs)}`,
    ...r.notes.map((n) => `- **Note:** ${n}`),
    '',
    '## Data',
    '',
    ...r.domains.map((d) =>
      d.source && !d.source.includes('TRAJECT-Bench records (every call succeeded)')
        ? `- **${d.domain}**: ${d.source} → ${d.records} used: D_opt ${d.split.opt}, D_val ${d.split.val}, D_test ${d.split.test} (${d.split.measured} measured)${d.split.note ? `, split ${d.split.note}` : ''}; ${d.tools} tools.${esNote(d)}`
        : `- **${d.domain}**: ${d.records} TRAJECT-Bench records (every call succeeded) → D_opt ${d.split.opt}, D_val ${d.split.val}, D_test ${d.split.test} (${d.split.measured} measured)${d.split.by === 'group' && d.split.note ? `, split ${d.split.note}` : ''}; ${d.tools} tools, answered by replay of the recorded real responses.`,
    ),
    ...r.unavailableDomains.map((u) => `- **${u.domain}**: not run. ${u.reason}`),
    '',
    '## RQ1 — effectiveness (Table II)',
    '',
    who,
    '',
    table2(r),
    '',
    'TC of the LLM-only baseline is n/a: its workflows have no tool nodes, so TC is not defined (as in the paper). NoMCTS is G0, the root of the FlowScout search.',
    '',
    ...findings(r),
    '',
    '### Where calls go wrong: reference arguments by source (test queries)',
    '',
    who,
    '',
    SOURCES_NOTE,
    '',
    sourcesTable1(r),
    '',
    // One seed's lines are the seeds summary's lines over that seed alone.
    ...bindingsLine(bestBindings([r])),
    ...coverageLine(testCoverage([r])),
    ...lostLine(lostParameters([r]), 1),
    '### Significance (FlowScout vs each baseline, paired by test query)',
    '',
    who,
    '',
    "Two-sided Wilcoxon signed-rank test on the per-query scores (exact null distribution when ≤ 25 non-zero differences without ties, else the normal approximation with tie and continuity corrections; zero differences dropped), Holm correction across the baselines of each row group (scope × metric), 95% percentile-bootstrap interval of the mean difference (2000 resamples, seeded), Cohen's d = mean difference / SD of the differences. Positive differences favour FlowScout.",
    '',
    significanceTable(r),
    '',
    `### Stability (Fig. 3)`,
    '',
    who,
    '',
    stabilityTable(r),
    '',
    `![Fig. 3](${FIG3})`,
    '',
    '## RQ2 — the search and its cost',
    '',
    who,
    '',
    searchTable(r),
    '',
    `![Fig. 5](${FIG5})`,
    '',
    'Cost per test query (means over every run of every query; "decisions" are what a model would decide — LLM-node runs, tool-node plans, ReAct steps — made by rules under the offline policy):',
    '',
    costTable(r),
    '',
    'What the traces show (per test query, means over runs):',
    '',
    tracesTable(r),
    '',
    "Fixed positions against per-clause steps (FlowScout's best workflow runs at most one call per tool position unless a position has `calls: many`; ReAct takes one step per request clause and retries a failed clause with the next tool):",
    '',
    positionsTable(r),
    '',
    `## RQ3 — ablations on ${r.ablation?.domain ?? '—'} (Table III)`,
    '',
    who,
    '',
    table3(r),
    '',
    'NoMCTS = G0 without search; NoMiner = the same search from plan → one tool node → synthesize; Beam = beam search (top 3 per step) with the same candidate budget J.',
    '',
    '## RQ4 — robustness',
    '',
    '### LLM backbones (Table V)',
    '',
    r.settings.models.length > 0
      ? `_policy: each row's backbone (the policy column) · judge: ${r.labels.judge} · seed ${r.settings.seed} · the workflow: FlowScout's best, searched with ${r.labels.policy}_`
      : who,
    '',
    table5(r),
    '',
    r.backbone.note,
    '',
    '### Tool-set swap (Table IV)',
    '',
    r.toolSwap.note,
    '',
    r.toolSwap.pairs.length ? swapTable(r) : '',
    '',
  ];
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** Win/loss statements from the numbers: FlowScout's TC and ES against each baseline per domain. */
export function findings(r: BenchResults): string[] {
  const lines: string[] = [];
  for (const id of ['nomcts', 'pm4py', 'react', 'llm-only']) {
    const per = r.domains.flatMap((d) => {
      const f = d.approaches.find((a) => a.id === 'flowscout');
      const b = d.approaches.find((a) => a.id === id);
      return f && b ? [{ d: d.domain, f, b }] : [];
    });
    if (per.length === 0) continue;
    const name = per[0]!.b.label.replace(/ \(offline\)$/, '');
    const metric = per[0]!.b.tc === null ? 'es' : 'tc';
    const wins = per.filter((x) => (x.f[metric] ?? 0) > (x.b[metric] ?? 0)).map((x) => x.d);
    const losses = per
      .filter((x) => (x.f[metric] ?? 0) <= (x.b[metric] ?? 0))
      .map((x) => `${x.d} (${fixed(x.f[metric])} vs ${fixed(x.b[metric])})`);
    lines.push(
      `- FlowScout's ${metric.toUpperCase()} is higher than ${name}'s on ${wins.length} of ${per.length} domains${wins.length ? ` (${wins.join(', ')})` : ''}${losses.length ? `; not higher on ${losses.join(', ')}` : ''}.`,
    );
  }
  return lines;
}

/**
 * How the domains' records were split, as each domain's line in "Data" says it: by group, by record,
 * or per domain when they differ. Results written before domains recorded it go by `--split-by`.
 */
export function splitUnit(r: Pick<BenchResults, 'settings' | 'domains'>): string {
  const units = new Set(r.domains.flatMap((d) => (d.split.by ? [d.split.by] : [])));
  if (units.size === 1) return `by ${[...units][0]!}`;
  if (units.size > 1) return 'by group or by record (per domain: see Data)';
  if (r.settings.splitBy === 'auto') return 'by group when the records have groups, else by record';
  return `by ${r.settings.splitBy ?? 'record'}`;
}

/** ` ES on 9 of 12 measured queries …` when some test records have no reference answer; '' otherwise. */
function esNote(d: DomainResult): string {
  const n = d.approaches.find((a) => a.esRecords !== undefined)?.esRecords;
  return n === undefined
    ? ''
    : ` ES is scored on ${n} of ${d.split.measured} measured queries (the others have no reference answer, e.g. runs that ended in a hand-off: TC only).`;
}
