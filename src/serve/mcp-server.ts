import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { redactText } from '../util/redact.js';
import { z } from 'zod';
import { FlowScoutError, toFlowScoutError, type ErrorShape } from '../errors/index.js';
import type { NodeObservation, Trace } from '../runtime/trace.js';
import { withoutNodeIds } from './customer-answer.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, runWithinTimeout } from './request-timeout.js';
import {
  failureText,
  servedResult,
  type ServedResult,
  type ServedRun,
  type WorkflowService,
} from './workflow-service.js';

/**
 * A workflow as an MCP tool (the official SDK's `McpServer`): one tool, named after the workflow,
 * whose input is `{ query }` and whose result is the answer as text plus structured content with the
 * calls made and per-node status and timings. A run that fails (its exit node failed or was skipped,
 * it was cancelled, the query is bad, a budget ran out) is an MCP tool error (`isError`) whose text
 * gives the reason; the server itself keeps serving. Calls are served concurrently, bounded by the
 * service (workflow-service.ts). A call runs under the request timeout (`serve --timeout`, the same
 * as `POST /run`, request-timeout.ts): past it the run is cancelled and the call answers at once with
 * a tool error carrying the `TIMEOUT` error shape; a client that cancels the call or goes away
 * (the SDK's `extra.signal`) cancels the run too.
 *
 * While a call runs, a client that sent a `progressToken` gets a progress notification as each
 * node of the workflow is resolved (`progress` of `total` nodes, a message naming the tools
 * called, never a node id), and every client gets log messages through MCP logging
 * (`notifications/message`, logger `flowscout`): a warning per step that failed, and one line when
 * the run ends. Over Streamable HTTP they come on the call's event stream (http-server.ts).
 */

export interface WorkflowToolInfo {
  /** The tool name (letters, digits, `_` and `-`, at most 64). */
  name: string;
  description: string;
}

/** An MCP tool name from a workflow name: lower case, runs of other characters as `_`, at most 64. */
export function toolNameFor(workflowName: string): string {
  const name = workflowName
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return name || 'workflow';
}

/** Checks a `--name` given by the user. */
export function checkToolName(name: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `'${name}' cannot name an MCP tool: use 1 to 64 letters, digits, '_' or '-'`,
      hint: `Pass e.g. --name ${toolNameFor(name)}.`,
    });
  }
  return name;
}

const CallShape = z.object({
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  status: z.enum(['ok', 'error']),
});
const NodeShape = z.object({
  id: z.string(),
  kind: z.enum(['llm', 'tool']),
  status: z.enum(['ok', 'error', 'skipped']),
  durationMs: z.number(),
  attempts: z.number(),
  error: z.string().optional(),
});

const WithheldShape = z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });

/** The structured content of a successful call (also sent with a failed run's error, when there is a trace). */
export const WORKFLOW_TOOL_OUTPUT = {
  answer: z.string().describe('the workflow’s answer'),
  status: z.enum(['ok', 'error']),
  error: z.string().optional(),
  unserved: z
    .array(z.string())
    .optional()
    .describe('the parts of the request the run could not serve, in the request’s words'),
  policy: z.string().describe('who decided at each node (the model, or the offline policy)'),
  workflow: z.string(),
  calls: z.array(CallShape).describe('every tool call the run made, in order'),
  nodes: z.array(NodeShape).describe('each workflow node: status, time in ms, attempts'),
  usage: z.object({
    llmCalls: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    costUsd: z.number(),
    toolCalls: z.number(),
    durationMs: z.number(),
  }),
  pending: z
    .array(WithheldShape)
    .optional()
    .describe('destructive calls not made, awaiting approval (serve --allow destructive makes them)'),
  withheld: z
    .array(WithheldShape)
    .optional()
    .describe('write calls not made because an argument is not in the request or an earlier output; why names it'),
};

export interface WorkflowMcpOptions {
  /** A call whose run takes longer is cancelled and answered with a `TIMEOUT` tool error (default 120 000 ms). */
  requestTimeoutMs?: number;
}

