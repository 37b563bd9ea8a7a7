import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Option, type Command } from '@commander-js/extra-typings';
import { FlowScoutError } from '../../errors/index.js';
import { workflowHash } from '../../graph/hash.js';
import { assertValidWorkflow } from '../../graph/validate.js';
import { createToolSimulator, type ToolSimulator } from '../../llm/simulate-tool.js';
import { defaultModelSpec, parseModelSpec } from '../../llm/model-spec.js';
import {
  isLoopbackHost,
  startHttpServer,
  DEFAULT_GRACE_MS,
  DEFAULT_MAX_BODY_BYTES,
  type RunningHttpServer,
} from '../../serve/http-server.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../serve/request-timeout.js';
import { checkToolName, createWorkflowMcpServer, toolNameFor, type WorkflowToolInfo } from '../../serve/mcp-server.js';
import { createWorkflowService } from '../../serve/workflow-service.js';
import { DEFAULT_MAX_OUTPUT_CHARS } from '../../runtime/output-bound.js';
import { servedRunRecorder } from './serve-store.js';
import { servedRunMonitor } from './serve-monitor.js';
import { openStore, type Store } from '../../store/index.js';
import { loadToolConfig } from '../../tools/load-tool-config.js';
import { readJsonFile } from '../../util/json-file.js';
import { registerSecret } from '../../util/redact.js';
import { createModelWiring } from '../../wiring/index.js';
import type { CliIO } from '../output.js';
import { wholeNumberArg } from '../parse-number.js';
import { learnFromRemoved } from '../learned-note.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout serve <workflow.json> --tools <config> [--model …] [--mcp stdio | --mcp http --port N] [--http --port N]`:
 * serves a workflow as an MCP tool (stdio, or Streamable HTTP at /mcp) and/or as an HTTP endpoint
 * (POST /run, GET /health) until stopped (Ctrl-C, SIGTERM, or — over stdio — the client closing
 * stdin). Over stdio stdout carries only MCP messages: everything this command says goes to stderr.
 * With `--db` every answered request is written to the store with its trace.
 */

