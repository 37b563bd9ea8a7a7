import type { BaseCase } from '../types.js';
import { emptyLogBaseCase } from './empty-log.js';
import { singleActivityBaseCase } from './single-activity.js';

/** The base cases in PM4Py's order (docs/DESIGN.md, "Matching PM4Py" §1.2). */
export const BASE_CASES: readonly BaseCase[] = [emptyLogBaseCase, singleActivityBaseCase];

export { emptyLogBaseCase, singleActivityBaseCase };
