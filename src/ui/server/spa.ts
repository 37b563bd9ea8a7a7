import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FlowScoutError } from '../../errors/index.js';

/**
 * Where the single-page app lives. A published package ships it built in `dist/ui/` (`npm run
 * build` runs Vite after tsdown). A checkout has its sources in `ui/` and builds them on demand the
 * first time `flowscout ui` runs, and again whenever a source is newer than the build, so a clone
 * works after `npm ci` with no extra step and never serves a stale app.
 */

/** The package root: the nearest folder above this file whose package.json is flowscout's. */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'flowscout')
      return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find flowscout's package.json above ${from}`);
    dir = up;
  }
}

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** Whether the built app is missing or older than its sources (checkouts only). */
export function spaNeedsBuild(root: string = packageRoot()): boolean {
  const source = join(root, 'ui');
  const built = join(root, 'dist', 'ui', 'index.html');
  if (!existsSync(source)) return false;
  return !existsSync(built) || newestMtime(source) > statSync(built).mtimeMs;
}

/**
 * The folder of the built app, building it first in a checkout when needed (`onBuild` is told, as
 * it takes a few seconds). The build goes to a fresh folder that then replaces `dist/ui`, so a
 * reader never sees half an app.
 */
export async function ensureSpa(opts: { root?: string; onBuild?: () => void } = {}): Promise<string> {
  const root = opts.root ?? packageRoot();
  const out = join(root, 'dist', 'ui');
  if (spaNeedsBuild(root)) {
    opts.onBuild?.();
    const tmp = join(root, 'dist', `.ui-build-${process.pid}-${Date.now()}`);
    mkdirSync(dirname(tmp), { recursive: true });
    // Vite is a development dependency: only a checkout (which has ui/) reaches this import, and the
    // published bundle leaves it out (tsdown.config.ts).
    const vite = await import('vite');
    await vite.build({
      configFile: join(root, 'ui', 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: tmp, emptyOutDir: true },
    });
    rmSync(out, { recursive: true, force: true });
    renameSync(tmp, out);
  }
  if (!existsSync(join(out, 'index.html'))) {
    throw new FlowScoutError({
      code: 'FILE_NOT_FOUND',
      message: `the web UI is not built: ${out} has no index.html`,
      hint: 'Reinstall FlowScout, or in a checkout run `npm run build`.',
      location: { file: out },
    });
  }
  return out;
}
