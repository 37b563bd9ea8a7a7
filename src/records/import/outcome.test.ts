import { describe, expect, it } from 'vitest';
import { outcomeOf, recordOutcome } from './outcome.js';

describe('outcomeOf', () => {
  it('reads a full reward as success and partial credit as failure', () => {
    expect(outcomeOf({ reward: 1 })).toEqual({ success: true, field: 'reward', value: 1 });
    expect(outcomeOf({ reward: 0.5 })).toEqual({ success: false, field: 'reward', value: 0.5 });
    expect(outcomeOf({ reward: 0 })).toMatchObject({ success: false });
  });

  it('reads success flags and status words, and says nothing of a word it does not know', () => {
    expect(outcomeOf({ success: false })).toEqual({ success: false, field: 'success', value: false });
    expect(outcomeOf({ status: 'Completed' })).toEqual({ success: true, field: 'status', value: 'Completed' });
    expect(outcomeOf({ outcome: 'timeout' })).toMatchObject({ success: false, field: 'outcome' });
    expect(outcomeOf({ status: 'in progress' })).toBeUndefined();
    expect(outcomeOf({ messages: [] })).toBeUndefined();
    expect(outcomeOf([{ reward: 1 }])).toBeUndefined();
  });

  it('reads back what import kept in meta.outcome, and nothing else', () => {
    expect(recordOutcome({ outcome: { success: true, field: 'reward', value: 1 } })).toMatchObject({ success: true });
    expect(recordOutcome({ outcome: 'ok' })).toBeUndefined();
    expect(recordOutcome(undefined)).toBeUndefined();
  });
});
