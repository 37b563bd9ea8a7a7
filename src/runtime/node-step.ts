import type { Usage } from '../policies/types.js';
import type { CallObservation } from './trace.js';

/** What running one node produced, before the run adds identity and timing (→ NodeObservation). */
export interface NodeStepResult {
  status: 'ok' | 'error';
  output?: unknown;
  error?: string;
  attempts: number;
  model?: string;
  usage?: Usage;
  calls?: CallObservation[];
}

/** The message of anything thrown, for error observations. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e) ?? String(e);
  } catch {
    return String(e);
  }
}
