import type { ToolRegistry } from '../contracts/tools.js';
import type { ToolNode, Workflow } from '../graph/schema.js';
import { groundedWritesCheck, isWithheldByGrounding } from './grounding.js';
import { recordRunCall } from './grounding-sources.js';
import type { PreCallRequest } from './pre-call.js';

/**
 * How false withholds are measured: the calls of a record made by a real agent (a reference run,
 * legitimate by construction) are replayed in order through the pre-call check of grounding, each
 * with the record's request and the outputs of the record's earlier calls, as a run would see them.
 * A call the check would withhold is a false withhold. Every earlier ok call counts as made (the
 * recorded history), so each call is judged on its own and one withhold does not hide the next.
 */

/** A recorded call, as a record holds it. */
export interface RecordedCall {
  tool: string;
  args: Record<string, unknown>;
  status?: 'ok' | 'error';
  output?: unknown;
}

/** What the check decided on one recorded call. */
export interface RecordedCallDecision {
  tool: string;
  args: Record<string, unknown>;
  /** The observation the check would give instead of making the call; absent: the call is made. */
  withheld?: string;
}

const NODE: ToolNode = { id: 'replayed', kind: 'tool', task: 'replay the recorded calls', calls: 'many' };

/**
 * Replays `calls` through grounding's pre-call check over `tools` (see the module comment); with
 * `workflow`, the node is its tool node `nodeId` (default: the first), so its hints are read.
 */
export async function checkRecordedCalls(
  query: string,
  calls: readonly RecordedCall[],
  tools: ToolRegistry,
  opts: { workflow?: Workflow; nodeId?: string } = {},
): Promise<RecordedCallDecision[]> {
  const workflow: Workflow = opts.workflow ?? { version: 1, name: 'replay', nodes: [NODE], edges: [] };
  const node =
    workflow.nodes.find(
      (n): n is ToolNode => n.kind === 'tool' && (opts.nodeId === undefined || n.id === opts.nodeId),
    ) ?? NODE;
  const check = groundedWritesCheck(tools);
  const scratch = new Map<string, unknown>();
  const out: RecordedCallDecision[] = [];
  for (const c of calls) {
    const tool = tools.get(c.tool);
    if (!tool) {
      out.push({ tool: c.tool, args: c.args });
      continue;
    }
    const req: PreCallRequest = {
      query,
      workflow,
      inputs: [],
      context: query,
      scratch,
      node,
      attempt: 1,
      tool,
      args: c.args,
    };
    const decision = await check(req);
    const error =
      decision && 'withhold' in decision && decision.withhold.status === 'error' ? decision.withhold.error : undefined;
    out.push(
      isWithheldByGrounding(error) ? { tool: c.tool, args: c.args, withheld: error! } : { tool: c.tool, args: c.args },
    );
    if (c.status !== 'error' && c.output !== undefined)
      recordRunCall(scratch, {
        tool: c.tool,
        args: c.args,
        status: 'ok',
        output: c.output,
        durationMs: 0,
        attempt: 1,
        origin: 'replay',
      });
  }
  return out;
}
