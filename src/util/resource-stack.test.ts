import { describe, expect, it } from 'vitest';
import { createResourceStack } from './resource-stack.js';

describe('createResourceStack', () => {
  it('releases what was taken, last first, every step even when one fails, and only once', async () => {
    const log: string[] = [];
    const stack = createResourceStack();
    const lock = stack.use({ name: 'lock' }, (l) => void log.push(`release ${l.name}`));
    stack.defer(() => {
      log.push('stop timer');
      throw new Error('timer failed');
    });
    stack.defer(async () => void log.push('close tools'));
    expect(lock.name).toBe('lock');
    await expect(stack.dispose()).rejects.toThrow('timer failed');
    expect(log).toEqual(['close tools', 'stop timer', 'release lock']);
    await stack.dispose();
    expect(log).toHaveLength(3);
  });

  it('hands everything to a new owner with move(): the old stack releases nothing', async () => {
    const log: string[] = [];
    const stack = createResourceStack();
    stack.defer(() => void log.push('a'));
    stack.defer(() => void log.push('b'));
    const owned = stack.move();
    await stack.dispose();
    expect(log).toEqual([]);
    await owned.dispose();
    expect(log).toEqual(['b', 'a']);
  });
});
