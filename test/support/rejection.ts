import { isFlowScoutError, type FlowScoutError } from '../../src/errors/index.js';

/**
 * The FlowScoutError `p` rejects with, so a test can assert its code, message and hint. Fails the
 * test when `p` resolves, and rethrows anything that is not a FlowScoutError (a bug, not bad input).
 */
export async function rejection(p: Promise<unknown>): Promise<FlowScoutError> {
  try {
    await p;
  } catch (e) {
    if (isFlowScoutError(e)) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}
