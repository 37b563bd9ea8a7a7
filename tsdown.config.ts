import { defineConfig } from 'tsdown';

// The published build: the library entry (`import … from 'flowscout'`) and the CLI that
// bin/flowscout.js runs when dist/ exists. Plain `.js` names, as package.json's exports expect.
export default defineConfig({
  entry: { index: 'src/index.ts', 'cli/main': 'src/cli/main.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  fixedExtension: false,
  dts: true,
  clean: true,
});
