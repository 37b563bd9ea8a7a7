import { type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTP_STATUS, toErrorShape, type ErrorCode, type ErrorShape } from '../errors/index.js';
import { redactText } from '../util/redact.js';

/**
 * The pieces of `flowscout serve`'s Hono app (http-server.ts) that answer for it: its error with an
 * HTTP status and the `{error}` JSON shape, JSON answers after the one redaction pass, and the
 * middleware for JSON bodies and for a server that is stopping.
 */

/**
 * An error the server answers with: its code (one of `ERROR_CODES`, where serve's own codes sit
 * beside the rest) gives the HTTP status (`HTTP_STATUS`).
 */
export class HttpError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly detail: Pick<ErrorShape, 'hint' | 'location'> = {},
  ) {
    super(message);
    this.status = HTTP_STATUS[code];
  }

  /** Anything thrown, as its error shape with its code's HTTP status. */
  static of(e: unknown): HttpError {
    if (e instanceof HttpError) return e;
    const { code, message, ...detail } = toErrorShape(e);
    return new HttpError(code, message, detail);
  }

  shape(): ErrorShape {
    return { code: this.code, message: this.message, ...this.detail };
  }

  /** The answer: `{error}` as JSON with the status. */
  response(): Response {
    return jsonResponse(this.status, { error: this.shape() });
  }
}

/**
 * Once `stopping` fires, a request whose handler has not answered is answered 503 at once (its
 * handler's signal fires too, so its run is cancelled and ends in the background).
 */
export function answerWhenStopping(stopping: AbortSignal): MiddlewareHandler {
  return async (c, next) => {
    const stopped = () =>
      new HttpError('SHUTTING_DOWN', 'the server is stopping and this request did not finish within its grace period', {
        hint: 'Send the request again once the server is back; serve --grace <ms> gives runs in flight longer to finish.',
      }).response();
    if (stopping.aborted) return stopped();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<true>((resolve) => {
      onAbort = () => resolve(true);
      stopping.addEventListener('abort', onAbort, { once: true });
    });
    const handled = next().then(
      () => false as const,
      () => false as const,
    );
    try {
      if (await Promise.race([handled, aborted])) return stopped();
    } finally {
      stopping.removeEventListener('abort', onAbort!);
    }
  };
}

/** `POST` bodies: JSON only (415 otherwise), at most `maxBytes` (413 otherwise). */
export function jsonBody(maxBytes: number): [MiddlewareHandler, MiddlewareHandler] {
  return [
    async (c, next) => {
      const type = c.req.header('content-type') ?? '';
      if (!/^application\/json\b/i.test(type))
        throw new HttpError(
          'UNSUPPORTED_MEDIA_TYPE',
          `send the body as application/json (got ${type ? `'${type}'` : 'no content-type'})`,
        );
      await next();
    },
    bodyLimit({
      maxSize: maxBytes,
      onError: (c) => {
        const declared = Number(c.req.header('content-length'));
        throw new HttpError(
          'BODY_TOO_LARGE',
          Number.isFinite(declared) && declared > maxBytes
            ? `the body is ${declared} bytes; at most ${maxBytes} are accepted`
            : `the body is over the limit of ${maxBytes} bytes`,
        );
      },
    }),
  ];
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new HttpError('BAD_JSON', `the body is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** `value` as JSON after the one redaction pass: a model may echo a key into an answer, a call's arguments or an error. */
export function jsonResponse(status: number, value: unknown): Response {
  return new Response(redactText(JSON.stringify(value)), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}
