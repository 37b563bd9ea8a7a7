/**
 * PM4Py's own times for the inductive miner, the reference the mining benchmarks print their ratios
 * against. Measured on 2026-11-30 with PM4Py 2.7.11.4 (unmodified) on a 2-core Debian 12 machine of
 * the same class as the one these benchmarks run on: wall seconds, median of 3 runs after one untimed
 * warm-up, each log loaded once.
 *
 * - `load`: reading the log into a DataFrame (`pm4py.read_xes` for `.xes(.gz)`, JSONL → DataFrame for
 *   the synthetic logs);
 * - `imApi` / `imfApi`: `pm4py.discover_process_tree_inductive(df)` on the loaded DataFrame, without and
 *   with `noise_threshold=0.2` (DataFrame → variants, the recursive miner, fold and sort).
 *
 * The synthetic logs are the ones `mining-scale.ts` generates (same models, noise and sizes); the real
 * logs are those of the `tests/` folder of the pm4py-core repository (test/fixtures/mining/pm4py-logs/README.md).
 * Every run gave the same tree string.
 */
export interface Pm4pyTimingRow {
  load: number;
  imApi: number;
  imfApi: number;
}

export const PM4PY_TIMINGS: { date: string; version: string; rows: ReadonlyMap<string, Pm4pyTimingRow> } = {
  date: '2026-11-30',
  version: '2.7.11.4',
  rows: new Map<string, Pm4pyTimingRow>([
    ['timing_nested_noise05_1k.jsonl', { load: 0.025, imApi: 0.057, imfApi: 0.016 }],
    ['timing_nested_noise05_10k.jsonl', { load: 0.213, imApi: 0.084, imfApi: 0.089 }],
    ['timing_nested_noise05_100k.jsonl', { load: 3.233, imApi: 1.361, imfApi: 1.155 }],
    ['timing_wide_noise10_1k.jsonl', { load: 0.056, imApi: 0.474, imfApi: 0.056 }],
    ['timing_wide_noise10_10k.jsonl', { load: 0.272, imApi: 0.327, imfApi: 0.324 }],
    ['timing_wide_noise10_100k.jsonl', { load: 3.279, imApi: 2.548, imfApi: 2.638 }],
    ['timing_wide_clean_1k.jsonl', { load: 0.028, imApi: 0.036, imfApi: 0.038 }],
    ['timing_wide_clean_10k.jsonl', { load: 0.282, imApi: 0.243, imfApi: 0.242 }],
    ['timing_wide_clean_100k.jsonl', { load: 3.51, imApi: 2.364, imfApi: 2.585 }],
    ['running-example.xes', { load: 0.007, imApi: 0.009, imfApi: 0.009 }],
    ['bpic2012.xes.gz', { load: 11.351, imApi: 16.838, imfApi: 19.172 }],
    ['15_bpic2020_permit_log_1t_per_variant.xes.gz', { load: 0.613, imApi: 13.086, imfApi: 0.405 }],
    ['16_bpic2019_1t_per_variant.xes.gz', { load: 7.329, imApi: 71.281, imfApi: 4.28 }],
  ]),
};

/**
 * PM4Py's own alignment times, the reference `conformance-pm4py.ts` prints its ratios against.
 * Measured on 2026-12-03 with PM4Py 2.7.11.4 (unmodified, pm4py-core a8cfff15, Debian 12's Python
 * 3.11, numpy 1.24, pandas 1.5, scipy 1.10) on a 2-core AMD EPYC Debian 12 machine of the same class,
 * shared with other work while it ran (load average 24–26, so each process had about 4 % of a core):
 * `pm4py.conformance_diagnostics_alignments(log, net, im, fm, multi_processing=False)` (its default
 * variant, A* with the state equation) on the log loaded once (`pm4py.read_xes`), the net converted
 * from the inductive-miner tree PM4Py discovers (for bpic2012 and bpic2019 read from expected-trees.json
 * and parsed, `--trees`; for flower-300.xes discovered), one run, no warm-up, limit 2400 s of wall time:
 *
 *   python3 scripts/pm4py-alignment-timings.py 2400 --runs 1 --no-warm-up --trees <dir>/expected-trees.json \
 *     <dir>/input_data/bpic2012.xes.gz <dir>/compressed_input_data/16_bpic2019_1t_per_variant.xes.gz
 *   python3 scripts/pm4py-alignment-timings.py 2400 --runs 1 --no-warm-up test/fixtures/conformance/logs/flower-300.xes
 *
 * None of the three finished in the limit: `seconds` is null and `cpuSeconds` the CPU time the run had
 * spent aligning when it was stopped (bpic2012 129.3 s, bpic2019 115.2 s, flower-300 102.6 s), a lower
 * bound of PM4Py's time on an idle machine, so the ratios against them are lower bounds too.
 */
export interface Pm4pyAlignmentRow {
  /** Wall seconds of the run; null when it did not finish in `limitSeconds`. */
  seconds: number | null;
  /** The process's CPU seconds of the run; for a run that did not finish, those it had spent when stopped (a lower bound). */
  cpuSeconds: number;
  limitSeconds?: number;
}

export const PM4PY_ALIGNMENT_TIMINGS: {
  date: string;
  version: string;
  rows: ReadonlyMap<string, Pm4pyAlignmentRow>;
} = {
  date: '2026-12-03',
  version: '2.7.11.4',
  rows: new Map<string, Pm4pyAlignmentRow>([
    ['bpic2012.xes.gz', { seconds: null, cpuSeconds: 129.264, limitSeconds: 2400 }],
    ['16_bpic2019_1t_per_variant.xes.gz', { seconds: null, cpuSeconds: 115.172, limitSeconds: 2400 }],
    ['flower-300.xes', { seconds: null, cpuSeconds: 102.581, limitSeconds: 2400 }],
  ]),
};
