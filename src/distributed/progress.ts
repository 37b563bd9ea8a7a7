import type { QueueProgress } from './queue-runner.js';

/** The queue part of a progress line: `jobs 3 waiting · 4 active · 120 done · 0 failed · 2 workers`. */
export function progressText(p: QueueProgress): string {
  return `jobs ${p.waiting} waiting · ${p.active} active · ${p.done} done · ${p.failed} failed · ${p.workers} worker${p.workers === 1 ? '' : 's'}`;
}
