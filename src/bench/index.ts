/**
 * Benchmarks (docs/DESIGN.md, "Baselines and ablations"): the paper's experiments on the
 * bundled TRAJECT-Bench data, the PM4Py-style and ReAct baselines, paired statistics, the report and
 * its SVG figures, and the one-command demo.
 */
export type { Agent, AgentInput, AgentRun } from './baselines/agent.js';
export { createPm4pyBaseline, type Pm4pyBaseline, type Pm4pyBaselineOptions } from './baselines/pm4py-style.js';
export { planFromTree, logStatistics, type PlannedStep, type PlanRules } from './baselines/pm4py-plan.js';
export { createLlmReact, REACT_SYSTEM_PROMPT, type LlmReactOptions } from './baselines/react/react-llm.js';
export { createOfflineReact, type OfflineReactOptions } from './baselines/react/react-offline.js';
export { meteredModel, type MeteredModel, type MeterOptions } from './baselines/react/metered-model.js';
export { runBench, type BenchOptions } from './experiments/run-bench.js';
export { measureApproach, type MeasureContext, type Subject } from './experiments/measure.js';
export { prepareDomain, parseDomains, PAPER_DOMAINS, type DomainEnv } from './experiments/domain-env.js';
export { runVariant, type Variant as SearchVariant, type VariantRun } from './experiments/search-variants.js';
export { toolSwapPairs, toolSwapNote } from './experiments/tool-swap.js';
export type * from './experiments/results.js';
export { renderReport } from './report/render-report.js';
export { writeBenchOutput } from './report/write-output.js';
export { stabilityFigure, validationFigure } from './report/figures.js';
export { wilcoxonSignedRank, type WilcoxonResult } from './stats/wilcoxon.js';
export { holmAdjust } from './stats/holm.js';
export { bootstrapMeanCi, type BootstrapInterval, type BootstrapOptions } from './stats/bootstrap.js';
export { cohensDPaired } from './stats/effect-size.js';
export { compareAgainstBaselines, comparePaired, type PairedComparison } from './stats/paired-compare.js';
export { boxSummary, quantile, type BoxSummary } from './stats/describe.js';
export { lineChart, type LineChartSpec, type LineSeries } from './svg/line-chart.js';
export { boxPlot, type BoxPlotSpec, type BoxGroup } from './svg/box-plot.js';
export { runDemo, type DemoOptions, type DemoResult } from './demo/run-demo.js';
