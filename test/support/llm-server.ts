import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local OpenAI-compatible test server (tests only). No model can be reached from the
 * build machine, so FlowScout's end-to-end LLM paths are tested through the real AI SDK HTTP client
 * against this (unit tests of the policy, judge and optimizer use `mock-model.ts` instead): `POST /v1/chat/completions` answers from a script (a queue of replies, or a
 * function of the request), and can misbehave on demand — 429 with Retry-After, 500, a hang past
 * the client's timeout, malformed JSON content, tool calls to unknown tools or with bad arguments,
 * a truncated HTTP body. Every request is recorded so tests can assert what was sent.
 *
 * Options for measuring cost: `latencyMs` delays every answer (a slow provider, for concurrency
 * benchmarks); `usage: 'estimate'` reports the prompt size instead of a fixed count (4 characters a
 * token, the usual rule of thumb for English and JSON) and, like OpenAI's automatic prompt cache,
 * reports as cached the longest prefix (in 128-token steps, from 1024 tokens on) that an earlier
 * request began with.
 */

export interface UsageSpec {
  prompt_tokens: number;
  completion_tokens: number;
  /** Reported as `prompt_tokens_details.cached_tokens`. */
  cached_tokens?: number;
}

export interface LogprobSpec {
  token: string;
  logprob: number;
  top?: Array<{ token: string; logprob: number }>;
}

interface ContentReplyBase {
  usage?: UsageSpec;
  logprobs?: LogprobSpec[];
  finishReason?: string;
}

/** One scripted answer. */
export type ScriptedReply =
  | (ContentReplyBase & { text: string })
  /** `content` is JSON.stringify(json). */
  | (ContentReplyBase & { json: unknown })
  | (ContentReplyBase & { toolCalls: Array<{ name: string; arguments: unknown }> })
  /** 429 with `Retry-After: <retryAfter>` and/or `retry-after-ms`. */
  | { fault: 'rate-limit'; retryAfter?: string; retryAfterMs?: number }
  | { fault: 'server-error'; status?: number; message?: string }
  /** Never answers (until the client gives up or the server closes). */
  | { fault: 'hang' }
  /** A 200 whose content is not valid JSON. */
  | { fault: 'malformed-json'; content?: string; usage?: UsageSpec }
  /** A 200 whose HTTP body is cut off mid-way (Content-Length promises more). */
  | { fault: 'truncated' }
  /** Any status and body, e.g. a 401 that echoes the request's Authorization header. */
  | { status: number; body: unknown; headers?: Record<string, string> };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when not JSON). */
  body: any;
  raw: string;
  /** The usage the server answered with (content replies). */
  usage?: UsageSpec;
}