/** Builds an MCP server with the workflow's tool; connect it to a transport. */
export function createWorkflowMcpServer(
  service: WorkflowService,
  tool: WorkflowToolInfo,
  transport: ServedRun['transport'],
  options: WorkflowMcpOptions = {},
): McpServer {
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const server = new McpServer(
    { name: `flowscout-${tool.name}`, version: '0.1.0' },
    { capabilities: { tools: {}, logging: {} } },
  );
  server.registerTool(
    tool.name,
    {
      title: service.workflow.name,
      description: tool.description,
      inputSchema: { query: z.string().describe('the question or task for the workflow') },
      outputSchema: WORKFLOW_TOOL_OUTPUT,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async ({ query }, extra): Promise<CallToolResult> => {
      const notify = (notification: Parameters<typeof extra.sendNotification>[0]) =>
        void extra.sendNotification(JSON.parse(redactText(JSON.stringify(notification)))).catch(() => undefined);
      const token = extra._meta?.progressToken;
      const onNode = (obs: NodeObservation, resolved: number, total: number) => {
        if (token !== undefined)
          notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: resolved, total, message: progressMessage(obs, resolved, total) },
          });
        if (obs.status === 'error')
          notify({
            method: 'notifications/message',
            params: { level: 'warning', logger: 'flowscout', data: stepFailed(obs, service) },
          });
      };
      const result = await answer(query, extra.signal, onNode);
      notify({
        method: 'notifications/message',
        params: { level: result.isError ? 'error' : 'info', logger: 'flowscout', data: runEnded(result) },
      });
      return redacted(result);
    },
  );
  async function answer(
    query: string,
    signal: AbortSignal,
    onNode: (obs: NodeObservation, resolved: number, total: number) => void,
  ): Promise<CallToolResult> {
    let trace: Trace;
    try {
      const outcome = await runWithinTimeout(service, { query, transport, signal, onNode }, timeoutMs);
      if (outcome.timedOut) return errorResult(outcome.timedOut);
      trace = outcome.trace;
    } catch (e) {
      const err = toFlowScoutError(e);
      return { isError: true, content: [{ type: 'text', text: `error [${err.code}]: ${err.describe()}` }] };
    }
    const said = service.answerOf(trace);
    const result = servedResult(trace, said, service.workflow);
    if (result.status === 'error') {
      return {
        isError: true,
        content: [{ type: 'text', text: failureText(trace, said, service.workflow) }],
        structuredContent: { ...result },
      };
    }
    return {
      content: [{ type: 'text', text: withWithheld(result.answer, result) }],
      structuredContent: { ...result },
    };
  }
  return server;
}

/** "3 of 5 parts done: called get_order (ok)": what a progress notification says (tools by name, no node). */
function progressMessage(obs: NodeObservation, resolved: number, total: number): string {
  const head = `${resolved} of ${total} parts done`;
  if (obs.kind !== 'tool' || obs.status === 'skipped') return head;
  const calls = obs.calls ?? [];
  if (calls.length === 0) return `${head}: no call made`;
  const tools = [...new Set(calls.map((c) => c.tool))];
  const ok = calls.filter((c) => c.status === 'ok').length;
  return `${head}: called ${tools.join(', ')} (${ok} of ${calls.length} call${calls.length === 1 ? '' : 's'} returned)`;
}

/** The log line of a step that failed: its tools and its error, node ids written as "a step". */
function stepFailed(obs: NodeObservation, service: WorkflowService): string {
  const tools = [...new Set((obs.calls ?? []).map((c) => c.tool))];
  const what = obs.kind === 'tool' ? (tools.length ? tools.join(', ') : 'a lookup') : 'a model step';
  return `${what} failed: ${withoutNodeIds(obs.error ?? 'no message', service.workflow)}`;
}

/** The log line of a finished call. */
function runEnded(result: CallToolResult): string {
  const s = result.structuredContent as
    { status?: string; calls?: unknown[]; usage?: { durationMs?: number } } | undefined;
  if (!s) return `the run failed: ${(result.content[0] as { text?: string } | undefined)?.text ?? 'no message'}`;
  return `the run ended ${s.status ?? 'error'}: ${s.calls?.length ?? 0} call${s.calls?.length === 1 ? '' : 's'} in ${s.usage?.durationMs ?? 0} ms`;
}

/**
 * A tool error with its error shape: a line a person (or a model) reads, then the shape as JSON
 * `{"error": {code, message, hint?}}`, the body `POST /run` answers with.
 */
function errorResult(shape: ErrorShape<string>): CallToolResult {
  const hint = shape.hint ? `\n  ${shape.hint}` : '';
  return {
    isError: true,
    content: [
      { type: 'text', text: `error [${shape.code}]: ${shape.message}${hint}` },
      { type: 'text', text: JSON.stringify({ error: shape }) },
    ],
  };
}

/** The answer with every secret redacted (a model may echo a key into the answer or a call's arguments). */
function redacted(result: CallToolResult): CallToolResult {
  return JSON.parse(redactText(JSON.stringify(result))) as CallToolResult;
}

/** The answer, followed by a line per call the run did not make (pending approval or ungrounded). */
function withWithheld(answer: string, result: ServedResult): string {
  const lines = [answer];
  for (const p of result.pending ?? []) lines.push(`pending (not made): ${p.tool} ${JSON.stringify(p.args)}: ${p.why}`);
  for (const w of result.withheld ?? [])
    lines.push(`withheld (not made): ${w.tool} ${JSON.stringify(w.args)}: ${w.why}`);
  return lines.join('\n');
}
