import type { Command } from '@commander-js/extra-typings';
import { DRIFT_THRESHOLDS, detectDrift, type DriftReport, type DriftThresholds } from '../../conformance/drift.js';
import { readConformanceProfile } from '../../conformance/profile.js';
import { FlowScoutError } from '../../errors/index.js';
import { workflowHash } from '../../graph/hash.js';
import type { CliIO } from '../output.js';
import { readRuns } from '../runs-input.js';
import { readWorkflowFile } from './conformance.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout drift <workflow.json> --runs <records | agent logs | store> [--json]`: new runs against
 * what the workflow was learned from (its `meta.conformance` profile, else fixed thresholds), and
 * whether it drifted, why, and what to run next.
 */
export const registerDrift: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('drift')
    .description(
      'compare new runs with what a workflow was learned from and say whether it drifted, why, and what to run next',
    )
    .argument(
      '<workflow>',
      'a workflow JSON (its meta.conformance profile, written by search and mine, is the baseline)',
    )
    .requiredOption(
      '--runs <path>',
      'the new runs: records, agent logs (a file or folder), eval predictions, run traces, an event log, or a serve --db store',
    )
    .option(
      '--json',
      'print one JSON object: {"drift", "processChanged", "runsFailMore", "reasons", "next", "measures", "comparedWith", "baseline", "thresholds", "unreadable"}',
    )
    .option(
      '--threshold <name=value>',
      `change a threshold, e.g. maxFitnessDrop=0.2 (repeatable; names: ${Object.keys(DRIFT_THRESHOLDS).join(', ')})`,
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .option('--last <n>', 'only the n most recent runs (a store, or the end of a file)', parseLast)
    .action(async (file, opts) => {
      const thresholds = parseThresholds(opts.threshold);
      const last = opts.last;
      const workflow = readWorkflowFile(file);
      const profile = readConformanceProfile(workflow, file);
      const input = await readRuns(opts.runs, { workflowHash: workflowHash(workflow) });
      if (input.unreadable.count > 0) {
        const u = input.unreadable;
        io.err(
          `${u.count} run${u.count === 1 ? '' : 's'} of ${opts.runs} could not be read and ${u.count === 1 ? 'is' : 'are'} not counted:\n${u.problems
            .slice(0, 5)
            .map((p) => `  ${p}`)
            .join('\n')}${u.problems.length > 5 ? `\n  … and ${u.problems.length - 5} more` : ''}`,
        );
      }
      const runs = last === undefined ? input.runs : input.runs.slice(Math.max(0, input.runs.length - last));
      const report = detectDrift(workflow, profile, runs, {
        thresholds,
        runsLabel: opts.runs,
        runsKind: input.kind === 'records' || input.kind === 'agent-logs' ? input.kind : 'other',
        madeByWorkflow: input.kind === 'store' || input.kind === 'traces',
      });
      if (opts.json) {
        io.out(`${JSON.stringify({ ...driftJson(report), unreadable: input.unreadable }, null, 2)}\n`);
        return;
      }
      io.out(formatDrift(report, file, opts.runs));
    });
};

/** The JSON `--json` prints: the verdict first, the baseline without its list of sequence hashes. */
export function driftJson(r: DriftReport) {
  const baseline = r.baseline
    ? (({ variants, ...rest }) => ({ ...rest, variants: variants.length }))(r.baseline)
    : null;
  return {
    drift: r.drift,
    processChanged: r.processChanged,
    runsFailMore: r.runsFailMore,
    reasons: r.reasons,
    next: r.next,
    measures: r.measures,
    comparedWith: r.comparedWith,
    baseline,
    thresholds: r.thresholds,
  };
}

