/**
 * Offline-policy accuracy on TRAJECT-Bench (docs/DESIGN.md, "Policies"): the baseline the search must
 * improve. Not a test; run with `npx tsx benchmarks/offline-policy-accuracy.ts [--seed N]`.
 *
 * Per domain (bundled data, records whose calls all succeeded), the records are split with
 * `splitRecords` (ratio 5:2:3, seed 0): the hints a search learns are learned from the optimisation
 * part only (dataflow/learn-hints.ts, the rule optimizer's first plan) and the policy, which learns nothing
 * itself, is measured with them on the other two parts. Every evaluated call is one position of a linear workflow
 * plan → t0 → … → t(n−1) → synthesize; the node sees the plan (first position) or the previous
 * reference call with its recorded output (later positions), as a linear G0 would.
 *   (a) args: the reference tool is forced (it is the only candidate; the node's task is its
 *       description); exact = canonical arguments equal (the TC rule).
 *   (b) tool: every tool of the domain is a candidate and the task is generic; right = the
 *       reference tool is chosen. (b+a) both at once.
 * Reported for two splits: by record (chains seen in D_opt recur in the rest) and by group (whole
 * API chains held out), and without hints (the request and the tool schemas alone) for comparison.
 */
import { canonicalArgs, stableStringify } from '../src/contracts/canonical-args.js';
import { BUNDLED_DOMAINS, bundledTrajectPaths } from '../src/records/bundled.js';
import { importTraject } from '../src/records/import/traject.js';
import type { TaskRecord } from '../src/records/schema.js';
import { splitRecords } from '../src/records/split.js';
import type { ToolHint, Workflow } from '../src/graph/schema.js';
import { learnToolHints } from '../src/dataflow/learn-hints.js';
import { createOfflinePolicy } from '../src/policies/offline/offline-policy.js';
import type { ExecutionPolicy, NodeInput, ToolPlanRequest } from '../src/policies/types.js';
import type { ToolDescriptor } from '../src/contracts/tools.js';

const seedArg = process.argv.indexOf('--seed');
const seed = seedArg > 0 ? Number(process.argv[seedArg + 1]) : 0;

interface Tally {
  calls: number;
  argsExact: number;
  params: number;
  paramsRight: number;
  toolRight: number;
  both: number;
}

function linearWorkflow(n: number, hints: readonly ToolHint[]): Workflow {
  const nodes: Workflow['nodes'] = [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
    ...Array.from({ length: n }, (_, i) => ({
      id: `t${i}`,
      kind: 'tool' as const,
      task: 'Call the tool that performs the next step of the request.',
      // Every step reads a tool's hint wherever the workflow keeps it (graph/hints.ts): all of them on the first.
      ...(i === 0 && hints.length > 0 ? { hints: [...hints] } : {}),
    })),
    {
      id: 'answer',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'Answer {{query}} from {{inputs}}',
      output: { type: 'text' },
    },
  ];
  const ids = nodes.map((x) => x.id);
  return {
    version: 1,
    name: 'linear',
    nodes,
    edges: ids.slice(1).map((to, i) => ({ from: ids[i]!, to, kind: 'data' as const })),
  };
}

function inputsAt(record: TaskRecord, i: number, plan: string): NodeInput[] {
  if (i === 0) return [{ nodeId: 'plan', kind: 'llm', role: 'plan', output: plan, status: 'ok' }];
  const prev = record.calls[i - 1]!;
  return [
    {
      nodeId: `t${i - 1}`,
      kind: 'tool',
      status: 'ok',
      output: [{ tool: prev.tool, args: prev.args, status: 'ok', output: prev.output }],
      calls: [{ tool: prev.tool, args: prev.args, status: 'ok' }],
    },
  ];
}

function canon(args: Record<string, unknown>, tool: ToolDescriptor): Record<string, unknown> {
  return canonicalArgs(args, tool.inputSchema);
}

