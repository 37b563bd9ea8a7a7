import { createRandom, type Random } from '../util/random.js';

/**
 * The randomness of one search iteration, derived from (seed, iteration) alone, and
 * injected. Nothing carries random state from one iteration to the next, so a run resumed at
 * iteration t makes exactly the choices the uninterrupted run made at t.
 */
export function iterationRandom(seed: number, iteration: number, stream = 'expand'): Random {
  return createRandom(`flowscout-search/${seed}/${iteration}/${stream}`);
}
