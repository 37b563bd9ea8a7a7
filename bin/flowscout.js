#!/usr/bin/env node
// Runs the TypeScript sources through tsx in a checkout (src/ present: a clone works after `npm ci`
// with no build step, and never runs a stale build), and the built CLI in an installed package,
// which ships dist/ and no src/.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'cli', 'main.ts');
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(source).href);
} else {
  await import(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href);
}
