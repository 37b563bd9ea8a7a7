import { describe, expect, it } from 'vitest';
import { eventLogFromTraces, EventLogBuilder } from '../event-log/event-log.js';
import { formatProcessTree } from '../process-tree/format.js';
import { discoverProcessTree } from './discover.js';

const mine = (traces: string[][], noise = 0) =>
  formatProcessTree(discoverProcessTree(eventLogFromTraces(traces), { noiseThreshold: noise }));
const t = (s: string) => (s === '' ? [] : s.split(''));

describe('inductive miner: each family member', () => {
  it('base cases: one activity, and the empty log', () => {
    expect(mine([['a'], ['a']])).toBe('a');
    expect(mine([[]])).toBe('tau');
  });

  it('empty traces make the rest optional (before the base cases)', () => {
    expect(mine([t('ab'), t('')])).toBe("X( tau, ->( 'a', 'b' ) )");
  });

  it('cuts: xor, sequence, concurrency, loop', () => {
    expect(mine([t('a'), t('b')])).toBe("X( 'a', 'b' )");
    expect(mine([t('abc')])).toBe("->( 'a', 'b', 'c' )");
    expect(mine([t('ab'), t('ba')])).toBe("+( 'a', 'b' )");
    expect(mine([t('a'), t('aba')])).toBe("*( 'a', 'b' )");
  });

  it('strict sequence: a skippable middle step becomes optional', () => {
    expect(mine([t('abc'), t('ac')])).toBe("->( 'a', X( tau, 'b' ), 'c' )");
  });

  it('fall-throughs: activity once per trace, tau loop, flower', () => {
    expect(mine([t('abc'), t('cab'), t('bca')].concat([t('acb')]))).toMatch(/^\+\(/);
    expect(mine([t('aa'), t('a')])).toBe("*( 'a', tau )");
    expect(mine([t('abcacb'), t('bcab')])).toMatch(/\*\(/);
  });

  it('IMf drops infrequent behaviour that IM keeps', () => {
    const traces = [...Array(20).fill(t('abcd')), t('abcb')];
    expect(mine(traces)).toBe("->( 'a', +( 'c', *( 'b', tau ) ), X( tau, 'd' ) )");
    expect(mine(traces, 0.2)).toBe("->( 'a', 'b', 'c', 'd' )");
  });

  it('IMf reproduces PM4Py’s order-dependent concurrency projection (counts are overwritten, not added)', () => {
    // Under a parallel cut, the sublog count of a projected trace is the count of the *last* variant
    // mapping to it (docs/DESIGN.md, "Matching PM4Py" §6.6). Same cases in two orders can then give two IMf trees.
    const groups: [string, number][] = [
      ['cbd', 2],
      ['cba', 16],
      ['bdac', 2],
      ['dcba', 6],
      ['dca', 11],
      ['bdca', 17],
    ];
    const build = (g: [string, number][]) => {
      const b = new EventLogBuilder();
      let id = 0;
      for (const [trace, n] of g) for (let i = 0; i < n; i++) b.addCase(String(id++), t(trace));
      return b.build();
    };
    const fwd = build(groups);
    const rev = build([...groups].reverse());
    const imf = (log: ReturnType<typeof build>) => formatProcessTree(discoverProcessTree(log, { noiseThreshold: 0.2 }));
    expect(formatProcessTree(discoverProcessTree(fwd))).toBe(formatProcessTree(discoverProcessTree(rev)));
    expect(imf(fwd)).toBe("->( +( 'c', X( tau, 'd' ), X( tau, 'b' ) ), 'a' )");
    expect(imf(rev)).toBe("->( +( X( tau, 'c' ), X( tau, 'd' ), X( tau, 'b' ) ), 'a' )");
  });

  it('rejects a noise threshold outside [0, 1]', () => {
    expect(() => discoverProcessTree(eventLogFromTraces([['a']]), { noiseThreshold: 2 })).toThrow(/between 0 and 1/);
  });

  it('mines a 2,000-activity flower-like log without recursion limits', () => {
    const acts = Array.from({ length: 2000 }, (_, i) => `t${i}`);
    const traces = Array.from({ length: 300 }, (_, k) => [
      acts[(k * 7) % 2000]!,
      acts[(k * 13 + 1) % 2000]!,
      acts[(k * 29 + 2) % 2000]!,
    ]);
    const tree = discoverProcessTree(eventLogFromTraces(traces));
    expect(formatProcessTree(tree).length).toBeGreaterThan(100);
  });
});
