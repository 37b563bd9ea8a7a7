import type { prepareSearch } from '../../wiring/prepare-search.js';
import { labelsLine } from '../../search/format-search.js';
import { projectSearchCost, type CostProjection } from '../../search/project-cost.js';
import { DEFAULT_JUDGE_MODE } from '../../metrics/llm-judge.js';
import type { CliIO } from '../output.js';
import type { SearchFlags } from './search-flags.js';

/**
 * `flowscout search --dry-run`: the projected model requests, tokens and cost of a prepared search
 * (search/project-cost.ts: counted on the real LLM policy, judge and optimizer; by part, by judge
 * mode and per node of G0) and the write calls it would make, sending nothing
 * to a model and calling no live tool (reads included);
 * `projectionOf` also gives the `projected:` line every real search prints first.
 */

/** The projected cost of a prepared search (nothing is sent to a model). */
export async function projectionOf(
  prepared: Awaited<ReturnType<typeof prepareSearch>>,
  opts: { always?: boolean; keepRequests?: boolean } = {},
): Promise<CostProjection | undefined> {
  const m = prepared.models;
  if (m.policy === 'offline' && m.judge === 'offline' && m.optimizer === 'offline' && !opts.always) return undefined;
  const { input } = prepared;
  const done = input.persist ? input.persist.store.getRun(prepared.runId).iterationsDone : 0;
  return projectSearchCost({
    g0: input.g0,
    splits: input.splits,
    iterations: Math.max(0, input.settings.iterations - done),
    tools: input.tools,
    policy: m.policy,
    judge: m.judge,
    optimizer: m.optimizer,
    memo: input.memo !== false,
    judgeMode: prepared.config.judgeMode ?? DEFAULT_JUDGE_MODE,
    settings: input.settings,
    ...(opts.keepRequests ? { keepRequests: true } : {}),
    ...(m.price ? { price: m.price } : {}),
  });
}

/** `--dry-run`: the projection with its parts, and nothing else. */
export async function dryRun(
  prepared: Awaited<ReturnType<typeof prepareSearch>>,
  flags: Pick<SearchFlags, 'json'>,
  io: CliIO,
): Promise<void> {
  const p = await projectionOf(prepared);
  // Write calls are projected whoever decides: the offline runs count them as well.
  const writes = p ?? (await projectionOf(prepared, { always: true }));
  if (flags.json) {
    io.out(
      JSON.stringify(
        {
          dryRun: true,
          labels: prepared.labels,
          projection: p ?? null,
          writeCalls: writes?.writeCalls ?? null,
          liveToolCalls: writes?.liveToolCalls ?? { made: 0, answeredFromRecords: 0, notMade: 0 },
        },
        null,
        2,
      ),
    );
    return;
  }
  const { input } = prepared;
  io.out(
    `Dry run (nothing is sent to a model or a live tool): ${input.splits.opt.length} D_opt, ${input.splits.val.length} D_val, ${input.splits.test.length} D_test records; strategy ${prepared.config.strategy}, J=${input.settings.iterations}`,
  );
  io.out(labelsLine(prepared.labels));
  const live = writes?.liveToolCalls;
  if (live && live.answeredFromRecords + live.notMade > 0)
    io.out(
      `tool calls: none made; of G0's ${live.answeredFromRecords + live.notMade} calls to live tools on ${writes.sampled} D_opt records, ${live.answeredFromRecords} answered from the records' recorded responses, ${live.notMade} not made`,
    );
  const writeLine = writes ? writeCallsLine(writes, prepared.config.allowLiveWrites === true) : undefined;
  if (writeLine) io.out(writeLine);
  if (!p) {
    io.out('projected: no model requests (offline policy, judge and optimizer)');
    return;
  }
  io.out(projectionLine(p, prepared.models.priced));
  io.out(`  ${'part'.padEnd(100)}  requests  input tokens  output tokens`);
  for (const part of p.parts)
    io.out(
      `  ${part.label.padEnd(100)} ${String(part.requests).padStart(9)} ${String(part.inputTokens).padStart(13)} ${String(part.outputTokens).padStart(14)}`,
    );
  if (prepared.models.judge === 'llm') {
    const mode = (k: 'per-dimension' | 'joint') => {
      const j = p.judgeModes[k];
      return `${k}${k === p.judgeMode ? ' (this run)' : ''}: ${j.total.requests} requests, ${j.total.inputTokens} input tokens${j.costUsd !== undefined ? `, about $${j.costUsd.toFixed(2)}` : ''} (${j.perRecord.requests} judge request${j.perRecord.requests === 1 ? '' : 's'} and ${j.perRecord.inputTokens} input tokens a record)`;
    };
    io.out(`  by judge mode (--judge-mode): ${mode('per-dimension')}; ${mode('joint')}`);
  }
  io.out('  per node of G0, one query:');
  for (const [node, c] of Object.entries(p.perNode))
    io.out(
      `    ${node.padEnd(20)} ${String(c.requests).padStart(3)} requests  ${String(c.inputTokens).padStart(8)} input  ${String(c.outputTokens).padStart(6)} output tokens`,
    );
  io.out(
    `  A projection: the LLM policy, judge and optimizer build their requests on a model that sends nothing and answers as the offline ones decide; tokens are estimated at 4 characters a token. A model deciding otherwise, the bindings and hints the search learns, repair rounds, retries, duplicates and early stops are not foreseen; the start-up check adds one tiny request per model. Set a limit with --budget-usd / --budget-tokens.`,
  );
}

/** The one line a search prints before it starts (and `--dry-run` prints with its parts). */
export function projectionLine(p: CostProjection, priced: boolean): string {
  const cost =
    p.costUsd !== undefined
      ? `, about $${p.costUsd.toFixed(2)}`
      : priced
        ? ''
        : ', cost unknown (no price for the model)';
  const cached = p.total.cachedInputTokens
    ? ` (${p.total.cachedInputTokens} of the input tokens expected from the provider's prefix cache${p.costUsd !== undefined ? ', priced at its cached rate' : ''})`
    : '';
  return `projected: ${p.total.requests} model requests, ${p.total.inputTokens} input and ${p.total.outputTokens} output tokens${cost}${cached}; G0 measured on ${p.sampled} D_opt records: ${p.perQuery.requests} requests and ${p.perQuery.inputTokens} input tokens a query`;
}

/** The dry run's line about write calls, when the run would make any. */
function writeCallsLine(p: Pick<CostProjection, 'writeCalls'>, allowLiveWrites: boolean): string | undefined {
  if (p.writeCalls.total === 0) return undefined;
  const perQuery = Number.isInteger(p.writeCalls.perQuery)
    ? String(p.writeCalls.perQuery)
    : p.writeCalls.perQuery.toFixed(1);
  return `projected: ${p.writeCalls.total} write calls to live tools (${perQuery} a query; at most, before the memo); ${allowLiveWrites ? 'they would be SENT (--allow-live-writes)' : 'they would be answered from replay or refused, not sent (--allow-live-writes sends them)'}`;
}
