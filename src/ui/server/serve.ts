import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { FlowScoutError } from '../../errors/index.js';
import type { Workflow } from '../../graph/schema.js';
import { DEFAULT_DB_PATH, openStore } from '../../store/index.js';
import { createUiApp } from './app.js';
import { ensureSpa } from './spa.js';

/** How `flowscout ui` serves. */
export interface UiServerOptions {
  db: string;
  /** The --db value resume commands print (default: `db`, unless it is the default store). */
  dbFlag?: string;
  port: number;
  host: string;
  benchDirs?: string[];
  /** Workflow files whose served runs get a page (`--workflow`). */
  workflows?: Workflow[];
  /** The built app (default: ensureSpa()). */
  spaDir?: string;
  onBuild?: () => void;
  pollMs?: number;
}

export interface UiServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Opens the store, builds the app if a checkout needs it, and listens (port 0: any free port). */
export async function startUiServer(opts: UiServerOptions): Promise<UiServer> {
  const spaDir = opts.spaDir ?? (await ensureSpa(opts.onBuild ? { onBuild: opts.onBuild } : {}));
  const store = openStore(opts.db, { readOnly: true });
  // Bound to one address: answer only requests that name it (or localhost for a loopback address).
  const anyAddress = opts.host === '0.0.0.0' || opts.host === '::';
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(opts.host) ? ['127.0.0.1', 'localhost', '[::1]'] : [];
  const allowedHosts = anyAddress
    ? undefined
    : [...new Set([opts.host.includes(':') ? `[${opts.host}]` : opts.host, ...loopback])];
  const app = createUiApp({
    store,
    spaDir,
    ...(allowedHosts ? { allowedHosts } : {}),
    ...(opts.benchDirs ? { benchDirs: opts.benchDirs } : {}),
    ...(opts.workflows ? { workflows: opts.workflows } : {}),
    ...((opts.dbFlag ?? (opts.db !== DEFAULT_DB_PATH ? opts.db : undefined)) ? { dbFlag: opts.dbFlag ?? opts.db } : {}),
    ...(opts.pollMs ? { pollMs: opts.pollMs } : {}),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port, hostname: opts.host }, () => resolve(s as Server)) as Server;
    s.once('error', (e: NodeJS.ErrnoException) => {
      store.close();
      reject(
        e.code === 'EADDRINUSE'
          ? new FlowScoutError({
              code: 'INVALID_INPUT',
              message: `port ${opts.port} on ${opts.host} is in use`,
              hint: 'Pass another --port (0 picks a free one).',
            })
          : e,
      );
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          store.close();
          resolve();
        });
      }),
  };
}
