import type { LlmNode } from '../graph/schema.js';
import type { ExecutionPolicy, PolicyContext } from '../policies/types.js';
import { errorMessage, isBudgetExhausted, type NodeStepResult } from './node-step.js';
import { isAbortError, raceAbort } from './semaphore.js';

/**
 * Runs an LLM node through the policy. Failure semantics: a policy that throws, or returns output of
 * the wrong shape, gives an `error` observation and the run continues (unguarded out-edges stay live;
 * field guards on the failed node are false). Two errors are thrown instead: cancellation (an
 * AbortError) and an exhausted budget (BUDGET_EXHAUSTED), which stops the whole run (run-state.ts, `startRun`).
 * A JSON node's output must be an object (a string holding a JSON object is parsed); a text node's
 * object output is kept as JSON text.
 */
export async function runLlmNodeStep(
  node: LlmNode,
  base: PolicyContext,
  policy: ExecutionPolicy,
): Promise<NodeStepResult> {
  let result;
  try {
    result = await raceAbort(policy.runLlmNode(Object.assign({}, base, { node })), base.signal);
  } catch (e) {
    if (isAbortError(e) || base.signal?.aborted || isBudgetExhausted(e)) throw e;
    return {
      status: 'error',
      error: `${policy.label} failed at llm node '${node.id}': ${errorMessage(e)}`,
      attempts: 1,
    };
  }
  const meta = {
    attempts: 1,
    ...(result.model !== undefined ? { model: result.model } : {}),
    ...(result.usage ? { usage: result.usage } : {}),
  };
  const output = result.output;
  if (node.output.type === 'json') {
    const obj = typeof output === 'string' ? parseObject(output) : output;
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
      return {
        status: 'error',
        error: `llm node '${node.id}' must return a JSON object, got ${describe(output)}`,
        ...meta,
      };
    }
    return { status: 'ok', output: obj, ...meta };
  }
  if (typeof output === 'string') return { status: 'ok', output, ...meta };
  return { status: 'ok', output: JSON.stringify(output) ?? '', ...meta };
}

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describe(v: unknown): string {
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v)}`;
  if (Array.isArray(v)) return 'an array';
  return v === null ? 'null' : typeof v;
}
