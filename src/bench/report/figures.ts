import type { BenchResults } from '../experiments/results.js';
import { boxPlot } from '../svg/box-plot.js';
import { lineChart } from '../svg/line-chart.js';

/**
 * The report's figures from the results: Fig. 3 (the CV of ES per test query, a box per approach
 * and domain) and Fig. 5 (the validation score of each FlowScout iteration's candidate, a line per
 * domain). Both carry the policy and judge that produced them.
 */

export const FIG3 = 'fig3-stability.svg';
export const FIG5 = 'fig5-val-per-iteration.svg';

export function whoLine(r: BenchResults): string {
  return `${r.labels.offline ? 'OFFLINE · ' : ''}policy: ${r.labels.policy} · judge: ${r.labels.judge} · seed ${r.settings.seed}`;
}

export function stabilityFigure(r: BenchResults): string {
  const allZero = r.domains.every((d) => d.approaches.every((a) => a.records.every((x) => x.cv === 0)));
  return boxPlot({
    title: `Fig. 3 — stability: CV of ES per test query over ${r.settings.runs} runs`,
    subtitle: `${whoLine(r)}${allZero ? ' · every CV is 0: the runs are deterministic' : ''}`,
    yLabel: 'CV of ES (lower is more stable)',
    groups: r.domains.map((d) => ({
      label: d.domain,
      boxes: d.approaches.map((a) => ({ name: a.label, values: a.records.map((x) => x.cv) })),
    })),
  });
}

export function validationFigure(r: BenchResults): string {
  return lineChart({
    title: "Fig. 5 — validation score of each iteration's candidate (FlowScout)",
    subtitle: `${whoLine(r)} · iteration 0 = G0; gaps = failed or duplicate candidates`,
    xLabel: 'iteration',
    yLabel: 'D_val score (TC + ES) / 2',
    series: r.domains.map((d) => ({
      name: d.domain,
      points: (d.searches.find((s) => s.variant === 'flowscout')?.iterations ?? []).map((p) => ({
        x: p.iteration,
        y: p.valScore ?? undefined,
      })),
    })),
  });
}
