import type { ToolStats } from '../contracts/tools.js';
import type { WorkflowEvaluation } from './types.js';

/**
 * Tool counters read from the traces of evaluations, for runs whose tools were called in other
 * processes (`flowscout worker`s), where this process's registry saw none of the calls. Calls a
 * memo answered (cached observations) were not made again and are not counted.
 */
export function toolStatsFromTraces(evaluations: readonly WorkflowEvaluation[]): ToolStats {
  const s: ToolStats = { calls: 0, errors: 0, timeouts: 0, replayHits: 0, replayMisses: 0, simulated: 0 };
  for (const ev of evaluations) {
    for (const r of ev.perRecord) {
      for (const o of r.trace.observations) {
        if (o.cached) continue;
        for (const c of o.calls ?? []) {
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
