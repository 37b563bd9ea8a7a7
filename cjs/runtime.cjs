'use strict';
/**
 * `flowscout/runtime` for `require()`: what a compiled workflow module (`flowscout compile`) imports,
 * for the folders where it is loaded as CommonJS (no `"type": "module"` in the nearest package.json,
 * so tsx, ts-node or tsc's CommonJS output turn its `import` into `require`). The runtime is an ES
 * module; a Node.js that can `require()` one (20.19 and later, 22.12 and later) loads it here, and
 * one that cannot says in one line what the module needs instead of "subpath not exported".
 */
if (process.features.require_module !== true) {
  throw new Error(
    `flowscout/runtime is an ES module and this Node.js (${process.version}) cannot require() one (Node.js 20.19 and later can, unless started with --no-experimental-require-module): load the compiled workflow as an ES module (name it .mts, or add "type": "module" to the package.json of its folder)`,
  );
}
module.exports = require('../dist/runtime.js');
