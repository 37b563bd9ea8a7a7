import { createHash, timingSafeEqual } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import type { Context, MiddlewareHandler } from 'hono';

/**
 * The guards every FlowScout HTTP server puts in front of its routes, as Hono middleware: the Host
 * check (DNS-rebinding protection: a web page cannot make a browser on this machine talk to the
 * server under another name) used by `flowscout serve` and `flowscout ui`, and the bearer token of
 * `serve --token`. Each takes the answer to give when it refuses, so every server keeps its own
 * error shape.
 */

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '::1'];

/** A host name as the guards compare it: lower case, IPv6 without brackets, no trailing dot. */
export function normalHost(name: string): string {
  return name
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

/** A host name as a person reads it in a message: IPv6 in brackets. */
export function shownHost(name: string): string {
  return name.includes(':') ? `[${name}]` : name;
}

/** Whether `host` is a loopback address or name. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return LOOPBACK_NAMES.includes(h) || /^127\./.test(h);
}

/** The host names (lower case, IPv6 without brackets) requests may address for a server bound to `host`. */
export function hostNamesFor(host: string, extra: readonly string[]): Set<string> {
  const bound = host.toLowerCase().replace(/^\[|\]$/g, '');
  const names = new Set<string>(extra.map(normalHost));
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

/** The host name of a Host header (normalised, no port); undefined when absent or malformed. */
export function hostOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    return normalHost(new URL(`http://${header}`).hostname);
  } catch {
    return undefined;
  }
}

/**
 * Answers only requests whose Host header names one of `allowed` (normalised names, see
 * `normalHost`); a request without one (an in-process `app.request`) is judged by its URL's host.
 * Any other request gets `refuse(c, hostHeader)`.
 */
export function hostCheck(
  allowed: ReadonlySet<string>,
  refuse: (c: Context, hostHeader: string | undefined) => Response | Promise<Response>,
): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('host');
    const asked = header !== undefined ? hostOf(header) : hostOf(new URL(c.req.url).host);
    if (asked === undefined || !allowed.has(asked)) return refuse(c, header);
    await next();
  };
}

/** Whether an Authorization header carries exactly `Bearer <token>` (constant-time comparison). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '');
  if (!m) return false;
  const given = createHash('sha256').update(m[1]!).digest();
  const wanted = createHash('sha256').update(token).digest();
  return timingSafeEqual(given, wanted);
}

/** Answers only requests that send `Authorization: Bearer <token>`; any other gets `refuse(c)`. */
export function bearerCheck(token: string, refuse: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  return async (c, next) => {
    if (!bearerMatches(c.req.header('authorization'), token)) return refuse(c);
    await next();
  };
}
