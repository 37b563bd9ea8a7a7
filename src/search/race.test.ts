import { describe, expect, it } from 'vitest';
import { raceCheck, raceRounds } from './race.js';

describe('racing rule', () => {
  it('runs a quarter of D_opt first (at least 8 records), then doubles up to all of it', () => {
    expect(raceRounds(56)).toEqual([14, 28, 56]);
    expect(raceRounds(1000)).toEqual([250, 500, 1000]);
    expect(raceRounds(20)).toEqual([8, 16, 20]);
    expect(raceRounds(5)).toEqual([5]);
  });

  it('stops a candidate no better than the best on every record so far, and one clearly worse', () => {
    expect(raceCheck(Array(14).fill(0), 56).goOn).toBe(false);
    expect(raceCheck([-0.1, -0.05, -0.08, -0.02, 0, -0.1, -0.04, -0.06], 56).goOn).toBe(false);
  });

  it('lets a candidate go on while it can still beat the best within the confidence bound', () => {
    // Worse on average, but too noisy on 8 of 56 records to rule out that it is better.
    expect(raceCheck([0.3, -0.3, 0.25, -0.35, 0.2, -0.2, 0.1, -0.1], 56).goOn).toBe(true);
    expect(raceCheck([0.05, 0, 0, 0, 0, 0, 0, 0], 56).goOn).toBe(true);
  });

  it('decides by the exact mean once every D_opt record ran', () => {
    const slightlyWorse = [0.3, -0.3, 0.25, -0.35, 0.2, -0.2, 0.1, -0.1];
    expect(raceCheck(slightlyWorse, 8)).toMatchObject({ goOn: false, upper: expect.closeTo(-0.0125, 6) });
    expect(raceCheck([0.01, 0, 0, 0], 4).goOn).toBe(true);
  });
});
