import { metrics as otelMetrics, type Attributes, type Meter } from '@opentelemetry/api';
import type { Trace } from '../runtime/trace.js';

/**
 * What `serve` measures of the runs it answers, for whoever watches it: `GET /metrics` in
 * Prometheus' text format (version 0.0.4), and the same measures through OpenTelemetry when the
 * process has a meter provider (`@opentelemetry/api`'s global one, set by an SDK the user loads,
 * e.g. `node --import ./otel.mjs`); without one the API is a no-op and nothing is sent.
 *
 * | Prometheus | OpenTelemetry | what |
 * | --- | --- | --- |
 * | `flowscout_runs_total{status}` | `flowscout.runs` (counter) | runs answered, `ok` or `error` as the client was told |
 * | `flowscout_calls_total{outcome}` | `flowscout.calls` (counter) | tool calls: `ok`, `failed`, `withheld` |
 * | `flowscout_run_fitness` | `flowscout.run.fitness` (histogram) | each run's fitness against the workflow's process tree |
 * | `flowscout_run_health` | `flowscout.run.health` (histogram) | each run's health (conformance/run-health.ts) |
 * | `flowscout_run_duration_seconds` | `flowscout.run.duration` (histogram, s) | latency of each run |
 * | `flowscout_runs_in_flight`, `flowscout_runs_waiting` | the same (gauges) | load |
 * | `flowscout_recent_fitness`, `flowscout_recent_health` | the same (gauges) | mean over the runs drift judges |
 * | `flowscout_drift{kind}` | `flowscout.drift` (gauge) | 1 when drift says so over the recent runs: `any`, `process_changed`, `runs_fail_more` |
 *
 * Every series carries the workflow's name (`workflow`). Scoring and the drift verdict come from
 * the caller (`score`, `drift`): aligning runs is conformance's work, which `serve` does not import.
 */

/** A run's scores against the workflow. */
export interface RunFigures {
  fitness: number;
  health: number;
}

/** The drift verdict over recent served runs. */
export interface DriftFigures {
  drift: boolean;
  processChanged: boolean;
  runsFailMore: boolean;
  /** How many runs it judged. */
  runs: number;
  averageFitness: number;
  averageHealth: number;
}

export interface ServeMetricsOptions {
  workflow: string;
  /** The drift verdict over recent runs, when there is one (too few runs: undefined). */
  drift?: () => DriftFigures | undefined;
  /** Where the OpenTelemetry instruments come from (default: the global meter provider's `flowscout` meter). */
  meter?: Meter;
}

export interface ServeMetrics {
  /** Counts a finished run: its status as the client was told, its calls, its scores when known. */
  record(trace: Trace, status: 'ok' | 'error', figures: RunFigures | undefined): void;
  /** The Prometheus text of every measure. */
  prometheus(load: { waiting: number; running: number }): string;
}

/** Bucket bounds of the score histograms. */
export const SCORE_BUCKETS = [0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1];
/** Bucket bounds of the latency histogram, in seconds. */
export const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

interface Histogram {
  bounds: readonly number[];
  counts: number[];
  sum: number;
  count: number;
}

const histogram = (bounds: readonly number[]): Histogram => ({ bounds, counts: bounds.map(() => 0), sum: 0, count: 0 });

function observe(h: Histogram, v: number): void {
  h.bounds.forEach((b, i) => {
    if (v <= b) h.counts[i]!++;
  });
  h.sum += v;
  h.count++;
}

