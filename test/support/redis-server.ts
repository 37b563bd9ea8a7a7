import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/**
 * A real `redis-server` for tests (Debian's package), on a free port of 127.0.0.1, with no
 * persistence (`--save ''`, `--appendonly no`), stopped by its pid. When the binary is missing the
 * error says how to install it; tests that need Redis fail with that message (they are never
 * skipped).
 */

export const REDIS_MISSING =
  "redis-server is not installed, and the distributed-evaluation tests need a real Redis: install it with `apt-get install -y redis-server` (or set FLOWSCOUT_TEST_REDIS_URL to a running server's URL)";

export interface TestRedis {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/** A port that was free a moment ago (bound to 0, read, released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts redis-server; rejects with REDIS_MISSING when there is no binary. With `port` it starts on
 * that port (once, no retry on another): a server that comes back where one was stopped.
 */
export async function startTestRedis(opts: { port?: number } = {}): Promise<TestRedis> {
  if (opts.port !== undefined) return startOn(opts.port);
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await startOn(port);
    } catch (e) {
      if ((e as Error).message === REDIS_MISSING || attempt >= 3) throw e;
    }
  }
}

async function startOn(port: number): Promise<TestRedis> {
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout!.on('data', (d) => (log += String(d)));
  child.stderr!.on('data', (d) => (log += String(d)));
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (e: NodeJS.ErrnoException) =>
      reject(new Error(e.code === 'ENOENT' ? REDIS_MISSING : `redis-server did not start: ${e.message}`)),
    );
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited (${code}) on port ${port}: ${log.slice(-500)}`)),
    );
  });
  exited.catch(() => {});
  const url = `redis://127.0.0.1:${port}`;
  const ready = (async () => {
    // Up to a minute: a busy machine may be slow to start it.
    for (let i = 0; i < 1200; i++) {
      const probe = new Redis(url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
        enableOfflineQueue: false,
      });
      probe.on('error', () => {});
      try {
        await probe.connect();
        await probe.ping();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      } finally {
        probe.disconnect();
      }
    }
    throw new Error(`redis-server on port ${port} did not answer: ${log.slice(-500)}`);
  })();
  await Promise.race([ready, exited]);
  const pid = child.pid!;
  return {
    url,
    port,
    pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        process.kill(pid, 'SIGTERM');
      }),
  };
}
