import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { FlowScoutError, HTTP_STATUS } from '../errors/index.js';
import { bearerCheck, hostCheck, hostNamesFor, isLoopbackHost, shownHost } from '../util/http-guards.js';
import { traceWithOutputsOnce } from '../runtime/trace-file.js';
import { createWorkflowMcpServer, type WorkflowToolInfo } from './mcp-server.js';
import { answerWhenStopping, HttpError, jsonBody, jsonResponse, parseJson } from './http-middleware.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, runWithinTimeout } from './request-timeout.js';
import { failureText, servedResult, type WorkflowService } from './workflow-service.js';

/**
 * The HTTP side of `flowscout serve`, a Hono app on `@hono/node-server` (the stack of the web UI,
 * with the same Host check, util/http-guards.ts):
 *
 * - `POST /run` with `{"query": "…"}` → `200 {answer, calls, observations, usage, …}` (each tool
 *   output once, in `calls`: the observations point to a large one with `{"sameAs": "calls[i].output"}`,
 *   runtime/trace-file.ts; each output is bounded by the run, runtime/output-bound.ts); a run that
 *   failed, or whose every tool call failed (`servedStatus`) → `502 {status: "error", error: {code:
 *   "RUN_FAILED", message}, …the same fields}`; a run past the request
 *   timeout is cancelled → `504 {error: {code: "TIMEOUT"}}` (request-timeout.ts);
 * - `GET /health` → `{status: "ok", workflow, policy, runs: {waiting, running}}`;
 * - `GET /metrics` → the runs served so far in Prometheus' text format: runs by status, calls by
 *   outcome, fitness, health and latency histograms, load and the drift verdict (serve-metrics.ts);
 * - `/mcp`: MCP over Streamable HTTP (stateless: one SDK server and transport per request), when enabled;
 *   a tool call past the request timeout is cancelled the same way and is an MCP tool error (mcp-server.ts).
 *   A call whose request carries a `progressToken` (and whose client accepts `text/event-stream`)
 *   is answered as an event stream: its progress notifications and log messages, then its result;
 *   every other request is answered with one JSON body.
 *
 * Every error is JSON `{error: {code, message, hint?, location?}}` (an `ErrorShape`, errors/error-shape.ts)
 * whose code is one of `ERROR_CODES` and whose status is its code's `HTTP_STATUS` (errors/codes.ts):
 * 400 bad JSON or bad field, 404 unknown path, 405 wrong method, 413 body over the limit, 415 not
 * JSON, 503 stopping, 504 timeout, 429 an exhausted budget, 500 a bug, …
 * It binds to 127.0.0.1 unless told otherwise. Every route (`/run`, `/health`, `/mcp`) answers only
 * requests whose Host header names this server (DNS-rebinding protection: a web page cannot make a
 * browser on this machine talk to it under another name): the loopback names when bound to
 * loopback, the bound address, and on an any-address bind (`0.0.0.0`, `::`) this machine's name
 * and interface addresses; `allowedHosts` adds names (a DNS name in front of it). With `token`,
 * every route also needs `Authorization: Bearer <token>` (401 otherwise; compared in constant time).
 * When the server closes, a request still unanswered after the grace period is answered
 * `503 {error: {code: "SHUTTING_DOWN"}}` and its run is cancelled.
 */

export interface HttpServeOptions {
  service: WorkflowService;
  /** Serve `POST /run` and `GET /health` (default true). */
  http?: boolean;
  /** Serve MCP over Streamable HTTP at `/mcp` with this tool. */
  mcp?: WorkflowToolInfo;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Largest request body in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** A run longer than this is cancelled and answered 504 over `/run`, an MCP tool error over `/mcp` (default 120 000 ms). */
  requestTimeoutMs?: number;
  /** Every request must send `Authorization: Bearer <token>`. */
  token?: string;
  /** More host names requests may address (besides those of the bound address, see above). */
  allowedHosts?: readonly string[];
}

