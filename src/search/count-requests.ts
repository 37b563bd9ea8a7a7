import type { Workflow } from '../graph/schema.js';
import type { Price } from '../llm/prices.js';
import type { ModelProvider } from '../llm/model-spec.js';
import type { ToolRegistry } from '../contracts/tools.js';
import type { SearchSettings } from './search-context.js';
import { createLexicalJudge } from '../metrics/lexical-judge.js';
import { createLlmJudge, JUDGE_MODES, type JudgeMode } from '../metrics/llm-judge.js';
import { ES_DIMENSIONS, type Judge } from '../metrics/types.js';
import { createLlmClient } from '../llm/client.js';
import { wholePlan } from '../policies/whole-plan.js';
import { answeringWith, createCountingModel, type CountingModel } from '../llm/counting-model.js';
import { createRateLimiter } from '../llm/rate-limiter.js';
import { createLlmPolicy } from '../policies/llm-policy.js';
import { createOfflinePolicy } from '../policies/offline/offline-policy.js';
import type { ExecutionPolicy } from '../policies/types.js';
import type { TaskRecord } from '../records/schema.js';
import { withoutLiveCalls } from '../tools/no-live-calls.js';
import { evaluateWorkflow } from '../evaluate/evaluate.js';
import type { WorkflowEvaluation } from '../evaluate/types.js';
import { createRandom } from '../util/random.js';
import { createLlmOptimizer } from './optimizers/llm-optimizer.js';
import { createRuleBasedOptimizer } from './optimizers/rule-based.js';

export interface ProjectionInput {
  g0: Workflow;
  splits: { opt: readonly TaskRecord[]; val: readonly TaskRecord[]; test: readonly TaskRecord[] };
  /** J. */
  iterations: number;
  tools: ToolRegistry;
  /** Which parts call a model. */
  policy: 'llm' | 'offline';
  judge: 'llm' | 'offline';
  optimizer: 'llm' | 'offline';
  /** Shortlist size of the LLM policy (default DEFAULT_SHORTLIST_SIZE; 0 = every candidate). */
  shortlist?: number;
  /** Whether the node memo is on (default true). */
  memo?: boolean;
  /** D_opt records G0 is measured on (default 5). */
  sample?: number;
  /** The policy model's price, when known. */
  price?: Price;
  /** How the LLM judge asks (default DEFAULT_JUDGE_MODE); the projection gives both modes. */
  judgeMode?: JudgeMode;
  /** Keep every counted request in the result (`requests`; benchmarks and tests read them). */
  keepRequests?: boolean;
  /** The provider of the model (how a request is laid out; default openai). */
  provider?: ModelProvider;
  /** Racing and the record caps of the search (absent: no racing, no caps). */
  settings?: Pick<SearchSettings, 'racing' | 'maxOpt' | 'maxVal' | 'maxTest'>;
}

/** How many LLM optimizer proposals the projection counts (their mean is one iteration's). */
export const OPTIMIZER_SAMPLE = 2;

/**
 * The counting half of the cost projection (project-cost.ts): the real LLM policy runs G0 on
 * `sample`, the real LLM judge (both modes) scores `judged`, and the real LLM optimizer proposes
 * `OPTIMIZER_SAMPLE` times, all on a counting model that sends nothing and answers what the offline
 * policy, the lexical judge and the rule-based optimizer decide. Returns the model (its counted
 * requests), G0's evaluation on the sample and the tools it ran on (their live-call counts).
 */
