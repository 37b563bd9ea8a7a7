import { existsSync } from 'node:fs';
import { Option, type Command } from '@commander-js/extra-typings';
import { FlowScoutError } from '../../errors/index.js';
import { assertValidWorkflow } from '../../graph/validate.js';
import { createBudget } from '../../llm/budget.js';
import { createCircuitBreaker } from '../../llm/circuit-breaker.js';
import { createToolSimulator, type ToolSimulator } from '../../llm/simulate-tool.js';
import { defaultModelSpec, parseModelSpec } from '../../llm/model-spec.js';
import { stableStringify } from '../../contracts/canonical-args.js';
import { executeWorkflow } from '../../runtime/execute.js';
import { UNGROUNDED_CALL_PREFIX } from '../../runtime/grounding.js';
import { isBudgetExhausted } from '../../runtime/node-step.js';
import type { Trace } from '../../runtime/trace.js';
import { traceToJson } from '../../runtime/trace-file.js';
import { DEFAULT_MAX_OUTPUT_CHARS } from '../../runtime/output-bound.js';
import { loadToolConfig } from '../../tools/load-tool-config.js';
import type { ToolRegistry } from '../../contracts/tools.js';
import { clip } from '../../util/clip.js';
import { readJsonFile, writeTextFile } from '../../util/json-file.js';
import { createModelWiring } from '../../wiring/wire-models.js';
import { learnedLine, learnFromRemoved } from '../learned-note.js';
import { addModelFlags, modelCallOptions } from '../model-flags.js';
import { ExitWith, type CliIO } from '../output.js';
import { wholeNumberArg } from '../parse-number.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout run <workflow.json> --tools <config> --query "…" [--model …] [--trace out.json] [--json]`:
 * runs a workflow on one query over the tools of a tool config and prints the answer, the calls made
 * (π̂) and which policy produced them — the offline policy unless a model is configured, and always
 * named. Ctrl-C (or SIGTERM) cancels the run cleanly. Exit 0 when the run ends ok, 1 when it ends in
 * error, 4 when a model budget (`--budget-calls`, `--budget-tokens`, `--budget-usd`) runs out, which
 * stops the run. Model retries are printed on stderr as they happen; `--model-timeout` bounds each
 * request, so a model that never answers ends the run within timeout × attempts.
 */