/** A started HTTP server: where it listens, and how to stop it. */
export interface RunningHttpServer {
  /** `http://host:port` */
  url: string;
  port: number;
  /**
   * Stops accepting requests, lets those in flight finish for up to `graceMs` (default
   * `DEFAULT_GRACE_MS`), answers those still running 503 (their runs are cancelled), then closes
   * every connection.
   */
  close(graceMs?: number): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** How long runs in flight may finish when the server closes (`serve --grace`). */
export const DEFAULT_GRACE_MS = 10_000;
/** After the grace period, how long the 503 answers get to be written before connections are cut. */
const FLUSH_MS = 1_000;

export { isLoopbackHost, hostNamesFor };

/** Starts the server; resolves once it listens. */
export async function startHttpServer(options: HttpServeOptions): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const serveHttp = options.http ?? true;
  const { service } = options;
  let port = options.port ?? 0;
  const hosts = hostNamesFor(host, options.allowedHosts ?? []);
  const token = options.token;
  // Fires when the grace period of `close` is over: every request still unanswered answers 503.
  const stopping = new AbortController();

  const app = new Hono();
  app.onError((e) => HttpError.of(e).response());
  app.use('*', answerWhenStopping(stopping.signal));
  app.use(
    '*',
    hostCheck(hosts, (_c, header) =>
      new HttpError(
        'FORBIDDEN_HOST',
        `this server answers only requests for ${[...hosts].map(shownHost).join(', ')} (Host: ${header === undefined ? 'none' : JSON.stringify(header.slice(0, 100))})`,
        {
          hint: 'Address it by one of those names, or start serve with --allowed-host <name> for a name in front of it.',
        },
      ).response(),
    ),
  );
  if (token !== undefined)
    app.use(
      '*',
      bearerCheck(token, () => {
        const res = new HttpError(
          'UNAUTHORIZED',
          'this server needs `Authorization: Bearer <token>` with the token it was started with',
          { hint: 'Send the token serve was given (--token or FLOWSCOUT_SERVE_TOKEN).' },
        ).response();
        res.headers.set('www-authenticate', 'Bearer');
        return res;
      }),
    );
  const [jsonOnly, limitBody] = jsonBody(maxBody);

