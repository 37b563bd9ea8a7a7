import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';

/**
 * The web UI as an installed package serves it: `npm run build`'s two steps (tsdown, then Vite into
 * dist/ui/) into a package folder with bin/, dist/ and data/ but no src/ and no ui/ sources, so
 * `flowscout ui` has nothing to build and serves the shipped app.
 */
const repo = resolve(import.meta.dirname, '../..');
let tmp: string;
let pkg: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'flowscout-package-ui-'));
  pkg = join(tmp, 'flowscout');
  mkdirSync(pkg);
  cpSync(join(repo, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(repo, 'bin'), join(pkg, 'bin'), { recursive: true });
  symlinkSync(join(repo, 'data'), join(pkg, 'data'));
  symlinkSync(join(repo, 'node_modules'), join(pkg, 'node_modules'));
  execFileSync(
    process.execPath,
    [
      join(repo, 'node_modules', 'tsdown', 'dist', 'run.mjs'),
      '--out-dir',
      join(pkg, 'dist'),
      '--no-dts',
      '--log-level',
      'error',
    ],
    { cwd: repo, stdio: 'pipe' },
  );
  execFileSync(
    process.execPath,
    [
      join(repo, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'ui/vite.config.ts',
      '--outDir',
      join(pkg, 'dist', 'ui'),
      '--emptyOutDir',
      '--logLevel',
      'error',
    ],
    { cwd: repo, stdio: 'pipe' },
  );
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the built package', () => {
  it('serves the shipped web UI with `flowscout ui` and stops cleanly on SIGTERM', async () => {
    expect(existsSync(join(pkg, 'src'))).toBe(false);
    expect(existsSync(join(pkg, 'ui'))).toBe(false);
    const db = join(tmp, 'empty.db');
    openStore(db).close();
    const child = spawn(process.execPath, [join(pkg, 'bin', 'flowscout.js'), 'ui', '--db', db, '--port', '0'], {
      cwd: tmp,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
    try {
      const url = await new Promise<string>((res, rej) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = out.match(/FlowScout UI on (http:\/\/127\.0\.0\.1:\d+\/)/);
          if (m) res(m[1]!);
        });
        child.stderr.on('data', (d: Buffer) => void (out += d.toString()));
        child.on('close', () => rej(new Error(`flowscout ui exited: ${out}`)));
      });
      expect(out).not.toContain('Building the web UI');
      const html = await (await fetch(url)).text();
      const asset = html.match(/src="\.\/(assets\/[^"]+\.js)"/)![1]!;
      const js = await fetch(new URL(asset, url));
      expect(js.status).toBe(200);
      expect(js.headers.get('content-type')).toContain('javascript');
      expect(await (await fetch(new URL('api/runs', url))).json()).toMatchObject({ runs: [] });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