export type Script =
  ScriptedReply[] | ((req: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>);

export interface TestLlmServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `http://127.0.0.1:<port>/v1` — what OpenAI-style clients take as baseURL. */
  baseURL: string;
  /** The model string of FlowScout for this server: `openai-compatible:<baseURL>#<model>`. */
  spec(model?: string): string;
  /** Every request to /v1/chat/completions, in arrival order. */
  requests: RecordedRequest[];
  /** Adds replies to the queue (queue scripts only). */
  push(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

export const DEFAULT_USAGE: UsageSpec = { prompt_tokens: 10, completion_tokens: 5 };

export interface TestLlmServerOptions {
  script?: Script;
  models?: string[];
  /** Milliseconds every chat completion waits before it answers (default 0). */
  latencyMs?: number;
  /** `estimate`: replies without their own usage report the request's size and its cached prefix (see the module comment). */
  usage?: 'fixed' | 'estimate';
}

/** Characters per token of the `usage: 'estimate'` rule. */
export const CHARS_PER_TOKEN = 4;

/** The text of a chat request the way a provider tokenises it: every message's content, in order. */
export function promptText(body: any): string {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const parts = messages.map((m) =>
    typeof m.content === 'string'
      ? m.content
      : Array.isArray(m.content)
        ? m.content.map((p: any) => p?.text ?? '').join('')
        : '',
  );
  const tools = body?.tools ? JSON.stringify(body.tools) : '';
  const format = body?.response_format ? JSON.stringify(body.response_format) : '';
  return [tools, ...parts, format].join('\n');
}

/** The answer text of a content reply (for its token count). */
function replyText(reply: ScriptedReply): string {
  if ('text' in reply) return reply.text;
  if ('json' in reply) return JSON.stringify(reply.json);
  if ('toolCalls' in reply) return JSON.stringify(reply.toolCalls);
  return '';
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startTestLlmServer(options: TestLlmServerOptions = {}): Promise<TestLlmServer> {
  const queue: ScriptedReply[] = Array.isArray(options.script) ? [...options.script] : [];
  const fn = typeof options.script === 'function' ? options.script : undefined;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const seenPrompts: string[] = [];
  const estimate = (body: any): UsageSpec => {
    const text = promptText(body);
    let common = 0;
    for (const seen of seenPrompts) {
      let i = 0;
      const n = Math.min(seen.length, text.length);
      while (i < n && seen.charCodeAt(i) === text.charCodeAt(i)) i++;
      common = Math.max(common, i);
    }
    seenPrompts.push(text);
    const tokens = Math.ceil(text.length / CHARS_PER_TOKEN);
    const prefixTokens = Math.floor(common / CHARS_PER_TOKEN);
    const cached = prefixTokens >= 1024 ? 1024 + Math.floor((prefixTokens - 1024) / 128) * 128 : 0;
    return {
      prompt_tokens: tokens,
      completion_tokens: 1,
      ...(cached > 0 ? { cached_tokens: Math.min(cached, tokens) } : {}),
    };
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `test server bug: ${String(e)}` } });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && path === '/v1/models') {
      const ids = options.models ?? ['test-model'];
      return sendJson(res, 200, {
        object: 'list',
        data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })),
      });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJson(res, 404, { error: { message: `test server: no route ${req.method} ${path}` } });
    }
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const recorded: RecordedRequest = { method: req.method, path, headers: { ...req.headers }, body, raw };
    const index = requests.length;
    requests.push(recorded);
    if (body?.stream) return sendJson(res, 400, { error: { message: 'test server: streaming is not scripted' } });
    const reply = fn ? await fn(recorded, index) : queue.shift();
    if (!reply) {
      return sendJson(res, 400, {
        error: { message: `test server: no scripted reply left for request #${index + 1}` },
      });
    }
    const withUsage =
      options.usage === 'estimate' && !('fault' in reply) && !('body' in reply) && !reply.usage
        ? {
            ...reply,
            usage: {
              ...estimate(body),
              completion_tokens: Math.max(1, Math.ceil(replyText(reply).length / CHARS_PER_TOKEN)),
            },
          }
        : reply;
    if (!('fault' in withUsage) && !('body' in withUsage)) recorded.usage = withUsage.usage ?? DEFAULT_USAGE;
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
    respond(res, withUsage, String(body?.model ?? 'test-model'), index);
  }

  function respond(res: ServerResponse, reply: ScriptedReply, model: string, index: number): void {
    if ('body' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
      res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
      return;
    }
    if ('fault' in reply) {
      switch (reply.fault) {
        case 'rate-limit': {
          const headers: Record<string, string> = {};
          if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter;
          if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
          return sendJson(res, 429, { error: { message: 'Rate limit reached', type: 'rate_limit_error' } }, headers);
        }
        case 'server-error':
          return sendJson(res, reply.status ?? 500, {
            error: { message: reply.message ?? 'Internal server error', type: 'server_error' },
          });
        case 'hang':
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        case 'malformed-json':
          return sendJson(
            res,
            200,
            completion(model, index, { content: reply.content ?? '{"calls": [{"tool": "get_', usage: reply.usage }),
          );
        case 'truncated': {
          const full = JSON.stringify(
            completion(model, index, { content: 'this answer never arrives whole', usage: undefined }),
          );
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(full)) });
          res.flushHeaders();
          // Half the body, then the connection drops: the client sees a 200 whose body never completes.
          res.write(full.slice(0, Math.floor(full.length / 2)), () => setTimeout(() => res.socket?.destroy(), 10));
          return;
        }
      }
    }
    if ('toolCalls' in reply) {
      const toolCalls = reply.toolCalls.map((c, i) => ({
        id: `call_${index}_${i}`,
        type: 'function',
        function: {
          name: c.name,
          arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
        },
      }));
      return sendJson(
        res,
        200,
        completion(model, index, {
          content: null,
          toolCalls,
          usage: reply.usage,
          finishReason: reply.finishReason ?? 'tool_calls',
        }),
      );
    }
    const content = 'json' in reply ? JSON.stringify(reply.json) : reply.text;
    sendJson(
      res,
      200,
      completion(model, index, {
        content,
        usage: reply.usage,
        logprobs: reply.logprobs,
        finishReason: reply.finishReason,
      }),
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    spec: (model = 'test-model') => `openai-compatible:${url}/v1#${model}`,
    requests,
    push: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hanging) r.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A one-token logprob entry for a score digit with the given probabilities, e.g. `{4: 0.7, 5: 0.3}`. */
export function scoreLogprobs(probs: Record<number, number>): LogprobSpec[] {
  const entries = Object.entries(probs).sort((a, b) => b[1] - a[1]);
  const top = entries.map(([k, p]) => ({ token: k, logprob: Math.log(p) }));
  const best = top[0] ?? { token: '3', logprob: 0 };
  return [{ token: best.token, logprob: best.logprob, top }];
}

function completion(
  model: string,
  index: number,
  r: {
    content: string | null;
    toolCalls?: unknown[];
    usage: UsageSpec | undefined;
    logprobs?: LogprobSpec[] | undefined;
    finishReason?: string | undefined;
  },
): unknown {
  const usage = r.usage ?? DEFAULT_USAGE;
  return {
    id: `chatcmpl-test-${index}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: r.content, ...(r.toolCalls ? { tool_calls: r.toolCalls } : {}) },
        logprobs: r.logprobs
          ? {
              content: r.logprobs.map((l) => ({
                token: l.token,
                logprob: l.logprob,
                bytes: null,
                top_logprobs: (l.top ?? [{ token: l.token, logprob: l.logprob }]).map((t) => ({ ...t, bytes: null })),
              })),
            }
          : null,
        finish_reason: r.finishReason ?? 'stop',
      },
    ],
    usage: {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      ...(usage.cached_tokens !== undefined ? { prompt_tokens_details: { cached_tokens: usage.cached_tokens } } : {}),
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
