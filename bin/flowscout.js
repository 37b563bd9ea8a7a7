#!/usr/bin/env node
// Runs the built CLI (dist/cli/main.js): an installed package ships dist/ and no src/, and a checkout
// builds dist/ on `npm ci` (the `prepare` script). In a checkout whose dist/ is missing or older than
// a file in src/, it says so and runs the sources through tsx instead (slower to start, never stale).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli', 'main.js');
const sources = join(root, 'src');

/** The first source file changed after `since` (ms), if any; test files do not go into the build. */
function changedSince(dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const hit = changedSince(path, since);
      if (hit) return hit;
    } else if (
      /\.(ts|mts|js|json)$/.test(entry.name) &&
      !/\.test\.ts$/.test(entry.name) &&
      statSync(path).mtimeMs > since
    ) {
      return path;
    }
  }
  return undefined;
}

let useSources = false;
if (existsSync(join(sources, 'cli', 'main.ts'))) {
  if (!existsSync(built)) {
    process.stderr.write(
      'flowscout: dist/ has not been built in this checkout; running the sources through tsx (slower start). Run `npm run build` (npm ci does it) to fix this.\n',
    );
    useSources = true;
  } else {
    const changed = changedSince(sources, statSync(built).mtimeMs);
    if (changed) {
      process.stderr.write(
        `flowscout: dist/ is older than src/ (${relative(root, changed)} changed after the last build); running the sources through tsx (slower start). Run \`npm run build\` to bring dist/ up to date.\n`,
      );
      useSources = true;
    }
  }
}
if (useSources) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(sources, 'cli', 'main.ts')).href);
} else {
  await import(pathToFileURL(built).href);
}
