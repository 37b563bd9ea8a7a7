import { defineConfig } from 'tsdown';

// The published build: the library entry (`import … from 'flowscout'`) and the CLI that
// bin/flowscout.js runs when dist/ exists. Plain `.js` names, as package.json's exports expect.
// `npm run build` then builds the web UI into dist/ui/ (ui/vite.config.ts).
export default defineConfig({
  entry: { index: 'src/index.ts', 'cli/main': 'src/cli/main.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  fixedExtension: false,
  dts: true,
  clean: true,
  // Vite builds the web UI in a checkout only (src/ui/server/spa.ts); an installed package ships the
  // built app, so the bundle never holds Vite.
  deps: { neverBundle: ['vite'] },
});