/** Registers `flowscout run` (see above). */
export const registerRun: RegisterCommand = (program: Command, io: CliIO) => {
  const cmd = program
    .command('run')
    .description('run a workflow on one query over real tools and print the answer, the calls and the policy')
    .argument('<workflow>', 'a workflow JSON file')
    .requiredOption('--tools <config>', 'a tool config: {"version": 1, "sources": [...]} (replay, functions, MCP)')
    .requiredOption('--query <text>', 'the question to answer')
    .option(
      '--model <spec>',
      'who decides at each node: "offline" (default without FLOWSCOUT_MODEL) or a model such as openai:gpt-4o-mini',
    )
    .option('--trace <file>', 'write the full trace (observations, calls, totals) as JSON')
    .option('--force', 'overwrite the --trace file if it exists')
    .option('--json', 'print the trace as JSON instead of a summary')
    .option(
      '--concurrency <n>',
      'nodes running at once, and model requests in flight (default 4)',
      positiveNumberArg('--concurrency'),
    )
    .option(
      '--context-chars <n>',
      'characters of context per node (default 8000)',
      positiveNumberArg('--context-chars'),
    )
    .option(
      '--max-output-chars <n>',
      `characters of one tool output the run keeps; a longer one is cut with a marker saying where and how much (default ${DEFAULT_MAX_OUTPUT_CHARS})`,
      positiveNumberArg('--max-output-chars'),
    )
    .option('--timeout <ms>', 'per tool call timeout in milliseconds', positiveNumberArg('--timeout'))
    .addOption(new Option('--learn-from <records>').hideHelp())
    .option('--budget-calls <n>', 'stop the run after this many LLM requests', wholeNumberArg('--budget-calls', 0))
    .option('--budget-tokens <n>', 'stop the run after this many tokens', wholeNumberArg('--budget-tokens', 0))
    .option('--budget-usd <x>', 'stop the run after spending this much (USD)', positiveNumberArg('--budget-usd'));
  addModelFlags(cmd).action(async (file, opts) => {
    if (opts.learnFrom !== undefined) throw learnFromRemoved();
    if (opts.query.trim() === '')
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: '--query is empty',
        hint: 'Pass the request to answer, e.g. --query "Weather in Oslo tomorrow?"',
      });
    const raw = readJsonFile(file);
    const calls = modelCallOptions(opts, io);
    if (opts.trace && !opts.force && existsSync(opts.trace)) writeTextFile(opts.trace, '', { force: false }); // fails before running: nothing is overwritten
    const spec = (opts.model?.trim() || defaultModelSpec()).trim();
    const offline = parseModelSpec(spec).provider === 'offline';
    // Replay misses can be simulated only with a model; the simulator is built once the model is resolved.
    let simulator: ToolSimulator | undefined;
    const registry = await loadToolConfig(opts.tools, {
      warn: (line) => io.err(line),
      ...(offline
        ? {}
        : { simulate: (tool, args, examples, signal) => simulator!.simulate(tool, args, examples, signal) }),
    });
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    process.once('SIGTERM', onSigint);
    try {
      const tools = registry.list();
      const workflow = assertValidWorkflow(raw, tools, file);
      const budget = createBudget({
        ...given('maxLlmCalls', opts.budgetCalls),
        ...given('maxTokens', opts.budgetTokens),
        ...given('maxCostUsd', opts.budgetUsd),
      });
      // One rate limiter, sized by --concurrency (default 4), for the policy's and the simulator's requests.
      // A model that gave no answer at all (every attempt timed out or could not connect) would not
      // answer the next node either: the run stops at once with that error instead.
      const breaker = createCircuitBreaker({ threshold: 1, kinds: ['timeout', 'network'] });
      const models = createModelWiring({
        budget,
        breaker,
        log: calls.log,
        ...(calls.timeoutMs !== undefined ? { timeoutMs: calls.timeoutMs } : {}),
        limits: { concurrency: opts.concurrency ?? 4 },
      });
      const resolved = await models.policy(spec, { tools });
      if (resolved.client) simulator = createToolSimulator({ client: resolved.client });
      let trace: Trace;
      try {
        trace = await executeWorkflow(
          workflow,
          { query: opts.query },
          {
            policy: resolved.instance,
            tools: registry,
            signal: controller.signal,
            ...given('concurrency', opts.concurrency),
            ...given('contextChars', opts.contextChars),
            ...given('maxOutputChars', opts.maxOutputChars),
            ...given('callTimeoutMs', opts.timeout),
          },
        );
      } catch (e) {
        if (!isBudgetExhausted(e)) throw e;
        if (e.code !== 'BUDGET_EXHAUSTED') throw e;
        io.err(`run stopped: ${e.message}; the run has no answer.`);
        io.err(
          '  hint: raise the budget (--budget-calls, --budget-tokens, --budget-usd) or leave it unset to let the run finish.',
        );
        throw new ExitWith(4);
      }
      if (opts.trace) writeTextFile(opts.trace, `${traceToJson(trace)}\n`, { force: opts.force });
      if (opts.json) io.out(traceToJson(trace, { toolStats: registry.stats() }));
      else io.out(formatRun(trace, registry, opts.trace, learnedLine(resolved.instance.kind, workflow, raw)));
      if (trace.status === 'error') throw new ExitWith(trace.error === 'cancelled' ? 130 : 1);
    } finally {
      process.removeListener('SIGINT', onSigint);
      process.removeListener('SIGTERM', onSigint);
      await registry.close();
    }
  });
};

/** The human summary of a run: answer, calls, per-node status, policy and totals. */
/** Skipped nodes named in `run`'s summary line; the trace lists them all. */
const SKIPPED_SHOWN = 8;

