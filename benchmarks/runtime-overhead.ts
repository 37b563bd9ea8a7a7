/**
 * Runtime benchmark (not a test; timing goals are shown here as ratios, never asserted):
 *
 * (a) executor overhead per node, as a fraction of a 1 ms simulated tool call: a chain of tool
 *     nodes whose tools return at once (pure overhead), and one whose tools wait 1 ms (overhead =
 *     wall time minus the time spent inside the tools; and the process's CPU time per node, which
 *     is what the executor itself costs even when other processes share the machine and stretch the
 *     wall time), for the interpreter and a compiled module; the goal is under 5 % of a 1 ms call;
 * (b) parallel speed-up on a wide fan-out (32 branches, 20 ms simulated latency) at concurrency 1,
 *     8 and unbounded, against the ideal critical-path time ceil(32 / c) × 20 ms.
 *
 *   npx tsx benchmarks/runtime-overhead.ts
 *   npx tsx benchmarks/runtime-overhead.ts --against <commit> [--rounds 7]
 *
 * `--against` compares (a)'s instant-tools figures with those of another commit: it exports that
 * commit's sources into a temporary directory (`git archive`, with this checkout's node_modules
 * linked in), then runs a fresh process per measurement, this checkout and that commit taking turns
 * (the order flips every round, so a machine that gets busier or quieter favours neither), and
 * prints per-node µs (wall and CPU) of each round, their medians and the ratios; the directory is
 * removed at the end. A shared machine stretches both sides alike; the ratio is the figure to read.
 *
 * The policy is a scripted one that answers at once, so the numbers are the runtime's own cost.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Edge, Workflow, WorkflowNode } from '../src/graph/schema.js';
import type * as CompileModule from '../src/runtime/compile.js';
import type * as ExecuteModule from '../src/runtime/execute.js';
import type { RunContext } from '../src/runtime/run-state.js';
import type * as ScriptedModule from '../src/testing/scripted-policy.js';
import type { Trace } from '../src/runtime/trace.js';
import type * as RegistryModule from '../src/tools/registry.js';
import type { ToolSpec } from '../src/contracts/tools.js';

/** The checkout this file belongs to. */
const HERE = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
/** Whose sources are measured: this checkout's, or (in a probe of `--against`) another commit's. */
const ROOT = resolve(flag('--root') ?? HERE);
const fromRoot = (rel: string) => pathToFileURL(join(ROOT, rel)).href;
const { compileWorkflow } = (await import(fromRoot('src/runtime/compile.ts'))) as typeof CompileModule;
const { executeWorkflow } = (await import(fromRoot('src/runtime/execute.ts'))) as typeof ExecuteModule;
const { createScriptedPolicy } = (await import(fromRoot('src/testing/scripted-policy.ts'))) as typeof ScriptedModule;
const { createToolRegistry } = (await import(fromRoot('src/tools/registry.ts'))) as typeof RegistryModule;

const plan: WorkflowNode = {
  id: 'plan',
  kind: 'llm',
  role: 'plan',
  prompt: 'plan {{query}}',
  output: { type: 'text' },
};
const synth: WorkflowNode = {
  id: 'synth',
  kind: 'llm',
  role: 'synthesize',
  prompt: 'answer {{query}} from {{inputs}}',
  output: { type: 'text' },
};

function chain(n: number): Workflow {
  const tools: WorkflowNode[] = Array.from({ length: n }, (_, i) => ({
    id: `t${String(i).padStart(3, '0')}`,
    kind: 'tool',
    task: 'step',
    tools: ['work'],
  }));
  const ids = ['plan', ...tools.map((t) => t.id), 'synth'];
  const edges: Edge[] = ids.slice(1).map((to, i) => ({ from: ids[i]!, to, kind: 'data' }));
  return { version: 1, name: `chain-${n}`, nodes: [plan, ...tools, synth], edges };
}

function fanOut(n: number): Workflow {
  const tools: WorkflowNode[] = Array.from({ length: n }, (_, i) => ({
    id: `b${String(i).padStart(3, '0')}`,
    kind: 'tool',
    task: 'branch',
    tools: ['work'],
  }));
  const edges: Edge[] = tools.flatMap((t) => [
    { from: 'plan', to: t.id, kind: 'data' as const },
    { from: t.id, to: 'synth', kind: 'data' as const },
  ]);
  return { version: 1, name: `fan-${n}`, nodes: [plan, ...tools, synth], edges };
}

