/**
 * How much tool-call correctness argument bindings can add at most (not a test; offline figures
 * only). Per domain and seed it evaluates the mined G0 on D_opt with feedback, takes every binding
 * the feedback finds (`evaluate/feedback-bindings.ts`: a constant, a request pattern or a path into
 * an upstream node's results that reproduces the reference value in most D_opt records where the
 * node made that call, and more of them than the calls made now), applies all of them at once, and
 * prints TC on D_opt and on D_val before and after. The search can only ever keep a subset of these
 * edits, so the D_val difference bounds what bindings give the search on these records. Run with
 *
 *   npx tsx benchmarks/binding-ceiling.ts [--domains Finance,Travel,Weather] [--seeds 0,1,2] [--find-on val] [--start learned]
 *
 * A domain is a bundled one's name or a folder `flowscout import` wrote (records.jsonl and
 * tools.config.json), split by group as the bench splits it.
 *
 * `--start learned` starts from G0 with the hints learned on D_opt (a search's start) instead of G0.
 *
 * `--find-on val` takes the bindings from G0's feedback on D_val itself instead of D_opt: the bindings
 * are then chosen on the very records they are scored on, so the D_val difference is an upper bound
 * that no search selecting on D_val can exceed with bindings alone.
 *
 * D_test is never read.
 */
import { basename } from 'node:path';
import { domainByNameOrFolder, prepareDomain } from '../src/bench/experiments/domain-env.js';
import { evaluateWorkflow } from '../src/evaluate/evaluate.js';
import type { FeedbackPattern } from '../src/evaluate/feedback.js';
import type { Edit } from '../src/graph/edits/edit-schema.js';
import { applyEditPlan } from '../src/graph/edits/apply-edit-plan.js';
import { createLexicalJudge } from '../src/metrics/lexical-judge.js';
import { withLearnedHints } from '../src/search/learned-hints.js';
import { minedG0 } from '../src/search/variants.js';
import { createModelWiring } from '../src/wiring/wire-models.js';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}
const domains = arg('domains', 'Finance,Travel,Weather').split(',');
const seeds = arg('seeds', '0,1,2').split(',').map(Number);
const findOn = arg('find-on', 'opt');
const start = arg('start', 'g0');
if (start !== 'g0' && start !== 'learned') throw new Error(`--start takes g0 or learned, not '${start}'`);
if (findOn !== 'opt' && findOn !== 'val') throw new Error(`--find-on takes opt or val, not '${findOn}'`);

const wiring = createModelWiring({ limits: { concurrency: 2 } });
const judge = createLexicalJudge();
const sums = { optG0: 0, optBound: 0, valG0: 0, valBound: 0, bindings: 0, cells: 0 };
console.log(`bindings found on ${start === 'learned' ? 'hinted ' : ''}G0's D_${findOn} runs (offline)`);
console.log('domain   seed  bindings  TC D_opt G0 → bound   TC D_val G0 → bound   (offline)');
for (const domain of domains) {
  for (const seed of seeds) {
    const env = await prepareDomain(domainByNameOrFolder(domain), { seed, maxTest: 0, model: 'offline', wiring });
    try {
      const common = { policy: env.policy.instance, tools: env.tools, judge, concurrency: 2 };
      const mined = minedG0(env.split.opt, env.descriptors);
      // `--start learned`: G0 with the hints learned on D_opt (the start every search has).
      const g0 =
        start === 'learned'
          ? await withLearnedHints(mined, env.split.opt, { ...common, descriptors: env.descriptors })
          : mined;
      const opt = await evaluateWorkflow(g0, env.split.opt, { ...common, feedback: { tools: env.descriptors } });
      // G0 on D_val, with feedback when the bindings are to be found there.
      const valG0 = await evaluateWorkflow(g0, env.split.val, {
        ...common,
        feedback: findOn === 'val' ? { tools: env.descriptors } : false,
      });
      const source = findOn === 'val' ? valG0 : opt;
      const found = (source.feedback?.patterns ?? []).filter(
        (p): p is Extract<FeedbackPattern, { kind: 'bindable' }> => p.kind === 'bindable' && p.source !== null,
      );
      const edits: Edit[] = [];
      for (const p of found) {
        const from = p.source!.from === 'output' || p.source!.from === 'extract' ? p.source!.node : undefined;
        if (from && !g0.edges.some((e) => e.from === from && e.to === p.node && e.kind === 'data'))
          edits.push({ op: 'add_edge', from, to: p.node, kind: 'data' });
        edits.push({ op: 'set_binding', id: p.node, tool: p.tool, param: p.param, source: p.source });
      }
      const applied = applyEditPlan(g0, { edits }, { tools: env.descriptors });
      if (!applied.ok) throw new Error(`${domain} seed ${seed}: the bindings do not apply: ${applied.error.message}`);
      const bound = applied.workflow;
      const optBound = await evaluateWorkflow(bound, env.split.opt, { ...common, feedback: false });
      const valBound = await evaluateWorkflow(bound, env.split.val, { ...common, feedback: false });
      const f = (x: number | undefined) => (x ?? 0).toFixed(3);
      console.log(
        `${basename(domain).padEnd(8)} ${String(seed).padStart(4)}  ${String(found.length).padStart(8)}  ${f(opt.tc)} → ${f(optBound.tc)}         ${f(valG0.tc)} → ${f(valBound.tc)}`,
      );
      sums.optG0 += opt.tc ?? 0;
      sums.optBound += optBound.tc ?? 0;
      sums.valG0 += valG0.tc ?? 0;
      sums.valBound += valBound.tc ?? 0;
      sums.bindings += found.length;
      sums.cells++;
    } finally {
      await env.tools.close();
    }
  }
}
const m = (x: number) => (x / sums.cells).toFixed(3);
const signed = (x: number) => `${x >= 0 ? '+' : ''}${(x / sums.cells).toFixed(3)}`;
console.log(
  `mean over ${sums.cells} cells: ${m(sums.bindings)} bindings; ` +
    `TC D_opt ${m(sums.optG0)} → ${m(sums.optBound)} (${signed(sums.optBound - sums.optG0)}), ` +
    `D_val ${m(sums.valG0)} → ${m(sums.valBound)} (${signed(sums.valBound - sums.valG0)})`,
);
