import { join, relative } from 'node:path';
import type { Workflow } from '../../graph/schema.js';
import { toMermaid } from '../../graph/to-mermaid.js';
import { createCircuitBreaker } from '../../llm/circuit-breaker.js';
import { formatProcessTree } from '../../mining/process-tree/format.js';
import { bestWithProvenance, writeSearchArtifacts } from '../../search/artifacts.js';
import { clip } from '../../util/clip.js';
import { writeTextFile } from '../../util/json-file.js';
import { createPm4pyBaseline } from '../baselines/pm4py-style.js';
import { reactAgent } from '../experiments/react-agent.js';
import { prepareDomain } from '../experiments/domain-env.js';
import { measureApproach, type Subject } from '../experiments/measure.js';
import { runVariant } from '../experiments/search-variants.js';
import { fixed, table } from '../report/markdown.js';
import { freshDemoFolder, shortenTree } from './demo-folder.js';
import { createModelWiring } from '../../wiring/wire-models.js';

/**
 * The one-command demo (the README's first command): on a fresh clone with no model and
 * no network, the bundled TRAJECT-Bench Travel records are imported, the process tree is mined from
 * D_opt and printed (shortened; the whole string goes to a file), a short FlowScout search runs
 * with the offline policy, and the best workflow is printed as Mermaid with a small table of TC and
 * ES on the test split against G0 (NoMCTS), ReAct and the PM4Py-style baseline — every figure
 * labelled with who produced it. The artifacts go to a fresh timestamped folder.
 */

export interface DemoOptions {
  iterations: number;
  patience: number;
  seed: number;
  /** Folder under which the timestamped demo folder is made (default `.flowscout/demo`). */
  root: string;
  model?: string;
  /** Sample this many Travel records (a quicker look; the output says so). */
  maxRecords?: number;
  concurrency: number;
  env?: Record<string, string | undefined>;
  log: (text: string) => void;
  now?: Date;
  /** Per-request timeout of model calls (ms). */
  modelTimeoutMs?: number;
  /** Receives model retry lines and the start-up check (the CLI prints them on stderr). */
  modelLog?: (line: string) => void;
  /** Model calls in a row failing alike that stop the demo (circuit breaker). */
  breakerThreshold?: number;
}

export interface DemoRow {
  id: string;
  label: string;
  tc: number;
  es: number;
}

export interface DemoResult {
  dir: string;
  offline: boolean;
  rows: DemoRow[];
  files: string[];
  best: Workflow;
}