/** Registers `flowscout serve` (see above). */
export const registerServe: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('serve')
    .description('serve a workflow as an MCP tool (stdio or Streamable HTTP) and/or an HTTP endpoint')
    .argument('<workflow>', 'a workflow JSON file (e.g. best.workflow.json from `flowscout search`)')
    .requiredOption('--tools <config>', 'a tool config: {"version": 1, "sources": [...]} (replay, functions, MCP)')
    .option(
      '--model <spec>',
      'who decides at each node: "offline" (default without FLOWSCOUT_MODEL) or a model such as openai:gpt-4o-mini',
    )
    .option(
      '--mcp <transport>',
      'serve MCP over "stdio" (the default when neither --mcp nor --http is given) or "http" (at /mcp)',
    )
    .option('--http', 'serve POST /run, GET /health and GET /metrics (Prometheus text)')
    .option(
      '--port <n>',
      'port for --mcp http and --http (default 0: a free port, printed)',
      wholeNumberArg('--port', 0),
    )
    .option('--host <address>', 'address to bind for HTTP', '127.0.0.1')
    .option(
      '--token <secret>',
      'HTTP: every request must send "Authorization: Bearer <secret>" (default FLOWSCOUT_SERVE_TOKEN; required with a --host other than loopback unless --insecure)',
    )
    .option(
      '--insecure',
      'HTTP: serve a --host other than loopback without a token (anyone who can reach the port can run the workflow and its tools)',
    )
    .option(
      '--allowed-host <name>',
      'HTTP: another host name requests may address (e.g. a DNS name in front of the server); repeat for several',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--name <tool>', 'the MCP tool name (default: from the workflow name)')
    .option('--description <text>', 'the MCP tool description (default: the workflow description)')
    .option('--db <file>', 'write every served run with its trace, fitness and health to this FlowScout store (SQLite)')
    .option(
      '--timeout <ms>',
      `cancel a run after this long: POST /run answers 504, an MCP tool call (stdio or /mcp) a TIMEOUT tool error (default ${DEFAULT_REQUEST_TIMEOUT_MS})`,
      wholeNumberArg('--timeout', 1),
    )
    .option(
      '--max-body <bytes>',
      `HTTP: largest request body (default ${DEFAULT_MAX_BODY_BYTES})`,
      wholeNumberArg('--max-body', 1),
    )
    .option('--max-runs <n>', 'runs in flight at once; more requests wait (default 8)', wholeNumberArg('--max-runs', 1))
    .option(
      '--concurrency <n>',
      'nodes of one run at once, and model requests in flight across all runs (default 4)',
      wholeNumberArg('--concurrency', 1),
    )
    .option('--call-timeout <ms>', 'per tool call timeout in milliseconds', wholeNumberArg('--call-timeout', 1))
    .option(
      '--max-output-chars <n>',
      `characters of one tool output a run keeps, answers and stores; a longer one is cut with a marker saying where and how much (default ${DEFAULT_MAX_OUTPUT_CHARS})`,
      wholeNumberArg('--max-output-chars', 1),
    )
    .option(
      '--grace <ms>',
      `HTTP: on Ctrl-C or SIGTERM, how long runs in flight may finish; those still running are then answered 503 and cancelled (default ${DEFAULT_GRACE_MS})`,
      wholeNumberArg('--grace', 0, 2000),
    )
    .addOption(new Option('--learn-from <records>').hideHelp())
    .option(
      '--allow <effect>',
      'make destructive calls (cancel, delete, send) instead of returning them as pending with the answer: --allow destructive',
    )
    .action(async (file, opts) => {
      if (opts.learnFrom !== undefined) throw learnFromRemoved();
      const mcp = opts.mcp?.trim().toLowerCase() ?? (opts.http ? undefined : 'stdio');
      if (mcp !== undefined && mcp !== 'stdio' && mcp !== 'http') {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `--mcp must be "stdio" or "http" (got '${opts.mcp}')`,
          hint: 'Use --mcp stdio for Claude Desktop and IDEs, --mcp http --port N for a network client.',
        });
      }
      if (mcp === 'stdio' && opts.http) {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: '--mcp stdio and --http cannot be served by one process',
          hint: 'Use --mcp http --http --port N to serve both over HTTP, or run two processes.',
        });
      }
      const token = opts.token ?? (process.env.FLOWSCOUT_SERVE_TOKEN?.trim() || undefined);
      // A token given as --token is redacted like FLOWSCOUT_SERVE_TOKEN from everything served or printed.
      registerSecret(token);
      const serving = mcp === 'http' || Boolean(opts.http);
      if (serving) checkExposure(opts.host, token, Boolean(opts.insecure), io);
      if (opts.allow !== undefined && opts.allow.trim().toLowerCase() !== 'destructive') {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `--allow takes "destructive" (got '${opts.allow}')`,
          hint: 'Read and write calls are made when their arguments are grounded; --allow destructive also makes destructive ones.',
        });
      }
      const allowDestructive = opts.allow !== undefined;
      const raw = readJsonFile(file);
      const spec = (opts.model?.trim() || defaultModelSpec()).trim();
      const offline = parseModelSpec(spec).provider === 'offline';
      let simulator: ToolSimulator | undefined;
      const registry = await loadToolConfig(opts.tools, {
        warn: (line) => io.err(line),
        ...(offline
          ? {}
          : { simulate: (tool, args, examples, signal) => simulator!.simulate(tool, args, examples, signal) }),
      });
      let store: Store | undefined;
      let http: RunningHttpServer | undefined;
      const closers: Array<() => Promise<void> | void> = [];
      // The last resort: an error nothing caught (a tool's is caught per call by the registry) is
      // reported and the server keeps serving; it never ends the process.
      const guard = (e: unknown) =>
        io.err(
          `error caught by serve's last-resort guard (still serving): ${e instanceof Error ? e.message : String(e)}`,
        );
      process.on('uncaughtException', guard);
      process.on('unhandledRejection', guard);
      closers.push(() => {
        process.off('uncaughtException', guard);
        process.off('unhandledRejection', guard);
      });
      try {
        const tools = registry.list();
        const workflow = assertValidWorkflow(raw, tools, file);
        // One model client and rate limiter for every request served (sized by --concurrency, default 4, as in `run`).
        const models = createModelWiring({
          limits: {
            concurrency: opts.concurrency ?? 4,
          },
        });
        const resolved = await models.policy(spec, { tools });
        if (resolved.client) simulator = createToolSimulator({ client: resolved.client });
        if (opts.db) store = openStore(opts.db);
        const graceMs = opts.grace ?? DEFAULT_GRACE_MS;
        const requestTimeoutMs = opts.timeout ?? DEFAULT_REQUEST_TIMEOUT_MS;
        const hash = workflowHash(workflow);
        const db = store;
        // Every run scored against the workflow's tree as it finishes: /metrics, OpenTelemetry and the store.
        const monitor = servedRunMonitor(
          workflow,
          tools.map((t) => t.name),
        );
        const service = createWorkflowService({
          score: (trace) => monitor.score(trace),
          drift: () => monitor.drift(),
          workflow,
          policy: resolved.instance,
          tools: registry,
          ...(opts.maxRuns !== undefined ? { maxRuns: opts.maxRuns } : {}),
          ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
          ...(opts.callTimeout !== undefined ? { callTimeoutMs: opts.callTimeout } : {}),
          destructive: allowDestructive ? 'allow' : 'withhold',
          onError: (m) => io.err(m),
          ...(opts.maxOutputChars !== undefined ? { maxOutputChars: opts.maxOutputChars } : {}),
          ...(db ? { onRun: servedRunRecorder(db, { name: workflow.name, hash }, (line) => io.err(line)) } : {}),
        });
        const tool: WorkflowToolInfo = {
          name: opts.name !== undefined ? checkToolName(opts.name) : toolNameFor(workflow.name),
          description:
            opts.description ??
            workflow.description ??
            `Answers a request with the FlowScout workflow ${JSON.stringify(workflow.name)}.`,
        };
        const label = `${resolved.label}${offline ? ' — OFFLINE (no LLM)' : ''}`;
        io.err(
          `serving ${JSON.stringify(workflow.name)} (${workflow.nodes.length} nodes) · policy: ${label} · ${registry.list().length} tools${store ? ` · runs recorded in ${store.file}` : ''}`,
        );
        const destructiveTools = tools
          .filter((t) => registry.effectOf(t.name)?.effect === 'destructive')
          .map((t) => t.name);
        if (destructiveTools.length > 0)
          io.err(
            `destructive tools (${destructiveTools.slice(0, 6).join(', ')}${destructiveTools.length > 6 ? ', …' : ''}): ${allowDestructive ? 'calls are MADE (--allow destructive)' : 'calls are returned as pending, not made (--allow destructive makes them)'}; write calls with an argument, and any call with an identifier, not in the request or an earlier output are withheld`,
          );
        if (mcp === 'stdio') {
          const server = createWorkflowMcpServer(service, tool, 'mcp-stdio', { requestTimeoutMs });
          const transport = new StdioServerTransport();
          await server.connect(transport);
          closers.push(() => server.close());
          io.err(`MCP over stdio: tool '${tool.name}'`);
        }
        if (mcp === 'http' || opts.http) {
          http = await startHttpServer({
            service,
            http: Boolean(opts.http),
            ...(mcp === 'http' ? { mcp: tool } : {}),
            host: opts.host,
            port: opts.port ?? 0,
            ...(opts.maxBody !== undefined ? { maxBodyBytes: opts.maxBody } : {}),
            requestTimeoutMs,
            ...(token !== undefined ? { token } : {}),
            ...(opts.allowedHost.length > 0 ? { allowedHosts: opts.allowedHost } : {}),
          });
          const server = http;
          closers.push(() => server.close(graceMs));
          if (mcp === 'http') io.err(`MCP over Streamable HTTP: ${http.url}/mcp (tool '${tool.name}')`);
          if (opts.http)
            io.err(`HTTP: POST ${http.url}/run  {"query": "…"} · GET ${http.url}/health · GET ${http.url}/metrics`);
        }
        await untilStopped(mcp === 'stdio');
        const load = service.load();
        io.err(
          `stopping: no new requests${load.running + load.waiting > 0 ? `; letting ${load.running + load.waiting} runs in flight finish (up to ${graceMs / 1000} s)` : ''}`,
        );
      } finally {
        for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => undefined);
        await registry.close();
        store?.close();
      }
    });
};

