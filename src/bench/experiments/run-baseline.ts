import { createModelWiring } from '../../wiring/wire-models.js';
import { createPm4pyBaseline } from '../baselines/pm4py-style.js';
import { reactAgent } from './react-agent.js';
import type { SplitBy } from '../../records/split.js';
import { prepareDomain, type DomainFiles } from './domain-env.js';
import { measureApproach, type Subject } from './measure.js';
import type { ApproachResult } from './results.js';
import { runVariant } from './search-variants.js';
import { isGuarded, type WriteGuardReport } from '../../tools/write-guard.js';

/**
 * One baseline on your records, as `flowscout bench` runs it (same 5:2:3 split, seed, policy, judge
 * and measurement): the PM4Py-style tree executor (the inductive miner's tree over D_opt), ReAct
 * (the AI SDK tool loop with a model, the part-by-part loop offline), or LLM-only (an AFlow-style
 * search with tool nodes forbidden, `iterations` long), measured on the first `maxTest` of D_test.
 */

export const BASELINES = ['react', 'pm4py-style', 'llm-only'] as const;
export type BaselineName = (typeof BASELINES)[number];

export interface BaselineOptions {
  files: DomainFiles;
  /** `--allow-live-writes`: write calls go to live tools (default: answered from the records' replay or refused). */
  allowLiveWrites?: boolean;
  model?: string;
  judgeModel?: string;
  seed: number;
  runs: number;
  maxTest: number;
  iterations: number;
  patience: number;
  concurrency: number;
  /** `--split-by` (default auto: by group when the records have groups). */
  splitBy?: SplitBy;
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
}

export interface BaselineRun {
  result: ApproachResult;
  /** What the write guard did with write calls to live tools (a `--records/--tools` domain whose tools are guarded). */
  writeCalls?: WriteGuardReport;
  split: { opt: number; val: number; test: number; measured: number; by: 'record' | 'group'; note: string };
  labels: { policy: string; judge: string; offline: boolean };
}

export async function runBaseline(name: BaselineName, o: BaselineOptions): Promise<BaselineRun> {
  const env = o.env ?? process.env;
  const log = o.log ?? (() => {});
  // One rate limiter, sized by --concurrency, for every model request (as bench).
  const wiring = createModelWiring({ limits: { concurrency: o.concurrency }, env });
  const model = wiring.chosen(o.model);
  const judge = await wiring.judge(wiring.chosen(o.judgeModel ?? model));
  const dom = await prepareDomain(o.files, {
    seed: o.seed,
    maxTest: o.maxTest,
    model,
    wiring,
    ...(o.splitBy ? { splitBy: o.splitBy } : {}),
    ...(o.allowLiveWrites ? { allowLiveWrites: true } : {}),
  });
  try {
    const offline = dom.policy.instance.kind === 'offline' ? ' (offline)' : '';
    let subject: Subject;
    if (name === 'pm4py-style') {
      subject = {
        id: 'pm4py',
        label: `PM4Py-style${offline}`,
        tcDefined: true,
        kind: 'agent',
        agent: createPm4pyBaseline({
          tree: dom.tree,
          opt: dom.split.opt,
          tools: dom.tools,
          policy: dom.policy.instance,
        }),
      };
    } else if (name === 'react') {
      subject = {
        id: 'react',
        label: `ReAct${offline}`,
        tcDefined: true,
        kind: 'agent',
        agent: await reactAgent(dom, model, wiring),
      };
    } else {
      const optimizer = (await wiring.optimizer(model)).instance;
      log(`LLM-only: searching ${o.iterations} iterations from plan → reason → synthesize (no tool nodes)`);
      const run = await runVariant('llm-only', dom, {
        seed: o.seed,
        iterations: o.iterations,
        patience: o.patience,
        concurrency: o.concurrency,
        judge: judge.instance,
        optimizer,
      });
      subject = {
        id: 'llm-only',
        label: `LLM-only${offline}`,
        tcDefined: false,
        kind: 'workflow',
        workflow: run.result.best.workflow!,
      };
    }
    const result = await measureApproach(subject, dom.test, {
      policy: dom.policy.instance,
      tools: dom.tools,
      judge: judge.instance,
      runs: o.runs,
      concurrency: o.concurrency,
    });
    return {
      result,
      ...(isGuarded(dom.tools) ? { writeCalls: dom.tools.writeGuard() } : {}),
      split: {
        opt: dom.split.opt.length,
        val: dom.split.val.length,
        test: dom.split.test.length,
        measured: dom.test.length,
        by: dom.splitBy,
        note: dom.splitNote,
      },
      labels: {
        policy: dom.policy.label,
        judge: judge.label,
        offline: dom.policy.instance.kind === 'offline' && judge.instance.kind === 'offline',
      },
    };
  } finally {
    await dom.tools.close();
  }
}