  if (options.mcp) {
    const tool = options.mcp;
    app.post('/mcp', jsonOnly, limitBody, async (c) => {
      const parsedBody = parseJson(await c.req.text());
      const mcp = createWorkflowMcpServer(service, tool, 'mcp-http', { requestTimeoutMs: timeoutMs });
      // Progress needs a stream: a request with a progressToken whose client takes one gets it.
      const streamed = wantsProgress(parsedBody) && (c.req.header('accept') ?? '').includes('text/event-stream');
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: !streamed,
        // The SDK's own check as well (the Host header as sent: with and without the port).
        enableDnsRebindingProtection: true,
        allowedHosts: [...hosts].flatMap((h) => [shownHost(h), `${shownHost(h)}:${port}`]),
      });
      const done = () => {
        void transport.close();
        void mcp.close();
      };
      // A client that went away, or a server past its grace period, cancels the call (the SDK
      // aborts the tool's handler when its transport closes).
      const cancel = AbortSignal.any([c.req.raw.signal, stopping.signal]);
      cancel.addEventListener('abort', done, { once: true });
      let ownedByStream = false;
      try {
        await mcp.connect(transport);
        // A JSON response (enableJsonResponse) is complete when it resolves; an event stream once
        // its body ends (the SDK ends it after the result), and then the server is closed.
        const res = await transport.handleRequest(c.req.raw, { parsedBody });
        if (!streamed || !res.body) return res;
        ownedByStream = true;
        const closing = () => {
          cancel.removeEventListener('abort', done);
          done();
        };
        const body = res.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: closing }));
        return new Response(withCancel(body, closing), { status: res.status, headers: res.headers });
      } finally {
        if (!ownedByStream) {
          cancel.removeEventListener('abort', done);
          done();
        }
      }
    });
    app.all('/mcp', () => {
      throw new HttpError('METHOD_NOT_ALLOWED', 'this MCP endpoint is stateless: send JSON-RPC requests with POST');
    });
  }
  if (serveHttp) {
    app.get('/health', () =>
      jsonResponse(200, {
        status: 'ok',
        workflow: service.workflow.name,
        policy: service.policyLabel,
        runs: service.load(),
      }),
    );
    app.all('/health', () => {
      throw new HttpError('METHOD_NOT_ALLOWED', 'use GET /health');
    });
    app.get(
      '/metrics',
      () =>
        new Response(service.metricsText(), {
          status: 200,
          headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' },
        }),
    );
    app.all('/metrics', () => {
      throw new HttpError('METHOD_NOT_ALLOWED', 'use GET /metrics');
    });
    app.post('/run', jsonOnly, limitBody, async (c) => {
      const request = parseJson(await c.req.text());
      if (typeof request !== 'object' || request === null || Array.isArray(request))
        throw new HttpError('INVALID_INPUT', 'the body must be a JSON object {"query": "…"}');
      const query = (request as Record<string, unknown>).query;
      let outcome;
      try {
        // The answer does not wait for the run past the timeout: 504 goes out when the timer fires
        // (the run is cancelled and ends in the background), whatever the policy is doing. A client
        // that went away, or a server past its grace period, cancels the run too.
        outcome = await runWithinTimeout(
          service,
          { query: query as string, transport: 'http', signal: AbortSignal.any([c.req.raw.signal, stopping.signal]) },
          timeoutMs,
        );
      } catch (e) {
        throw HttpError.of(e);
      }
      if (outcome.timedOut) {
        const { code, message, ...detail } = outcome.timedOut;
        throw new HttpError(code, message, detail);
      }
      const { trace } = outcome;
      // Each tool output once (in `calls`); the observations point to the large ones.
      const once = traceWithOutputsOnce(trace);
      const said = service.answerOf(trace);
      const result = {
        ...servedResult(trace, said, service.workflow),
        calls: once.calls,
        observations: once.observations,
      };
      if (result.status === 'error')
        return jsonResponse(HTTP_STATUS.RUN_FAILED, {
          ...result,
          error: { code: 'RUN_FAILED', message: failureText(trace, said, service.workflow) },
        });
      return jsonResponse(200, result);
    });
    app.all('/run', () => {
      throw new HttpError('METHOD_NOT_ALLOWED', 'use POST /run with {"query": "…"}');
    });
  }
  app.all('*', (c) => {
    if (!serveHttp)
      throw new HttpError('NOT_FOUND', `no route ${c.req.path}${options.mcp ? '; MCP is served at /mcp' : ''}`);
    throw new HttpError(
      'NOT_FOUND',
      `no route ${c.req.method} ${c.req.path}; use POST /run, GET /health or GET /metrics`,
    );
  });

  const listener = getRequestListener(app.fetch, {
    // A request node-server cannot turn into a URL (no or a malformed Host header, a bad target).
    errorHandler: (e) =>
      new HttpError('BAD_REQUEST', `the request cannot be read: ${e instanceof Error ? e.message : String(e)}`, {
        hint: 'Send a Host header that names this server and a path such as /run.',
      }).response(),
  });
  let active = 0;
  let drained: (() => void) | undefined;
  const server: Server = createServer((req, res) => {
    active++;
    res.once('close', () => {
      active--;
      if (active === 0) drained?.();
    });
    void listener(req, res);
  });
  /** Resolves once no request is in flight, or after `ms`. */
  const untilDrained = (ms: number) =>
    active === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          drained = () => {
            clearTimeout(timer);
            resolve();
          };
        });

  await new Promise<void>((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException) => reject(listenError(e, host, port));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${shownHost(host)}:${port}`,
    port,
    close: async (graceMs = DEFAULT_GRACE_MS) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await untilDrained(graceMs);
      if (active > 0) {
        stopping.abort();
        await untilDrained(FLUSH_MS);
      }
      server.closeAllConnections();
      await closed;
    },
  };
}

/** What a failed `listen` means for the user: a busy port or an address this machine does not have is a named error, not a bug. */
function listenError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === 'EADDRINUSE')
    return new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `port ${port} on ${host} is in use`,
      hint: 'Stop what uses it, or pass another --port (0 picks a free one).',
      location: { path: '--port' },
    });
  if (e.code === 'EACCES')
    return new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `not allowed to listen on port ${port} of ${host}`,
      hint: 'Ports below 1024 need privileges; pass a --port of 1024 or more.',
      location: { path: '--port' },
    });
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND')
    return new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `cannot listen on ${host}: this machine has no such address`,
      hint: 'Pass --host 127.0.0.1, or an address of one of its interfaces.',
      location: { path: '--host' },
    });
  return e;
}

/** True when a JSON-RPC body (or batch) holds a request with `params._meta.progressToken`. */
function wantsProgress(body: unknown): boolean {
  const items = Array.isArray(body) ? body : [body];
  return items.some((m) => {
    const meta = (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}

/** The stream, calling `onCancel` when its reader cancels it (a client that went away). */
function withCancel(stream: ReadableStream<Uint8Array>, onCancel: () => void): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      onCancel();
      return reader.cancel(reason);
    },
  });
}