async function evaluate(
  policy: ExecutionPolicy,
  records: readonly TaskRecord[],
  tools: readonly ToolDescriptor[],
  hints: readonly ToolHint[],
): Promise<Tally> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const t: Tally = { calls: 0, argsExact: 0, params: 0, paramsRight: 0, toolRight: 0, both: 0 };
  for (const record of records) {
    const workflow = linearWorkflow(record.calls.length, hints);
    const plan = String(
      (
        await policy.runLlmNode({
          query: record.query,
          workflow,
          inputs: [],
          context: record.query,
          scratch: new Map(),
          node: workflow.nodes[0] as never,
        })
      ).output,
    );
    for (let i = 0; i < record.calls.length; i++) {
      const ref = record.calls[i]!;
      const tool = byName.get(ref.tool);
      if (!tool) continue;
      t.calls++;
      const base: Omit<ToolPlanRequest, 'node' | 'candidates'> = {
        query: record.query,
        workflow,
        inputs: inputsAt(record, i, plan),
        context: record.query,
        scratch: new Map(),
        attempt: 1,
      };
      const forced = await policy.planToolCalls({
        ...base,
        node: { id: `t${i}`, kind: 'tool', task: tool.description.split('\n')[0]!, tools: [tool.name] },
        candidates: [tool],
      });
      const want = canon(ref.args, tool);
      const got = canon(forced.calls[0]?.args ?? {}, tool);
      if (stableStringify(want) === stableStringify(got)) t.argsExact++;
      for (const k of new Set([...Object.keys(want), ...Object.keys(got)])) {
        t.params++;
        if (stableStringify(want[k]) === stableStringify(got[k])) t.paramsRight++;
      }
      const free = await policy.planToolCalls({
        ...base,
        node: { id: `t${i}`, kind: 'tool', task: 'Call the tool that performs the next step of the request.' },
        candidates: [...tools],
      });
      const pick = free.calls[0];
      if (pick?.tool === ref.tool) {
        t.toolRight++;
        if (stableStringify(canon(pick.args, tool)) === stableStringify(want)) t.both++;
      }
    }
  }
  return t;
}

const pct = (a: number, b: number) => (b === 0 ? '  n/a' : `${((100 * a) / b).toFixed(1).padStart(5)}%`);

async function main(): Promise<void> {
  console.log(
    `Offline policy (no LLM) on bundled TRAJECT-Bench, split 5:2:3 seed ${seed}; learn on D_opt, measure on D_val+D_test.`,
  );
  console.log(
    '(a) args exact with the reference tool forced; params = per-parameter agreement; (b) right tool among all domain tools; (b+a) both.\n',
  );
  console.log('domain   split       learned  eval-records  calls   (a) args  params   (b) tool  (b+a)');
  const totals = new Map<string, Tally>();
  for (const domain of BUNDLED_DOMAINS) {
    const paths = bundledTrajectPaths(domain);
    const { records, tools } = importTraject(paths.trajQuery, paths.tools);
    for (const by of ['record', 'group'] as const) {
      const split = splitRecords(records, { ratio: [5, 2, 3], seed, by });
      const evalSet = [...split.val, ...split.test];
      for (const learned of [true, false]) {
        if (!learned && by === 'group') continue;
        const started = performance.now();
        const policy = createOfflinePolicy({ tools });
        const hints = learned ? [...learnToolHints(split.opt, tools).values()] : [];
        const t = await evaluate(policy, evalSet, tools, hints);
        const ms = performance.now() - started;
        const label = learned ? `by ${by}` : 'no hints';
        console.log(
          `${domain.padEnd(8)} ${label.padEnd(11)} ${String(learned ? split.opt.length : 0).padStart(7)}  ${String(evalSet.length).padStart(12)}  ${String(t.calls).padStart(5)}   ${pct(t.argsExact, t.calls)}  ${pct(t.paramsRight, t.params)}   ${pct(t.toolRight, t.calls)}  ${pct(t.both, t.calls)}   (${ms.toFixed(0)} ms)`,
        );
        const key = label;
        const acc = totals.get(key) ?? { calls: 0, argsExact: 0, params: 0, paramsRight: 0, toolRight: 0, both: 0 };
        for (const k of Object.keys(acc) as Array<keyof Tally>) acc[k] += t[k];
        totals.set(key, acc);
      }
    }
  }
  console.log('');
  for (const [label, t] of totals) {
    console.log(
      `all      ${label.padEnd(11)} ${''.padStart(7)}  ${''.padStart(12)}  ${String(t.calls).padStart(5)}   ${pct(t.argsExact, t.calls)}  ${pct(t.paramsRight, t.params)}   ${pct(t.toolRight, t.calls)}  ${pct(t.both, t.calls)}`,
    );
  }
}

await main();