/** A tool that waits `ms` (0: returns at once) and adds the time it really spent to `spent.ms`. */
function workTool(ms: number, spent: { ms: number }): ToolSpec {
  return {
    name: 'work',
    description: 'simulated work',
    inputSchema: { type: 'object', properties: { i: { type: 'number' } } },
    // A read: the write-grounding check before each call lets it through, so every node really calls it.
    effect: { effect: 'read', from: 'benchmark' },
    execute: async (args) => {
      const t = performance.now();
      if (ms > 0) await new Promise((r) => setTimeout(r, ms));
      spent.ms += performance.now() - t;
      return { done: args.i ?? 0 };
    },
  };
}

const policy = createScriptedPolicy({ llm: () => 'ok', tool: (req) => [{ tool: 'work', args: { i: req.attempt } }] });
type Runner = (w: Workflow, ctx: RunContext) => Promise<Trace>;
const interpret: Runner = (w, ctx) => executeWorkflow(w, { query: 'q' }, ctx);

async function compiled(w: Workflow): Promise<Runner> {
  const dir = mkdtempSync(join(tmpdir(), 'flowscout-bench-'));
  const file = join(dir, `${w.name}.ts`);
  const runtime = fromRoot('src/runtime/compiled-support.ts');
  writeFileSync(file, compileWorkflow(w, { runtimeImport: runtime }));
  const mod = (await import(pathToFileURL(file).href)) as { run: (q: string, c: RunContext) => Promise<Trace> };
  return (_w, ctx) => mod.run('q', ctx);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median per-node overhead (ms) of `reps` runs: (wall − time inside tools) / nodes. */
async function overheadPerNode(
  run: Runner,
  w: Workflow,
  toolMs: number,
  reps: number,
): Promise<{ perNode: number; wall: number; inTools: number; cpuPerNode: number }> {
  const rows: Array<{ perNode: number; wall: number; inTools: number; cpuPerNode: number }> = [];
  for (let k = 0; k < reps; k++) {
    const spent = { ms: 0 };
    const tools = createToolRegistry([workTool(toolMs, spent)]);
    const cpu = process.cpuUsage();
    const t = performance.now();
    const trace = await run(w, { policy, tools, concurrency: 4 });
    const wall = performance.now() - t;
    const used = process.cpuUsage(cpu);
    if (trace.status !== 'ok') throw new Error(`bench run failed: ${trace.error}`);
    const failed = trace.observations.find((o) => o.status === 'error');
    if (failed) throw new Error(`bench node ${failed.nodeId} failed: ${failed.error}`);
    // CPU time this process spent (user + system, ms) per node: the executor's own work, which other
    // processes on a busy machine do not inflate the way they inflate wall time.
    rows.push({
      perNode: (wall - spent.ms) / w.nodes.length,
      wall,
      inTools: spent.ms,
      cpuPerNode: (used.user + used.system) / 1000 / w.nodes.length,
    });
  }
  const m = median(rows.map((r) => r.perNode));
  return rows.find((r) => r.perNode === m)!;
}

/** (a)'s instant-tools figures only, as one JSON line: what each process of `--against` prints. */
async function probe(): Promise<void> {
  const w = chain(200);
  const runners: Array<[string, Runner]> = [
    ['interpreter', interpret],
    ['compiled', await compiled(w)],
  ];
  for (const [, run] of runners) await overheadPerNode(run, w, 0, 40);
  const out: Record<string, { wallUs: number; cpuUs: number }> = {};
  for (const [name, run] of runners) {
    const r = await overheadPerNode(run, w, 0, 31);
    out[name] = { wallUs: r.perNode * 1000, cpuUs: r.cpuPerNode * 1000 };
  }
  console.log(JSON.stringify(out));
}

type ProbeResult = Record<'interpreter' | 'compiled', { wallUs: number; cpuUs: number }>;

/** Runs one probe process over the sources at `root`. */
function runProbe(root: string): ProbeResult {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--probe', '--root', root],
    { cwd: HERE, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as ProbeResult;
}

/** `--against <commit>`: this checkout and that commit, interleaved (see the file comment). */
async function against(commit: string, rounds: number): Promise<void> {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: HERE, encoding: 'utf8' }).trim();
  const sha = git('rev-parse', '--verify', `${commit}^{commit}`);
  const head = git('rev-parse', 'HEAD');
  const dirty = git('status', '--porcelain', '--', 'src').length > 0;
  const dir = mkdtempSync(join(tmpdir(), 'flowscout-against-'));
  try {
    const other = join(dir, 'tree');
    mkdirSync(other);
    execFileSync('sh', ['-c', `git archive ${sha} src package.json tsconfig.json | tar -x -C "${other}"`], {
      cwd: HERE,
    });
    symlinkSync(join(HERE, 'node_modules'), join(other, 'node_modules'));
    console.log(
      `runtime overhead, instant tools, chain of 200 tool nodes: this checkout (${head.slice(0, 10)}${dirty ? ' + uncommitted changes' : ''}) against ${sha.slice(0, 10)}, ${rounds} rounds, one process per measurement`,
    );
    const rows: Array<{ here: ProbeResult; there: ProbeResult }> = [];
    for (let r = 0; r < rounds; r++) {
      // The order flips every round.
      let here: ProbeResult, there: ProbeResult;
      if (r % 2 === 0) {
        here = runProbe(HERE);
        there = runProbe(other);
      } else {
        there = runProbe(other);
        here = runProbe(HERE);
      }
      rows.push({ here, there });
      const cell = (p: ProbeResult) =>
        `interp ${p.interpreter.wallUs.toFixed(1)} (cpu ${p.interpreter.cpuUs.toFixed(1)}) · compiled ${p.compiled.wallUs.toFixed(1)} (cpu ${p.compiled.cpuUs.toFixed(1)})`;
      console.log(`  round ${r + 1}: this checkout ${cell(here)} | ${sha.slice(0, 10)} ${cell(there)}  µs/node`);
    }
    console.log('medians, µs per node (and as a share of a 1 ms call); ratio = this checkout / that commit');
    for (const runner of ['interpreter', 'compiled'] as const) {
      for (const what of ['wallUs', 'cpuUs'] as const) {
        const a = median(rows.map((x) => x.here[runner][what]));
        const b = median(rows.map((x) => x.there[runner][what]));
        const ratio = median(rows.map((x) => x.here[runner][what] / x.there[runner][what]));
        console.log(
          `  ${(runner === 'interpreter' ? 'interpreter' : 'compiled module').padEnd(16)} ${what === 'wallUs' ? 'wall' : 'CPU '}  this checkout ${a.toFixed(1)} µs (${(a / 10).toFixed(1)} %)  ${sha.slice(0, 10)} ${b.toFixed(1)} µs (${(b / 10).toFixed(1)} %)  ratio ${ratio.toFixed(2)} (median of per-round ratios)`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`runtime overhead benchmark (node ${process.version}, scripted policy, function tools)\n`);
  console.log('(a) executor overhead per node, chain of 200 tool nodes (+ plan and synthesize)');
  const w = chain(200);
  const runners: Array<[string, Runner]> = [
    ['interpreter', interpret],
    ['compiled module', await compiled(w)],
  ];
  // Warm up the JIT first: the first few dozen runs are several times slower than the steady state.
  for (const [, run] of runners) await overheadPerNode(run, w, 0, 40);
  await overheadPerNode(interpret, fanOut(32), 0, 40);
  for (const [name, run] of runners) {
    const instant = await overheadPerNode(run, w, 0, 31);
    const oneMs = await overheadPerNode(run, w, 1, 5);
    console.log(
      `  ${name.padEnd(16)} instant tools: ${(instant.perNode * 1000).toFixed(1)} µs/node = ${(instant.perNode / 1).toFixed(3)} of a 1 ms call` +
        ` | 1 ms tools: wall ${oneMs.wall.toFixed(0)} ms, in tools ${oneMs.inTools.toFixed(0)} ms, overhead ${(oneMs.perNode * 1000).toFixed(1)} µs/node = ${oneMs.perNode.toFixed(3)} of a 1 ms call` +
        ` | executor CPU (instant tools) ${(instant.cpuPerNode * 1000).toFixed(1)} µs/node = ${(instant.cpuPerNode * 100).toFixed(1)} % of a 1 ms call (goal < 5 %)` +
        ` | CPU with 1 ms tools, their timers included, ${(oneMs.cpuPerNode * 1000).toFixed(1)} µs/node`,
    );
  }

  console.log('\n(b) fan-out of 32 branches, each tool call waits 20 ms');
  const fan = fanOut(32);
  for (const concurrency of [1, 8, Infinity]) {
    const walls: number[] = [];
    for (let k = 0; k < 7; k++) {
      const tools = createToolRegistry([workTool(20, { ms: 0 })]);
      const t = performance.now();
      await executeWorkflow(fan, { query: 'q' }, { policy, tools, concurrency });
      walls.push(performance.now() - t);
    }
    const wall = median(walls);
    const ideal = Math.ceil(32 / Math.min(concurrency, 32)) * 20;
    const serial = 32 * 20;
    console.log(
      `  concurrency ${String(concurrency).padEnd(8)} wall ${wall.toFixed(1)} ms  ideal critical path ${ideal} ms  ` +
        `speed-up vs serial ${(serial / wall).toFixed(1)}x (ideal ${(serial / ideal).toFixed(0)}x)  efficiency ${((ideal / wall) * 100).toFixed(0)}%`,
    );
  }
}

if (argv.includes('--probe')) await probe();
else if (flag('--against') !== undefined) await against(flag('--against')!, Number(flag('--rounds') ?? 7));
else await main();