/** The human report: the verdict, each measure beside its baseline, the reasons and the next step. */
export function formatDrift(r: DriftReport, workflow: string, runs: string): string {
  const m = r.measures;
  const b = r.baseline;
  const t = r.thresholds;
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  // A share cannot pass 100 %: say so instead of printing a bound no run can reach.
  const above = (x: number) => (x >= 1 ? 'cannot drift on this' : `drift above ${pct(x)}`);
  const compared =
    r.comparedWith === 'workflowRuns'
      ? `its own ${b!.runs} runs in the search`
      : r.comparedWith === 'heldOut'
        ? `${b!.runs} runs of the process it was not learned from`
        : `the ${b!.runs} runs it was learned from`;
  const verdict = !r.drift
    ? 'no'
    : r.processChanged && r.runsFailMore
      ? 'yes, the process changed and runs fail more'
      : r.processChanged
        ? 'yes, the process changed'
        : 'yes, runs fail more';
  const lines = [
    `drift: ${verdict}  (${m.runs} run${m.runs === 1 ? '' : 's'} of ${runs} against ${workflow}${b ? `, compared with ${compared}` : ', which has no conformance profile: fixed thresholds'})`,
    '',
    `  averageFitness     ${m.averageFitness.toFixed(3)}${b ? `   baseline ${b.averageFitness.toFixed(3)}, drift below ${(b.averageFitness - t.maxFitnessDrop).toFixed(3)}` : `   drift below ${t.minFitness}`}`,
    `  percFitTraces      ${m.percFitTraces.toFixed(1)} %${b ? `   baseline ${b.percFitTraces.toFixed(1)} %` : ''}`,
    `  averageHealth      ${m.averageHealth.toFixed(3)}${b?.averageHealth !== undefined ? `   baseline ${b.averageHealth.toFixed(3)}` : ''}`,
    `  health of calls    ${m.averageCallHealth.toFixed(3)}${b?.averageCallHealth !== undefined ? `   baseline ${b.averageCallHealth.toFixed(3)}, fail more below ${(b.averageCallHealth - t.maxHealthDrop).toFixed(3)}` : ''}`,
  ];
  if (m.outsideRoutes !== null) {
    lines.push(
      `  outside routes     ${pct(m.outsideRoutes)}${b && b.outsideRoutes !== null ? `   baseline ${pct(b.outsideRoutes)}, ${above(b.outsideRoutes + t.maxOutsideRoutesRise)}` : `   ${above(t.maxOutsideRoutes)}`}`,
    );
  }
  if (m.unseenVariants !== null && b) {
    lines.push(
      `  unseen sequences   ${pct(m.unseenVariants)}   expected ${pct(b.unseenVariantRate)}, ${above(b.unseenVariantRate + t.maxUnseenVariantsRise)}`,
    );
  }
  lines.push(
    `  failed calls       ${pct(m.failedCallRate)}${b ? `   baseline ${pct(b.failedCallRate)}, ${above(b.failedCallRate + t.maxFailedCallRise)}` : `   ${above(t.maxFailedCallRate)}`}`,
    `  withheld calls     ${pct(m.withheldCallRate)}${b ? `   baseline ${pct(b.withheldCallRate)}, ${above(b.withheldCallRate + t.maxWithheldCallRate)}` : `   ${above(t.maxWithheldCallRate)}`}`,
  );
  if (m.failedRuns !== null) {
    const before = b?.failedRuns ?? null;
    lines.push(
      `  failed runs        ${pct(m.failedRuns)}${before !== null ? `   baseline ${pct(before)}, ${above(before + t.maxFailedRunsRise)}` : `   ${above(t.maxFailedRuns)} (the baseline's runs carry no outcome)`}`,
    );
  }
  if (r.reasons.length > 0) lines.push('', ...r.reasons.map((x) => `- ${x}`));
  lines.push('', `next: ${r.next}`);
  return `${lines.join('\n')}\n`;
}

function parseThresholds(items: readonly string[]): Partial<DriftThresholds> {
  const out: Partial<DriftThresholds> = {};
  for (const item of items) {
    const m = /^([A-Za-z]+)=(.+)$/.exec(item.trim());
    const name = m?.[1] as keyof DriftThresholds | undefined;
    if (!m || !name || !(name in DRIFT_THRESHOLDS)) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `--threshold ${item}: not <name>=<number> with a known name`,
        hint: `Names: ${Object.keys(DRIFT_THRESHOLDS).join(', ')}; e.g. --threshold maxFitnessDrop=0.2.`,
      });
    }
    const value = Number(m[2]);
    if (!Number.isFinite(value) || value < 0 || (name !== 'minRuns' && value > 1)) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `--threshold ${item}: ${name} must be ${name === 'minRuns' ? 'a whole number ≥ 0' : 'a number from 0 to 1'}`,
        hint: `The default is ${name}=${DRIFT_THRESHOLDS[name]}.`,
      });
    }
    out[name] = value;
  }
  return out;
}

function parseLast(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--last must be a whole number ≥ 1, got '${value}'`,
      hint: 'e.g. --last 200 for the 200 most recent runs.',
    });
  }
  return n;
}
