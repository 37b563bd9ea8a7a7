import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { FlowScoutError, HTTP_STATUS, toErrorShape, type ErrorCode, type ErrorShape } from '../errors/index.js';
import { redactText } from '../util/redact.js';
import { traceWithOutputsOnce } from '../runtime/trace-file.js';
import { failureText, createWorkflowMcpServer, type WorkflowToolInfo } from './mcp-server.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, runWithinTimeout } from './request-timeout.js';
import { servedResult, type WorkflowService } from './workflow-service.js';

/**
 * The HTTP side of `flowscout serve`, on one `node:http` server:
 *
 * - `POST /run` with `{"query": "…"}` → `200 {answer, calls, observations, usage, …}` (each tool
 *   output once, in `calls`: the observations point to a large one with `{"sameAs": "calls[i].output"}`,
 *   runtime/trace-file.ts; each output is bounded by the run, runtime/output-bound.ts); a run that
 *   failed, or whose every tool call failed (`servedStatus`) → `502 {status: "error", error: {code:
 *   "RUN_FAILED", message}, …the same fields}`; a run past the request
 *   timeout is cancelled → `504 {error: {code: "TIMEOUT"}}` (request-timeout.ts);
 * - `GET /health` → `{status: "ok", workflow, policy, runs: {waiting, running}}`;
 * - `/mcp`: MCP over Streamable HTTP (stateless: one SDK server and transport per request), when enabled;
 *   a tool call past the request timeout is cancelled the same way and is an MCP tool error (mcp-server.ts).
 *
 * Every error is JSON `{error: {code, message, hint?, location?}}` (an `ErrorShape`, errors/error-shape.ts)
 * with a status that says what kind: 400 bad JSON or bad field, 404 unknown path, 405 wrong method,
 * 413 body over the limit, 415 not JSON, 504 timeout; a FlowScoutError's status is its code's
 * `HTTP_STATUS` (errors/codes.ts: 429 for an exhausted budget, 500 for a bug, …).
 * It binds to 127.0.0.1 unless told otherwise. Every route (`/run`, `/health`, `/mcp`) answers only
 * requests whose Host header names this server (DNS-rebinding protection: a web page cannot make a
 * browser on this machine talk to it under another name): the loopback names when bound to
 * loopback, the bound address, and on an any-address bind (`0.0.0.0`, `::`) this machine's name
 * and interface addresses; `allowedHosts` adds names (a DNS name in front of it). With `token`,
 * every route also needs `Authorization: Bearer <token>` (401 otherwise; compared in constant time).
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

export interface RunningHttpServer {
  /** `http://host:port` */
  url: string;
  port: number;
  /** Stops accepting requests, lets those in flight finish for up to `graceMs` (default 10 000), then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

type HttpErrorCode =
  | 'FORBIDDEN_HOST'
  | 'UNAUTHORIZED'
  | 'BAD_JSON'
  | 'BODY_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'TIMEOUT'
  | 'RUN_FAILED'
  | ErrorCode;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: HttpErrorCode,
    message: string,
    readonly detail: Pick<ErrorShape, 'hint' | 'location'> = {},
  ) {
    super(message);
  }

  /** Anything thrown, as its error shape with its code's HTTP status. */
  static of(e: unknown): HttpError {
    const { code, message, ...detail } = toErrorShape(e);
    return new HttpError(HTTP_STATUS[code], code, message, detail);
  }

  shape(): ErrorShape<HttpErrorCode> {
    return { code: this.code, message: this.message, ...this.detail };
  }
}

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

  let active = 0;
  let drained: (() => void) | undefined;
  const server: Server = createServer((req, res) => {
    active++;
    res.once('close', () => {
      active--;
      if (active === 0) drained?.();
    });
    void handle(req, res).catch((e: unknown) => {
      const err = e instanceof HttpError ? e : HttpError.of(e);
      sendError(res, err);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const asked = hostOf(req.headers.host);
    if (asked === undefined || !hosts.has(asked)) {
      req.resume();
      throw new HttpError(
        403,
        'FORBIDDEN_HOST',
        `this server answers only requests for ${[...hosts].map((h) => (h.includes(':') ? `[${h}]` : h)).join(', ')} (Host: ${req.headers.host === undefined ? 'none' : JSON.stringify(req.headers.host.slice(0, 100))})`,
        {
          hint: 'Address it by one of those names, or start serve with --allowed-host <name> for a name in front of it.',
        },
      );
    }
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      req.resume();
      res.setHeader('www-authenticate', 'Bearer');
      throw new HttpError(
        401,
        'UNAUTHORIZED',
        'this server needs `Authorization: Bearer <token>` with the token it was started with',
        { hint: 'Send the token serve was given (--token or FLOWSCOUT_SERVE_TOKEN).' },
      );
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/mcp' && options.mcp) return handleMcp(req, res, options.mcp);
    if (!serveHttp)
      throw new HttpError(404, 'NOT_FOUND', `no route ${path}${options.mcp ? '; MCP is served at /mcp' : ''}`);
    if (path === '/health') {
      if (req.method !== 'GET') throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'use GET /health');
      return sendJson(res, 200, {
        status: 'ok',
        workflow: service.workflow.name,
        policy: service.policyLabel,
        runs: service.load(),
      });
    }
    if (path === '/run') {
      if (req.method !== 'POST') throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'use POST /run with {"query": "…"}');
      const body = await readJsonBody(req, maxBody);
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new HttpError(400, 'INVALID_INPUT', 'the body must be a JSON object {"query": "…"}');
      const query = (body as Record<string, unknown>).query;
      const gone = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) gone.abort();
      });
      let outcome;
      try {
        // The answer does not wait for the run past the timeout: 504 goes out when the timer fires
        // (the run is cancelled and ends in the background), whatever the policy is doing.
        outcome = await runWithinTimeout(
          service,
          { query: query as string, transport: 'http', signal: gone.signal },
          timeoutMs,
        );
      } catch (e) {
        throw HttpError.of(e);
      }
      if (outcome.timedOut) {
        const { code, message, ...detail } = outcome.timedOut;
        throw new HttpError(504, code, message, detail);
      }
      const { trace } = outcome;
      // Each tool output once (in `calls`); the observations point to the large ones.
      const once = traceWithOutputsOnce(trace);
      const result = { ...servedResult(trace), calls: once.calls, observations: once.observations };
      if (result.status === 'error')
        return sendJson(res, 502, { ...result, error: { code: 'RUN_FAILED', message: failureText(trace) } });
      return sendJson(res, 200, result);
    }
    throw new HttpError(404, 'NOT_FOUND', `no route ${req.method} ${path}; use POST /run or GET /health`);
  }

  async function handleMcp(req: IncomingMessage, res: ServerResponse, tool: WorkflowToolInfo): Promise<void> {
    if (req.method !== 'POST')
      throw new HttpError(
        405,
        'METHOD_NOT_ALLOWED',
        'this MCP endpoint is stateless: send JSON-RPC requests with POST',
      );
    const body = await readJsonBody(req, maxBody);
    const mcp = createWorkflowMcpServer(service, tool, 'mcp-http', { requestTimeoutMs: timeoutMs });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      // The SDK's own check as well (the Host header as sent: with and without the port).
      enableDnsRebindingProtection: true,
      allowedHosts: [...hosts].flatMap((h) => {
        const name = h.includes(':') ? `[${h}]` : h;
        return [name, `${name}:${port}`];
      }),
    });
    res.once('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  await new Promise<void>((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException) => reject(listenError(e, host, port));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    close: async (graceMs = 10_000) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (active > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          drained = () => {
            clearTimeout(timer);
            resolve();
          };
        });
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

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '::1'];