/** A Prometheus label value: backslash, quote and newline escaped. */
function label(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** Starts measuring (see the module comment). */
export function createServeMetrics(options: ServeMetricsOptions): ServeMetrics {
  const wf = `workflow="${label(options.workflow)}"`;
  const runs = { ok: 0, error: 0 };
  const calls = { ok: 0, failed: 0, withheld: 0 };
  const fitness = histogram(SCORE_BUCKETS);
  const health = histogram(SCORE_BUCKETS);
  const duration = histogram(DURATION_BUCKETS);
  let lastLoad = { waiting: 0, running: 0 };

  const meter = options.meter ?? otelMetrics.getMeter('flowscout');
  const attrs: Attributes = { 'flowscout.workflow': options.workflow };
  const otel = {
    runs: meter.createCounter('flowscout.runs', { description: 'runs answered, by status as the client was told' }),
    calls: meter.createCounter('flowscout.calls', { description: 'tool calls of served runs, by outcome' }),
    fitness: meter.createHistogram('flowscout.run.fitness', {
      description: "each served run's fitness against the workflow's process tree",
      advice: { explicitBucketBoundaries: SCORE_BUCKETS },
    }),
    health: meter.createHistogram('flowscout.run.health', {
      description: "each served run's health",
      advice: { explicitBucketBoundaries: SCORE_BUCKETS },
    }),
    duration: meter.createHistogram('flowscout.run.duration', {
      description: 'latency of each served run',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
  };
  meter
    .createObservableGauge('flowscout.drift', { description: '1 when drift says so over the recent served runs' })
    .addCallback((result) => {
      const d = options.drift?.();
      if (!d) return;
      result.observe(d.drift ? 1 : 0, { ...attrs, 'flowscout.drift.kind': 'any' });
      result.observe(d.processChanged ? 1 : 0, { ...attrs, 'flowscout.drift.kind': 'process_changed' });
      result.observe(d.runsFailMore ? 1 : 0, { ...attrs, 'flowscout.drift.kind': 'runs_fail_more' });
    });
  meter
    .createObservableGauge('flowscout.runs.in_flight', { description: 'runs running now' })
    .addCallback((result) => result.observe(lastLoad.running, attrs));

  return {
    record(trace, status, figures) {
      runs[status]++;
      otel.runs.add(1, { ...attrs, 'flowscout.status': status });
      const withheld = trace.withheld?.length ?? 0;
      const failed = trace.calls.filter((c) => c.status === 'error').length - withheld;
      const ok = trace.calls.length - failed - withheld;
      const add = (outcome: keyof typeof calls, n: number) => {
        if (n <= 0) return;
        calls[outcome] += n;
        otel.calls.add(n, { ...attrs, 'flowscout.call.outcome': outcome });
      };
      add('ok', ok);
      add('failed', failed);
      add('withheld', withheld);
      const seconds = trace.totals.durationMs / 1000;
      observe(duration, seconds);
      otel.duration.record(seconds, attrs);
      if (figures) {
        observe(fitness, figures.fitness);
        observe(health, figures.health);
        otel.fitness.record(figures.fitness, attrs);
        otel.health.record(figures.health, attrs);
      }
    },
    prometheus(load) {
      lastLoad = load;
      const lines: string[] = [];
      const metric = (name: string, type: string, help: string) =>
        lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      const hist = (name: string, h: Histogram) => {
        h.bounds.forEach((b, i) => lines.push(`${name}_bucket{${wf},le="${b}"} ${h.counts[i]}`));
        lines.push(
          `${name}_bucket{${wf},le="+Inf"} ${h.count}`,
          `${name}_sum{${wf}} ${h.sum}`,
          `${name}_count{${wf}} ${h.count}`,
        );
      };
      metric('flowscout_runs_total', 'counter', 'Runs answered, by status as the client was told.');
      for (const s of ['ok', 'error'] as const) lines.push(`flowscout_runs_total{${wf},status="${s}"} ${runs[s]}`);
      metric('flowscout_calls_total', 'counter', 'Tool calls of served runs, by outcome.');
      for (const o of ['ok', 'failed', 'withheld'] as const)
        lines.push(`flowscout_calls_total{${wf},outcome="${o}"} ${calls[o]}`);
      metric('flowscout_run_fitness', 'histogram', "Each served run's fitness against the workflow's process tree.");
      hist('flowscout_run_fitness', fitness);
      metric(
        'flowscout_run_health',
        'histogram',
        "Each served run's health: 1 / (1 + deviations + failed, withheld and repeated calls).",
      );
      hist('flowscout_run_health', health);
      metric('flowscout_run_duration_seconds', 'histogram', 'Latency of each served run.');
      hist('flowscout_run_duration_seconds', duration);
      metric('flowscout_runs_in_flight', 'gauge', 'Runs running now.');
      lines.push(`flowscout_runs_in_flight{${wf}} ${load.running}`);
      metric('flowscout_runs_waiting', 'gauge', 'Requests waiting for a run slot.');
      lines.push(`flowscout_runs_waiting{${wf}} ${load.waiting}`);
      const d = options.drift?.();
      if (d) {
        metric('flowscout_recent_fitness', 'gauge', 'Mean fitness of the recent runs drift judges.');
        lines.push(`flowscout_recent_fitness{${wf}} ${d.averageFitness}`);
        metric('flowscout_recent_health', 'gauge', 'Mean health of the recent runs drift judges.');
        lines.push(`flowscout_recent_health{${wf}} ${d.averageHealth}`);
        metric('flowscout_drift', 'gauge', 'Drift over the recent served runs: 1 when it says so, by kind.');
        lines.push(
          `flowscout_drift{${wf},kind="any"} ${d.drift ? 1 : 0}`,
          `flowscout_drift{${wf},kind="process_changed"} ${d.processChanged ? 1 : 0}`,
          `flowscout_drift{${wf},kind="runs_fail_more"} ${d.runsFailMore ? 1 : 0}`,
        );
        metric('flowscout_drift_runs', 'gauge', 'How many recent runs the drift verdict judged.');
        lines.push(`flowscout_drift_runs{${wf}} ${d.runs}`);
      }
      return `${lines.join('\n')}\n`;
    },
  };
}
