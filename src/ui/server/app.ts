import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { FlowScoutError, HTTP_STATUS, toErrorShape, toFlowScoutError } from '../../errors/index.js';
import { hostCheck, normalHost, shownHost } from '../../util/http-guards.js';
import type { Store } from '../../store/index.js';
import type { Workflow } from '../../graph/schema.js';
import { candidateView, recordView, runSummary, runView } from './read-model.js';
import { servedWorkflows, workflowView } from './workflow-view.js';

/**
 * The UI's HTTP surface (Hono): a read-only JSON API over the store, server-sent events that tell
 * a page when the store changed, benchmark report folders, and the built single-page app. Every
 * response carries a content security policy that allows only this server's own script, so even a
 * string that slipped into markup could not run.
 */
export interface UiAppOptions {
  store: Store;
  /** The folder holding the built app (index.html and assets/). */
  spaDir: string;
  /** `flowscout bench --out` folders to show. */
  benchDirs?: string[];
  /** Workflow files (`flowscout ui --workflow`): the served-workflow pages align their runs with them. */
  workflows?: Workflow[];
  /** The --db value to print in resume commands (undefined: the default store). */
  dbFlag?: string;
  /** How often the event stream looks at the store (default 500 ms). */
  pollMs?: number;
  /**
   * Host names a request may address (its Host header without the port); others get 403, so a web
   * page elsewhere cannot read the store through a DNS name that points at 127.0.0.1. Default: any.
   */
  allowedHosts?: string[];
}

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

export function createUiApp(opts: UiAppOptions): Hono {
  const { store } = opts;
  // Shown as given (relative paths stay relative); read from the resolved path.
  const benchShown = opts.benchDirs ?? [];
  const benchDirs = benchShown.map((d) => resolve(d));
  const app = new Hono();

  const allowed = opts.allowedHosts ? new Set(opts.allowedHosts.map(normalHost)) : undefined;
  if (allowed)
    app.use(
      '*',
      hostCheck(allowed, (c) => c.text(`this server answers only for ${[...allowed].map(shownHost).join(', ')}`, 403)),
    );
  app.use('*', async (c, next) => {
    await next();
    c.header('Content-Security-Policy', CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
  });

  // Every API error is `{error: ErrorShape}` (code, message, hint, location) with its code's HTTP status.
  app.onError((e, c) => {
    const error = toErrorShape(e);
    return c.json({ error }, HTTP_STATUS[error.code] as ContentfulStatusCode);
  });

  app.get('/api/runs', (c) =>
    c.json({
      store: store.file,
      runs: store.listRuns().map((r) => runSummary(store, r, opts.dbFlag)),
      bench: benchShown.map((dir, index) => ({ index, dir })),
    }),
  );
  app.get('/api/runs/:id', (c) => c.json(runView(store, c.req.param('id'), opts.dbFlag)));
  app.get('/api/workflows', (c) => c.json({ workflows: servedWorkflows(store, opts.workflows ?? []) }));
  app.get('/api/workflows/:hash', (c) => c.json(workflowView(store, c.req.param('hash'), opts.workflows ?? [])));
  app.get('/api/runs/:id/candidates/:cid', (c) => c.json(candidateView(store, c.req.param('id'), c.req.param('cid'))));
  app.get('/api/runs/:id/candidates/:cid/records/:split/:rid', (c) =>
    c.json(recordView(store, c.req.param('id'), c.req.param('cid'), c.req.param('split'), c.req.param('rid'))),
  );

  // One event each time what the page shows may have changed: a run's row (every iteration
  // commits it) or the set of runs. Pages refetch on the event, so nothing reloads.
  app.get('/api/events', (c) => {
    const runId = c.req.query('run');
    // An unknown run is a 404 here, before the stream starts (not an error thrown inside it).
    if (runId) store.getRun(runId);
    const signature = () => {
      if (runId) {
        const r = store.getRun(runId);
        return `${r.updatedAt}|${r.status}|${r.iterationsDone}`;
      }
      return store
        .listRuns()
        .map((r) => `${r.id}:${r.updatedAt}:${r.status}`)
        .join(',');
    };
    return streamSSE(c, async (stream) => {
      let last = signature();
      let aborted = false;
      stream.onAbort(() => {
        aborted = true;
      });
      await stream.writeSSE({ event: 'hello', data: last });
      while (!aborted) {
        await stream.sleep(opts.pollMs ?? 500);
        let now: string;
        try {
          now = signature();
        } catch (e) {
          // The run went away (or the store failed): say so to the page and end the stream quietly.
          await stream.writeSSE({ event: 'gone', data: toFlowScoutError(e).message });
          break;
        }
        if (now !== last) {
          last = now;
          await stream.writeSSE({ event: 'change', data: now });
        }
      }
    });
  });

  app.get('/api/bench/:i', (c) => {
    const dir = benchDir(benchDirs, c.req.param('i'));
    const files = readdirSync(dir).sort();
    const reportFile = fileInside(dir, 'report.md');
    const report = reportFile ? readFileSync(reportFile, 'utf8') : null;
    return c.json({
      dir: benchShown[Number(c.req.param('i'))],
      report,
      figures: files.filter((f) => f.endsWith('.svg') && fileInside(dir, f) !== undefined),
      files,
    });
  });
  app.get('/api/bench/:i/figure/:name', (c) => {
    const dir = benchDir(benchDirs, c.req.param('i'));
    const name = c.req.param('name');
    const file = /^[\w.-]+\.svg$/.test(name) ? fileInside(dir, name) : undefined;
    if (!file) throw new FlowScoutError({ code: 'NOT_FOUND', message: `no figure '${name}' in ${dir}` });
    // A figure is shown through <img>, where SVG scripts never run; the policy forbids them anyway.
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    return c.body(readFileSync(file), 200, { 'Content-Type': 'image/svg+xml' });
  });

  app.all('/api/*', (c) => {
    throw new FlowScoutError({ code: 'NOT_FOUND', message: `no API route ${c.req.path}` });
  });

  const root = resolve(opts.spaDir);
  app.get('*', (c) => {
    let path: string;
    try {
      path = decodeURIComponent(c.req.path);
    } catch {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: 'the path is not valid percent-encoded UTF-8',
        hint: 'Check the address; open the UI at / to start again.',
      });
    }
    let file = resolve(root, `.${path}`);
    if (file !== root && !file.startsWith(root + sep)) return c.text('not found', 404);
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
    if (!existsSync(file)) return c.text(`the UI is not built: ${root} has no index.html`, 500);
    return c.body(readFileSync(file), 200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
    });
  });
  return app;
}

/**
 * `name` inside `dir` when it is a regular file that stays inside `dir` once links are followed, so a
 * link in a report folder (to /etc/passwd, say) is never served.
 */
function fileInside(dir: string, name: string): string | undefined {
  try {
    const root = realpathSync(dir);
    const file = realpathSync(join(dir, name));
    return file.startsWith(root + sep) && statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

function benchDir(dirs: string[], i: string): string {
  const dir = dirs[Number(i)];
  if (!/^\d+$/.test(i) || !dir)
    throw new FlowScoutError({
      code: 'NOT_FOUND',
      message: `no benchmark folder ${i}`,
      hint: 'Pass report folders to `flowscout ui --bench <dir>`.',
    });
  return dir;
}
