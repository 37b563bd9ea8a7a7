/**
 * How well fitness and health tell failed runs from successful ones, on runs of tasks the workflow
 * never saw (not a test; offline figures, no model anywhere). The runs are split by task into two
 * halves (by a hash of the task: `conformance/held-out.ts`, `foldOf`); for each half, G0 is mined
 * from the other half's successful runs (as `flowscout mine --format workflow` does) and every run
 * of this half is scored against it (conformance/run-health.ts). It prints the AUC of each score
 * per half and over both, with its 95 % interval.
 *
 * The runs must carry an outcome (`reward`, a status: records/import/outcome.ts). For runs that all
 * succeeded (expert demonstrations), `--made-failures` makes a failing run from each successful run
 * of an unseen task, one of each kind below, and scores them beside the runs they came from. They
 * are made here, not observed: the kinds that add failed or repeated calls are visible to health by
 * construction (it counts them), the others only through the alignment.
 *
 * | kind | what the failing run does |
 * | --- | --- |
 * | `stopped-early` | ends before its last call (an agent that gave up or forgot the final action) |
 * | `wrong-action` | its last call is another tool that ends some run of the domain (the wrong action) |
 * | `refused-and-retried` | its last call is answered with an error and made once more with the same arguments |
 * | `looked-around` | repeats its first call, and calls a tool of the domain it did not use |
 *
 *   npx tsx benchmarks/conformance-health.ts <tau-bench runs.json> [--group task_id] [--made-failures]
 */
import { foldOf } from '../src/conformance/held-out.js';
import { observedRun, observedRunOfRecord, recordCalls, type ObservedRun } from '../src/conformance/observed-runs.js';
import { scoreRuns, separation, type RunScore } from '../src/conformance/run-health.js';
import { workflowProcessTree } from '../src/conformance/workflow-tree.js';
import { importAgentLogs } from '../src/records/import/agent-logs.js';
import type { TaskRecord } from '../src/records/schema.js';
import { minedG0 } from '../src/search/variants.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const file = process.argv[2];
if (!file || file.startsWith('--')) {
  console.error('usage: npx tsx benchmarks/conformance-health.ts <runs.json> [--group task_id] [--made-failures]');
  process.exit(2);
}
const groupPath = arg('--group') ?? 'task_id';
const made = process.argv.includes('--made-failures');

const { records, tools } = importAgentLogs('auto', [file], { keepFailed: true, group: groupPath });
const withOutcome = records.filter((r) => r.meta?.outcome !== undefined);
const groupOf = (r: TaskRecord) => r.group ?? r.id;
const success = (r: TaskRecord) => (r.meta?.outcome as { success?: boolean } | undefined)?.success === true;
console.log(
  `${file}: ${records.length} runs (${withOutcome.filter(success).length} successful, ${withOutcome.length - withOutcome.filter(success).length} failed by their outcome), ${new Set(records.map(groupOf)).size} tasks by ${groupPath}; two halves by task`,
);

const KINDS = ['stopped-early', 'wrong-action', 'refused-and-retried', 'looked-around'] as const;
type Kind = (typeof KINDS)[number];

/** The failing run of a kind made from a successful run (see the module comment); undefined when it has no call. */
function failing(
  record: TaskRecord,
  kind: Kind,
  lastTools: readonly string[],
  allTools: readonly string[],
): ObservedRun | undefined {
  const calls = recordCalls(record);
  if (calls.length === 0) return undefined;
  const last = calls[calls.length - 1]!;
  const outcome = { success: false, field: 'made', value: kind };
  const id = `${record.id}~${kind}`;
  if (kind === 'stopped-early') return { ...observedRun(id, calls.slice(0, -1)), outcome };
  if (kind === 'wrong-action') {
    const other =
      lastTools.find((t, i) => t !== last.tool && foldOf(`${record.id}${i}`, 3) === 0) ??
      lastTools.find((t) => t !== last.tool);
    if (!other) return undefined;
    return { ...observedRun(id, [...calls.slice(0, -1), { tool: other, args: last.args, status: 'ok' }]), outcome };
  }
  if (kind === 'refused-and-retried') {
    const refused = {
      tool: last.tool,
      args: last.args,
      status: 'error' as const,
      output: 'Error: the request was refused',
    };
    return { ...observedRun(id, [...calls.slice(0, -1), refused, refused]), outcome };
  }
  const used = new Set(calls.map((c) => c.tool));
  const elsewhere =
    allTools.find((t, i) => !used.has(t) && foldOf(`${record.id}${i}`, 2) === 0) ?? allTools.find((t) => !used.has(t));
  return {
    ...observedRun(id, [
      calls[0]!,
      calls[0]!,
      ...(elsewhere ? [{ tool: elsewhere, args: {}, status: 'ok' as const }] : []),
      ...calls.slice(1),
    ]),
    outcome,
  };
}

const lastTools = [
  ...new Set(records.flatMap((r) => (r.calls.length ? [r.calls[r.calls.length - 1]!.tool] : []))),
].sort();
const allTools = [...new Set(records.flatMap((r) => r.calls.map((c) => c.tool)))].sort();
const pooled: RunScore[] = [];
const pooledMade = new Map<Kind, RunScore[]>(KINDS.map((k) => [k, []]));
const line = (label: string, scores: readonly RunScore[]) => {
  const h = separation(scores, 'health');
  const f = separation(scores, 'fitness');
  if (!h || !f) return console.log(`  ${label}: no failed or no successful run`);
  const fig = (s: NonNullable<typeof h>) =>
    `${s.auc.toFixed(3)} (${s.interval[0].toFixed(2)}–${s.interval[1].toFixed(2)})`;
  console.log(
    `  ${label.padEnd(34)} ${String(h.successful).padStart(4)} ok ${String(h.failed).padStart(4)} failed   health ${fig(h)}   fitness ${fig(f)}`,
  );
};
console.log('AUC: P(a successful run scores higher than a failed one), 95 % interval (Hanley–McNeil)');
for (const half of [0, 1]) {
  const unseen = records.filter((r) => foldOf(groupOf(r), 2) === half);
  const learned = records.filter((r) => foldOf(groupOf(r), 2) !== half && success(r));
  const workflow = minedG0(learned, tools);
  const anyTool = [...new Set(records.flatMap((r) => observedRunOfRecord(r).tools))];
  const tree = workflowProcessTree(workflow, { anyTool });
  const scores = scoreRuns(unseen.map(observedRunOfRecord), tree);
  pooled.push(...scores);
  line(`half ${half + 1} (G0 from ${learned.length} successful runs)`, scores);
  if (made) {
    for (const kind of KINDS) {
      const runs = unseen
        .filter(success)
        .map((r) => failing(r, kind, lastTools, allTools))
        .filter((r) => r !== undefined);
      const s = scoreRuns([...unseen.filter(success).map(observedRunOfRecord), ...runs], tree);
      pooledMade.get(kind)!.push(...s.filter((x) => x.outcome?.success === false));
    }
  }
}
line('both halves', pooled);
if (made) {
  const good = pooled.filter((s) => s.outcome?.success === true);
  console.log('made failures (each kind made from every successful run of an unseen task; both halves):');
  for (const kind of KINDS) line(kind, [...good, ...pooledMade.get(kind)!]);
  line('all four kinds', [...good, ...KINDS.flatMap((k) => pooledMade.get(k)!)]);
}
