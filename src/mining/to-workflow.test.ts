import { describe, expect, it } from 'vitest';
import { validateWorkflow } from '../graph/validate.js';
import type { ToolNode, Workflow } from '../graph/schema.js';
import { bundledTrajectPaths, BUNDLED_DOMAINS } from '../records/bundled.js';
import { importTraject } from '../records/import/traject.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { eventLogFromRecords } from './event-log/from-records.js';
import { discoverProcessTree } from './inductive/discover.js';
import { formatProcessTree } from './process-tree/format.js';
import { parseProcessTree } from './process-tree/parse.js';
import { processTreeToWorkflow } from './to-workflow.js';

const tool = (name: string): ToolDescriptor => ({
  name,
  description: `Does ${name}. More text.`,
  inputSchema: { type: 'object', properties: {} },
});
const tools = ['a', 'b', 'c', 'd', 'e'].map(tool);
const g0 = (tree: string, extra: Partial<Parameters<typeof processTreeToWorkflow>[1]> = {}) =>
  processTreeToWorkflow(parseProcessTree(tree), { tools, name: 'test', positions: 10, ...extra });
const toolNodes = (w: Workflow) => w.nodes.filter((n): n is ToolNode => n.kind === 'tool');
const edges = (w: Workflow) =>
  w.edges.map((e) => `${e.from}>${e.to}${e.when && e.when.kind === 'field' ? `?${e.when.op}` : ''}`);

describe('process tree → G0 (docs/DESIGN.md, "Mining")', () => {
  it('sequence: plan → positions in order → synthesize, tasks from the tool descriptions, tools kept in mined', () => {
    const w = g0("->( 'a', 'b' )");
    expect(toolNodes(w).map((n) => [n.id, n.mined, n.task])).toEqual([
      ['step_1', ['a'], 'Step 1: look up what this step of the request needs. Typical use: Does a.'],
      ['step_2', ['b'], 'Step 2: look up what this step of the request needs. Typical use: Does b.'],
    ]);
    expect(edges(w)).toEqual(['plan>step_1', 'step_1>step_2', 'plan>step_2', 'step_2>synthesize', 'step_1>synthesize']);
    expect(w.nodes[0]).toMatchObject({ kind: 'llm', role: 'plan' });
    expect(w.meta).toMatchObject({ processTree: "->( 'a', 'b' )", miner: 'IM' });
  });

  it('a choice of plain activities is one position; X( ->(a,b), ->(c,d) ) is a branch, or two positions merged', () => {
    expect(toolNodes(g0("X( 'a', 'b', 'c' )")).map((n) => n.mined)).toEqual([['a', 'b', 'c']]);
    expect(toolNodes(g0("X( ->( 'a', 'b' ), ->( 'c', 'd' ) )")).map((n) => n.mined)).toEqual([
      ['a'],
      ['b'],
      ['c'],
      ['d'],
    ]);
    expect(toolNodes(g0("X( ->( 'a', 'b' ), ->( 'c', 'd' ) )", { branches: false })).map((n) => n.mined)).toEqual([
      ['a', 'c'],
      ['b', 'd'],
    ]);
  });

  it('a step only some alternatives have is an open position: no judge, it may make no call (calls: many)', () => {
    const w = g0("->( 'a', X( tau, 'b' ), 'c' )");
    expect(w.nodes.map((n) => n.id)).toEqual(['plan', 'step_1', 'step_2', 'step_3', 'synthesize']);
    expect(toolNodes(w).map((n) => n.calls)).toEqual([undefined, 'many', undefined]);
    expect(edges(w)).toEqual(expect.arrayContaining(['step_1>step_2', 'plan>step_2', 'step_2>step_3']));
    expect(w.edges.some((e) => e.when)).toBe(false);
  });

  it("optional: 'judge' keeps an optional step behind a judge: guarded edge in, skip edge past", () => {
    const w = g0("->( 'a', X( tau, 'b' ), 'c' )", { optional: 'judge' });
    expect(w.nodes.map((n) => n.id)).toEqual(['plan', 'step_1', 'needed_2', 'step_2', 'step_3', 'synthesize']);
    expect(edges(w)).toEqual(
      expect.arrayContaining(['step_1>needed_2', 'needed_2>step_2?truthy', 'needed_2>step_3?falsy', 'step_2>step_3']),
    );
    expect(w.nodes.find((n) => n.id === 'needed_2')).toMatchObject({
      role: 'judge',
      output: { type: 'json', schema: { required: ['needed', 'facts'] } },
    });
  });

  it('parallel: unguarded fan-out and join; loops repeat a position', () => {
    const w = g0("->( 'a', +( 'b', 'c' ), 'd' )");
    expect(edges(w)).toEqual(
      expect.arrayContaining(['step_1>step_2', 'step_1>step_3', 'step_2>step_4', 'step_3>step_4']),
    );
    expect(toolNodes(g0("*( X( 'a', 'b' ), tau )"))).toEqual([
      expect.objectContaining({ calls: 'many', mined: ['a', 'b'] }),
    ]);
    expect(toolNodes(g0("*( 'a', tau )", { retryTools: ['a'] }))).toEqual([
      expect.objectContaining({ retry: { attempts: 3, on: 'error' } }),
    ]);
  });

  it('compacts a wide union of chains to the target number of positions', () => {
    const w = g0("X( ->( 'a', 'b', 'c' ), ->( 'd', 'e' ), ->( 'a', 'e', 'c', 'b' ) )", { positions: 2 });
    expect(toolNodes(w)).toHaveLength(2);
    expect(
      toolNodes(w)
        .flatMap((n) => n.mined)
        .sort(),
    ).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('G0 for each TRAJECT-Bench domain', () => {
  it.each(BUNDLED_DOMAINS)('%s: mined from its records, valid for its tools, positions ≈ chain length', (domain) => {
    const paths = bundledTrajectPaths(domain);
    const { records, tools: domainTools } = importTraject(paths.trajQuery, paths.tools);
    const log = eventLogFromRecords(records);
    const tree = discoverProcessTree(log, { noiseThreshold: 0.2 });
    const mine = (branches: boolean) =>
      processTreeToWorkflow(tree, {
        tools: domainTools,
        name: `${domain} G0`,
        domain,
        log,
        noiseThreshold: 0.2,
        branches,
      });
    const w = mine(true);
    expect(validateWorkflow(w, domainTools)).toEqual([]);
    const lengths = records.map((r) => r.calls.length).sort((x, y) => x - y);
    const median = lengths[lengths.length >> 1]!;
    // Merged, the steps are about one run long; with branches, every option's steps count, at most
    // twice the typical length in all (compaction's bound).
    expect(Math.abs(toolNodes(mine(false)).length - median)).toBeLessThanOrEqual(1);
    expect(toolNodes(w).length).toBeLessThanOrEqual(2 * median);
    const mined = new Set(toolNodes(w).flatMap((n) => n.mined ?? []));
    const leaves = new Set(
      formatProcessTree(tree)
        .match(/'[^']+'/g)!
        .map((q) => q.slice(1, -1)),
    );
    expect(mined).toEqual(leaves); // every tool of the tree stays in some position's mined list
    expect(w.meta).toMatchObject({ domain, miner: 'IMf', noiseThreshold: 0.2, cases: records.length });
  });
});
