import type { ToolStats } from '../contracts/tools.js';
import { isWithheldByGrounding } from '../runtime/grounding.js';
import type { WorkflowEvaluation } from './types.js';

/**
 * Tool counters read from the traces of evaluations, for runs whose tools were called in other
 * processes (`flowscout worker`s), where this process's registry saw none of the calls. Calls a
 * memo answered (cached observations) were not made again and are not counted, nor are calls the
 * runtime's grounding withheld (they never reached the tools, as in one process).
 */
export function toolStatsFromTraces(evaluations: readonly WorkflowEvaluation[]): ToolStats {
  const s: ToolStats = { calls: 0, errors: 0, timeouts: 0, replayHits: 0, replayMisses: 0, simulated: 0 };
  for (const ev of evaluations) {
    for (const r of ev.perRecord) {
      for (const o of r.trace.observations) {
        if (o.cached) continue;
        for (const c of o.calls ?? []) {
          if (c.status === 'error' && isWithheldByGrounding(c.error)) continue;
          s.calls++;
          if (c.status === 'error') s.errors++;
          if (c.origin === 'replay') c.status === 'ok' ? s.replayHits++ : s.replayMisses++;
          if (c.origin === 'simulated' && c.status === 'ok') s.simulated++;
        }
      }
    }
  }
  return s;
}
