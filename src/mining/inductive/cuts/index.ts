import type { Dfg } from '../dfg.js';
import type { Cut } from '../types.js';
import { concurrencyCut } from './concurrency.js';
import { loopCut } from './loop.js';
import { sequenceCut } from './sequence.js';
import { xorCut } from './xor.js';

/** The cuts in the order PM4Py tries them (docs/DESIGN.md, "Matching PM4Py" §1.3): the first that applies wins. */
export const CUTS: readonly Cut[] = [xorCut, sequenceCut, concurrencyCut, loopCut];

/** The first cut that holds on `dfg`, with its groups. */
export function findCut(dfg: Dfg): { cut: Cut; groups: number[][] } | null {
  for (const cut of CUTS) {
    const groups = cut.holds(dfg);
    if (groups) return { cut, groups };
  }
  return null;
}

export { concurrencyCut, loopCut, sequenceCut, xorCut };
