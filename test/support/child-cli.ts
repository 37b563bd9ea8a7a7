import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * `flowscout` as a real child process (workers, a coordinator to kill): its output is collected,
 * and `waitFor` resolves when a line matching a pattern has been printed.
 */

const BIN = join(import.meta.dirname, '../../bin/flowscout.js');

export interface ChildCli {
  readonly child: ChildProcess;
  readonly pid: number;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `re` in the output (rejects if the process ends first). */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** SIGTERM (or the given signal) and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function spawnCli(args: string[], env: Record<string, string | undefined> = {}): ChildCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += String(d);
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      for (const l of listeners) l();
      resolve(code);
    }),
  );
  return {
    child,
    pid: child.pid!,
    output: () => out,
    exited,
    waitFor(re, timeoutMs = 600_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = out.match(re);
          if (m) {
            done();
            resolve(m);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(new Error(`flowscout ${args[0]} ended before printing ${re}:\n${out}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`flowscout ${args[0]} did not print ${re} within ${timeoutMs} ms:\n${out}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