/**
 * A server reachable from other machines needs a token (or `--insecure`, said out loud); either way
 * it is told what that means. Loopback without a token is the default and says nothing.
 */
function checkExposure(host: string, token: string | undefined, insecure: boolean, io: CliIO): void {
  if (token !== undefined && token.length < 16) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `the token is ${token.length} characters; use at least 16`,
      hint: 'Make one with: openssl rand -hex 32',
      location: { path: '--token' },
    });
  }
  if (isLoopbackHost(host)) return;
  if (token === undefined && !insecure) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--host ${host} serves the workflow (and its tools) to other machines, and no token was given`,
      hint: 'Pass --token <secret> (or set FLOWSCOUT_SERVE_TOKEN) so requests need "Authorization: Bearer <secret>"; or --insecure to serve without authentication; or keep the default --host 127.0.0.1.',
      location: { path: '--host' },
    });
  }
  io.err(
    token !== undefined
      ? `warning: serving on ${host}: reachable from other machines; requests need the bearer token, sent in plain HTTP (put TLS in front of it across networks)`
      : `warning: serving on ${host} with --insecure: anyone who can reach this port can run the workflow and call its tools, without authentication`,
  );
}

/** Resolves on SIGINT or SIGTERM, or — serving stdio — when the client closes stdin. */
function untilStopped(stdio: boolean): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.removeListener('SIGINT', done);
      process.removeListener('SIGTERM', done);
      process.stdin.removeListener('end', done);
      process.stdin.removeListener('close', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    if (stdio) {
      process.stdin.once('end', done);
      process.stdin.once('close', done);
    }
  });
}