/** Whether `host` is a loopback address or name. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return LOOPBACK_NAMES.includes(h) || /^127\./.test(h);
}

/** The host names (lower case, IPv6 without brackets) requests may address for a server bound to `host`. */
export function hostNamesFor(host: string, extra: readonly string[]): Set<string> {
  const bound = host.toLowerCase().replace(/^\[|\]$/g, '');
  const names = new Set<string>(
    extra.map((h) =>
      h
        .toLowerCase()
        .replace(/^\[|\]$/g, '')
        .replace(/\.$/, ''),
    ),
  );
  if (isLoopbackHost(bound)) for (const n of LOOPBACK_NAMES) names.add(n);
  names.add(bound);
  if (bound === '0.0.0.0' || bound === '::') {
    for (const n of LOOPBACK_NAMES) names.add(n);
    names.add(hostname().toLowerCase());
    for (const list of Object.values(networkInterfaces()))
      for (const a of list ?? []) names.add(a.address.toLowerCase().replace(/%.*$/, ''));
  }
  return names;
}

/** The host name of a Host header (lower case, no port, IPv6 without brackets); undefined when absent or malformed. */
function hostOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    return new URL(`http://${header}`).hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** Whether an Authorization header carries exactly `Bearer <token>` (constant-time comparison). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '');
  if (!m) return false;
  const given = createHash('sha256').update(m[1]!).digest();
  const wanted = createHash('sha256').update(token).digest();
  return timingSafeEqual(given, wanted);
}

async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type))
    throw new HttpError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `send the body as application/json (got ${type ? `'${type}'` : 'no content-type'})`,
    );
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    throw new HttpError(413, 'BODY_TOO_LARGE', `the body is ${declared} bytes; at most ${maxBytes} are accepted`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      req.resume();
      throw new HttpError(413, 'BODY_TOO_LARGE', `the body is over the limit of ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new HttpError(400, 'BAD_JSON', `the body is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  if (res.headersSent) return;
  // The one redaction pass: a model may echo a key into an answer, a call's arguments or an error.
  const text = redactText(JSON.stringify(value));
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) })
    .end(text);
}

function sendError(res: ServerResponse, err: HttpError): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, err.status, { error: err.shape() });
}
