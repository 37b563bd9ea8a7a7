import type { LlmNode } from '../graph/schema.js';
import { schemaDefaults } from '../policies/schema-defaults.js';
import type {
  ExecutionPolicy,
  LlmNodeRequest,
  LlmNodeResult,
  PlannedCall,
  ToolPlanRequest,
  ToolPlanResult,
} from '../policies/types.js';

/**
 * A policy whose decisions are plain functions — for testing workflows without a model, the way the
 * AI SDK's mock model tests code that calls a model. Labelled "scripted policy (tests)" so a scripted
 * run is never mistaken for an LLM or offline result.
 *
 * Defaults when a function is not given: an LLM node answers `schemaDefaults` of its JSON schema
 * (policies/schema-defaults.ts, the oracle's defaults), or
 * the text `<id>: <ids of its inputs>`; a tool node calls its first candidate with `{}`.
 */
export interface ScriptedPolicyScript {
  id?: string;
  label?: string;
  /** Answers an LLM node: its output, or a full result (with model and usage). */
  llm?: (
    req: LlmNodeRequest,
  ) => LlmNodeResult['output'] | LlmNodeResult | Promise<LlmNodeResult['output'] | LlmNodeResult>;
  /** Plans a tool node: the calls, or a full result. */
  tool?: (req: ToolPlanRequest) => PlannedCall[] | ToolPlanResult | Promise<PlannedCall[] | ToolPlanResult>;
}

/** Builds a scripted policy (see `ScriptedPolicyScript`). */
export function createScriptedPolicy(script: ScriptedPolicyScript = {}): ExecutionPolicy {
  return {
    id: script.id ?? 'scripted',
    kind: 'offline',
    label: script.label ?? 'scripted policy (tests)',
    async runLlmNode(req) {
      if (!script.llm)
        return {
          output: defaultLlmOutput(
            req.node,
            req.inputs.map((i) => i.nodeId),
          ),
          model: 'scripted',
        };
      const out = await script.llm(req);
      return isLlmResult(out) ? out : { output: out, model: 'scripted' };
    },
    async planToolCalls(req) {
      if (!script.tool) return { calls: req.candidates[0] ? [{ tool: req.candidates[0].name, args: {} }] : [] };
      const out = await script.tool(req);
      return Array.isArray(out) ? { calls: out } : out;
    },
  };
}

/** The output a scripted LLM node gives by default. */
export function defaultLlmOutput(node: LlmNode, inputIds: readonly string[]): string | Record<string, unknown> {
  if (node.output.type === 'json') return schemaDefaults(node.output.schema);
  return `${node.id}: ${inputIds.join(', ')}`;
}

function isLlmResult(v: unknown): v is LlmNodeResult {
  return (
    typeof v === 'object' &&
    v !== null &&
    'output' in v &&
    Object.keys(v).every((k) => k === 'output' || k === 'model' || k === 'usage')
  );
}