export function formatRun(trace: Trace, registry: ToolRegistry, traceFile?: string, learned?: string): string {
  const lines: string[] = [];
  lines.push(`policy: ${trace.policy}`);
  if (learned) lines.push(learned);
  if (trace.status === 'error') lines.push(`run failed: ${trace.error}`);
  const withheld = trace.withheld ?? [];
  if (withheld.length > 0) {
    // "write calls" while only writes were withheld; "calls" once a read was (an ungrounded identifier).
    const kind = withheld.some((w) => w.why.startsWith(UNGROUNDED_CALL_PREFIX)) ? 'call' : 'write call';
    lines.push(`status: ${withheld.length} ${kind}${withheld.length === 1 ? '' : 's'} withheld (not made):`);
    for (const w of withheld) lines.push(`  ${w.tool} ${stableStringify(w.args)} — ${w.why}`);
  }
  lines.push('', 'answer:', ...indent(trace.answer || '(no answer)'), '');
  lines.push(`calls (${trace.calls.length}):`);
  trace.calls.forEach((c, i) => {
    const origin = trace.observations
      .flatMap((o) => o.calls ?? [])
      .find((x) => x.tool === c.tool && x.args === c.args)?.origin;
    const result =
      c.status === 'ok'
        ? `ok${origin ? ` (${origin})` : ''}: ${preview(c.output)}`
        : `error: ${findError(trace, c) ?? 'failed'}`;
    lines.push(`  ${i + 1}. ${c.tool} ${stableStringify(c.args)} → ${result}`);
  });
  if (trace.calls.length === 0) lines.push('  (none)');
  lines.push('', 'nodes:');
  // Nodes that ran get a line each; skipped ones (a router's branches not taken) one line together.
  const skipped: string[] = [];
  for (const o of trace.observations) {
    if (o.status === 'skipped') {
      skipped.push(o.nodeId);
      continue;
    }
    const extra = ` ${o.durationMs.toFixed(0)} ms${o.attempts > 1 ? `, ${o.attempts} attempts` : ''}${o.error ? ` — ${preview(o.error, 140)}` : ''}`;
    lines.push(`  ${o.nodeId.padEnd(18)} ${o.kind.padEnd(4)} ${o.status}${extra}`);
  }
  if (skipped.length) {
    const shown = skipped.slice(0, SKIPPED_SHOWN).join(', ');
    lines.push(
      `  ${skipped.length} skipped: ${shown}${skipped.length > SKIPPED_SHOWN ? `, … and ${skipped.length - SKIPPED_SHOWN} more (all in the trace: --trace <file>)` : ''}`,
    );
  }
  const s = registry.stats();
  const t = trace.totals;
  const replay =
    s.replayHits + s.replayMisses + s.simulated > 0
      ? `; replay: ${s.replayHits} hits, ${s.replayMisses} misses, ${s.simulated} simulated`
      : '';
  const llm =
    t.llmCalls > 0
      ? `; LLM: ${t.llmCalls} calls, ${t.inputTokens}+${t.outputTokens} tokens, $${t.costUsd.toFixed(4)}`
      : '';
  lines.push(
    '',
    `totals: ${t.nodes} nodes run, ${t.skipped} skipped, tool calls: ${t.toolCalls}${replay}${llm}; ${t.durationMs.toFixed(0)} ms`,
  );
  if (traceFile) lines.push(`trace written to ${traceFile}`);
  return lines.join('\n');
}

function findError(trace: Trace, call: Trace['calls'][number]): string | undefined {
  return trace.observations
    .flatMap((o) => o.calls ?? [])
    .find((x) => x.tool === call.tool && x.args === call.args && x.status === 'error')?.error;
}

function preview(value: unknown, max = 160): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return clip(text, max, { markerAfterMax: true });
}

function indent(text: string): string[] {
  return text.split('\n').map((l) => `  ${l}`);
}

/** A flag's value as a number > 0, or INVALID_INPUT naming the flag (a commander argument parser). */
function positiveNumberArg(flag: string): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `${flag} must be a positive number (got '${text}')`,
        hint: `Pass e.g. ${flag} 4.`,
      });
    }
    return n;
  };
}

/** `{ [key]: value }` when the flag was given, else nothing. */
function given<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Partial<Record<K, number>>);
}
