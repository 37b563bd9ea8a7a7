import { z } from 'zod';
import type { ToolDescriptor } from '../contracts/tools.js';
import type { LlmClient } from './client.js';

/**
 * An LLM tool simulator for replay misses (docs/DESIGN.md "Data formats"; docs/DESIGN.md, "Data formats" §5, StableToolBench's
 * approach): given the tool's documentation and up to 5 recorded calls of the same tool (at most
 * 2048 characters of examples), the model writes the response the real API would most plausibly
 * have returned, as `{error, response}`. The replay source tags such answers `simulated`; they are
 * never presented as real observations.
 */

export interface ToolExample {
  args: Record<string, unknown>;
  output: unknown;
}

export interface ToolSimulatorOptions {
  client: LlmClient;
  /** Examples used per call (default 5, as StableToolBench). */
  maxExamples?: number;
  /** Characters of examples (default 2048, as StableToolBench). */
  maxExampleChars?: number;
}

export interface ToolSimulator {
  /** The simulated response; throws when the simulated API reports an error (or the model fails). */
  simulate(
    tool: ToolDescriptor,
    args: Record<string, unknown>,
    examples: readonly ToolExample[],
    signal?: AbortSignal,
  ): Promise<unknown>;
}

const SimulatedSchema = z.object({
  error: z.string().describe('empty when the call succeeds; otherwise the error message the API would give'),
  response: z.unknown().describe('the response body the API would return'),
});

const SYSTEM =
  'You imitate a real web API. Given its documentation, some real calls with their responses, and a new call, ' +
  'return the response that API would most plausibly give for the new call: same structure, field names and ' +
  'style as the examples, values consistent with the arguments. Do not explain. Reply with JSON {"error": "", "response": …}; ' +
  'put a message in "error" only if the arguments are invalid for this API.';

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The prompt for one simulated call. */
export function renderSimulationPrompt(
  tool: ToolDescriptor,
  args: Record<string, unknown>,
  examples: readonly ToolExample[],
  maxExamples = 5,
  maxChars = 2048,
): string {
  const shown: string[] = [];
  let used = 0;
  for (const ex of examples.slice(0, maxExamples)) {
    const item = `Arguments: ${JSON.stringify(ex.args)}\nResponse: ${text(ex.output)}`;
    if (used + item.length > maxChars) {
      if (shown.length === 0) shown.push(item.slice(0, maxChars));
      break;
    }
    shown.push(item);
    used += item.length;
  }
  return [
    `API name: ${tool.name}`,
    `Documentation:\n${tool.description}`,
    `Input schema: ${JSON.stringify(tool.inputSchema)}`,
    shown.length > 0 ? `Real calls of this API:\n${shown.join('\n\n')}` : 'No real calls of this API were recorded.',
    `New call arguments: ${JSON.stringify(args)}`,
  ].join('\n\n');
}

/** Creates a simulator whose `simulate` fits the replay source's `simulate` option. */
export function createToolSimulator(options: ToolSimulatorOptions): ToolSimulator {
  return {
    async simulate(tool, args, examples, signal) {
      const prompt = renderSimulationPrompt(
        tool,
        args,
        examples,
        options.maxExamples ?? 5,
        options.maxExampleChars ?? 2048,
      );
      const r = await options.client.object({
        schema: SimulatedSchema,
        name: 'api_response',
        system: SYSTEM,
        prompt,
        ...(signal ? { signal } : {}),
      });
      if (r.value.error.trim()) throw new Error(`simulated API error: ${r.value.error.trim()}`);
      return r.value.response;
    },
  };
}
