import { registerBaseline } from './baseline.js';
import { registerBench } from './bench.js';
import { registerDemo } from './demo.js';
import { registerCompile } from './compile.js';
import { registerEval } from './eval.js';
import { registerExport } from './export.js';
import { registerImport } from './import.js';
import { registerMine } from './mine.js';
import { registerRender } from './render.js';
import { registerRun } from './run.js';
import { registerRuns } from './runs.js';
import { registerSearch } from './search.js';
import { registerServe } from './serve.js';
import { registerUi } from './ui.js';
import { registerTools } from './tools.js';
import { registerValidate } from './validate.js';
import { registerWorker } from './worker.js';

import type { RegisterCommand } from './register.js';

export type { RegisterCommand } from './register.js';

/** Every command the CLI offers, in help order. Only commands that work are listed. */
export const COMMANDS: RegisterCommand[] = [registerImport, registerMine, registerValidate, registerRender, registerRun, registerCompile, registerExport, registerServe, registerEval, registerSearch, registerRuns, registerUi, registerBench, registerBaseline, registerTools, registerWorker, registerDemo];