export async function countRequests(
  input: ProjectionInput,
  sample: readonly TaskRecord[],
  judged: readonly TaskRecord[],
): Promise<{ model: CountingModel; evaluation: WorkflowEvaluation; tools: ReturnType<typeof withoutLiveCalls> }> {
  const descriptors = input.tools.list();
  const model = createCountingModel({ provider: input.provider ?? 'openai', modelId: 'projection' });
  const client = createLlmClient({
    model: {
      spec: 'projection',
      provider: input.provider ?? 'openai',
      modelId: 'projection',
      model,
      supportsLogprobs: false,
      scrub: (text) => text,
    },
    limiter: createRateLimiter({ concurrency: 1 }),
  });
  // The real LLM policy decides on the counting model, which answers what the offline policy decides;
  // a synthesize node answers with the record's reference (an LLM's answer is about that long).
  const offline = createOfflinePolicy({ tools: descriptors });
  const llm = createLlmPolicy({
    client,
    tools: descriptors,
    ...(input.shortlist !== undefined ? { shortlist: input.shortlist } : {}),
  });
  const references = new Map(sample.map((r) => [r.query, r.reference]));
  const asked: ExecutionPolicy = {
    ...llm,
    async runLlmNode(req) {
      const r = await offline.runLlmNode(req);
      const reference = req.node.role === 'synthesize' ? references.get(req.query) : undefined;
      const answer = reference || (typeof r.output === 'string' ? r.output : JSON.stringify(r.output));
      return answeringWith({ role: `policy:${req.node.id}`, group: req.query }, answer, () => llm.runLlmNode(req));
    },
    async planToolCalls(req) {
      const r = await offline.planToolCalls(req);
      // A model plans a step's calls in one answer: the offline plan's rest belongs in it.
      const calls = await wholePlan(r, req.node.id);
      const answer = JSON.stringify({ calls: calls.map((c) => ({ tool: c.tool, args: c.args })) });
      return answeringWith({ role: `policy:${req.node.id}`, group: req.query }, answer, () => llm.planToolCalls(req));
    },
  };
  // No live tool is called, reads included: the records' recorded responses answer what they can,
  // the rest is not made (tools/no-live-calls.ts); write calls are counted all the same.
  const tools = withoutLiveCalls(
    input.tools,
    [...input.splits.opt, ...input.splits.val, ...input.splits.test],
    'the projection calls no live tool',
  );
  const evaluation = await evaluateWorkflow(input.g0, sample, {
    policy: asked,
    tools,
    judge: createLexicalJudge(),
    concurrency: 1,
  });
  // The real LLM judge, in both modes, answering what the lexical judge scores, on every record the
  // run judges that has a reference answer (the candidate answer taken to be as long as the reference,
  // as the synthesize node's is above). Judge requests are cheap to build, so they are counted on
  // all of them, not on the sample.
  if (input.judge === 'llm') {
    const lexical = createLexicalJudge();
    const judges = Object.fromEntries(
      JUDGE_MODES.map((mode) => [mode, createLlmJudge({ client, mode, topLogprobs: 0 })]),
    ) as Record<JudgeMode, Judge>;
    const digit = (s: number) => Math.min(5, Math.max(1, Math.round(1 + 4 * s)));
    for (const record of judged) {
      if (!record.reference.trim()) continue;
      const req = { query: record.query, reference: record.reference, answer: record.reference };
      const lex = await lexical.score(req);
      const group = `record ${record.id}`;
      await answeringWith({ role: 'judge:per-dimension', group }, String(digit(lex.es)), () =>
        judges['per-dimension'].score(req),
      );
      const joint = JSON.stringify(Object.fromEntries(ES_DIMENSIONS.map((d) => [d, digit(lex[d])])));
      await answeringWith({ role: 'judge:joint', group }, joint, () => judges.joint.score(req));
    }
  }
  // The real LLM optimizer, answering what the rule-based optimizer proposes: once from G0 and once
  // from the candidate that proposal made (another workflow, as the search's next expansions see).
  if (input.optimizer === 'llm' && evaluation.feedback) {
    const rules = createRuleBasedOptimizer();
    const optimizer = createLlmOptimizer({ client });
    let workflow = input.g0;
    for (let i = 0; i < OPTIMIZER_SAMPLE; i++) {
      const propose = {
        workflow,
        feedback: evaluation.feedback,
        siblings: [],
        tools: descriptors,
        random: createRandom(`projection:${i}`),
        toolNodesAllowed: true,
      };
      const plan = await rules.propose(propose).then(
        (p) => p.plan,
        () => ({ edits: [] }),
      );
      const got = await answeringWith({ role: 'optimizer', group: `proposal ${i}` }, JSON.stringify(plan), () =>
        optimizer.propose(propose),
      ).catch(() => undefined);
      if (got) workflow = got.workflow;
    }
  }
  return { model, evaluation, tools };
}
