import { TAU, type ProcessTree } from '../../process-tree/schema.js';
import type { SubLog } from '../sublog.js';
import type { BaseCase } from '../types.js';

/** Base case: a log with no traces at all is `tau` (docs/DESIGN.md, "Matching PM4Py" §1.2). */
export const emptyLogBaseCase: BaseCase = {
  name: 'empty-log',
  apply(log: SubLog): ProcessTree | null {
    return log.traces.length === 0 ? TAU : null;
  },
};