export async function runDemo(o: DemoOptions): Promise<DemoResult> {
  const vars = o.env ?? process.env;
  // One rate limiter, sized by --concurrency, for every model request of the demo; one circuit breaker.
  const breaker = createCircuitBreaker(o.breakerThreshold !== undefined ? { threshold: o.breakerThreshold } : {});
  const wiring = createModelWiring({
    limits: { concurrency: o.concurrency },
    env: vars,
    breaker,
    ...(o.modelTimeoutMs !== undefined ? { timeoutMs: o.modelTimeoutMs } : {}),
    ...(o.modelLog ? { log: o.modelLog } : {}),
  });
  const model = wiring.chosen(o.model);
  const offline = model === 'offline';
  // The model answers one tiny request before anything runs: a rejected key or a dead host stops the
  // demo at once with the provider's message, instead of minutes of failed calls scored as zeros.
  await wiring.probe([{ role: 'policy, judge and optimizer', spec: model }]);
  const dir = freshDemoFolder(o.root, o.now);
  const say = o.log;
  say(
    `FlowScout demo — ${offline ? 'OFFLINE: no model is configured, so the offline policy, the lexical judge and the rule-based optimizer run (no network needed)' : `model ${model}`}.`,
  );

  const env = await prepareDomain('Travel', {
    seed: o.seed,
    maxTest: Number.MAX_SAFE_INTEGER,
    model,
    wiring,
    ...(o.maxRecords !== undefined ? { maxRecords: o.maxRecords } : {}),
  });
  try {
    const judge = await wiring.judge(model);
    const optimizer = (await wiring.optimizer(model)).instance;
    const calls = env.records.reduce((s, r) => s + r.calls.length, 0);
    say(
      `\n1. Imported ${env.imported} TRAJECT-Bench Travel records${env.records.length < env.imported ? ` and took a seeded sample of ${env.records.length}` : ''}, with ${calls} real tool calls over ${env.descriptors.length} tools (bundled in data/traject-bench/, MIT licence).`,
    );
    say(
      `   Split 5:2:3 (seed ${o.seed}): D_opt ${env.split.opt.length} to mine and search on, D_val ${env.split.val.length} to pick the best, D_test ${env.split.test.length} to measure.`,
    );

    const tree = formatProcessTree(env.tree);
    const treeFile = join(dir, 'process-tree.txt');
    writeTextFile(treeFile, `${tree}\n`);
    say(
      `\n2. Process tree mined from D_opt's tool-call logs (inductive miner, PM4Py notation):\n\n   ${shortenTree(tree)}\n\n   Full tree (${tree.length} characters): ${rel(treeFile)}`,
    );

    say(
      `\n3. Searching for a better workflow: MCTS over edit plans from G0, ${o.iterations} iterations at most (patience ${o.patience}); ${env.policy.label}, ${judge.label}, ${optimizer.label}.`,
    );
    const flow = await runVariant('flowscout', env, {
      seed: o.seed,
      iterations: o.iterations,
      patience: o.patience,
      concurrency: o.concurrency,
      judge: judge.instance,
      optimizer,
      breaker,
      onIteration: (_v, r) =>
        say(
          `   iteration ${r.iteration}: ${r.status.padEnd(9)} val ${r.valScore === undefined ? '  -  ' : r.valScore.toFixed(3)}  best ${r.bestVal.toFixed(3)}  ${clip(r.summary, 80)}`,
        ),
    });
    const s = flow.summary;
    say(
      `   ${s.stopReason}: best ${s.best} with validation score ${fixed(s.bestVal)} (G0: ${fixed(s.g0Val)}) in ${(s.searchMs / 1000).toFixed(1)} s.`,
    );
    const best = bestWithProvenance(flow.result);
    say(`\n4. ${describeBest(best)}`);

    const tag = offline ? ' (offline)' : '';
    const subjects: Subject[] = [
      { id: 'flowscout', label: `FlowScout${tag}`, tcDefined: true, kind: 'workflow', workflow: best },
      {
        id: 'nomcts',
        label: `G0 / NoMCTS${tag}`,
        tcDefined: true,
        kind: 'workflow',
        workflow: flow.result.root.workflow!,
      },
      {
        id: 'react',
        label: `ReAct${tag}`,
        tcDefined: true,
        kind: 'agent',
        agent: await reactAgent(env, model, wiring),
      },
      {
        id: 'pm4py',
        label: `PM4Py-style${tag}`,
        tcDefined: true,
        kind: 'agent',
        agent: createPm4pyBaseline({
          tree: env.tree,
          opt: env.split.opt,
          tools: env.tools,
          policy: env.policy.instance,
        }),
      },
    ];
    const rows: DemoRow[] = [];
    for (const sub of subjects) {
      const a = await measureApproach(sub, env.test, {
        policy: env.policy.instance,
        tools: env.tools,
        judge: judge.instance,
        runs: 1,
        concurrency: o.concurrency,
      });
      rows.push({ id: a.id, label: a.label, tc: a.tc ?? 0, es: a.es });
    }
    // A model that stopped working while the test queries ran would leave zeros in the table.
    const trip = breaker.tripped();
    if (trip) throw trip;
    const scoreTable = table(
      ['approach', 'TC', 'ES'],
      rows.map((r) => [r.label, fixed(r.tc), fixed(r.es)]),
      ['l', 'r', 'r'],
    );
    say(
      `\n5. On the ${env.test.length} test queries (${env.policy.label}; ES by the ${judge.label}):\n\n${scoreTable}`,
    );

    const labels = { policy: env.policy.label, judge: judge.label, optimizer: optimizer.label };
    const learned = env.policy.instance.kind === 'offline' ? { learned: env.split.opt } : {};
    const files = [treeFile, ...writeSearchArtifacts(dir, flow.result, labels, { ...learned, test: env.split.test })];
    const g0File = join(dir, 'g0.workflow.json');
    writeTextFile(g0File, `${JSON.stringify(flow.result.root.workflow, null, 2)}\n`);
    const summaryFile = join(dir, 'summary.json');
    writeTextFile(
      summaryFile,
      `${JSON.stringify({ offline, labels, seed: o.seed, split: { opt: env.split.opt.length, val: env.split.val.length, test: env.split.test.length }, search: s, test: rows }, null, 2)}\n`,
    );
    files.push(g0File, summaryFile);
    say(`\n6. Artifacts in ${rel(dir)}/: ${files.map((f) => relative(dir, f)).join(', ')}.`);
    say(
      offline
        ? "\nThese are offline figures (no LLM anywhere). To run the same with a real model:\n  OPENAI_API_KEY=sk-… npx flowscout demo --model openai:gpt-4o-mini\nand the paper's full experiments with `npx flowscout bench` (see docs/results/)."
        : `\nThese figures come from ${model}. The full experiments: npx flowscout bench --model ${model}.`,
    );
    return { dir, offline, rows, files, best };
  } finally {
    await env.tools.close();
  }
}

function rel(p: string): string {
  const r = relative(process.cwd(), p);
  return r && !r.startsWith('..') ? r : p;
}

/** Workflows up to this many nodes are drawn in the demo's output; larger ones are summarised. */
const DRAWN_NODES = 40;

/** Step 4 of the demo: the best workflow as Mermaid, or what it holds when it is too large to read in a terminal. */
function describeBest(best: Workflow): string {
  if (best.nodes.length <= DRAWN_NODES) return `The best workflow (Mermaid):\n\n${toMermaid(best)}`;
  const tools = best.nodes.filter((n) => n.kind === 'tool').length;
  const routes = Array.isArray(best.meta?.routes) ? best.meta.routes.length : 0;
  const routed =
    routes > 0
      ? `: a router over ${routes} recurring variants of D_opt's runs (each a branch of its tools), and the mined skeleton for other requests`
      : '';
  return `The best workflow: ${best.nodes.length} nodes, ${tools} of them tool positions${routed}. Too large to draw here; its Mermaid is best.workflow.mmd among the artifacts (6.).`;
}
