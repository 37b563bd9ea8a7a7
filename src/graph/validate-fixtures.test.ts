import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateWorkflow } from './validate.js';

const dir = join(import.meta.dirname, '../../test/fixtures/workflows');
const tools = JSON.parse(readFileSync(join(dir, 'tools.json'), 'utf8')) as Array<{ name: string }>;
const load = (sub: string, name: string): unknown => JSON.parse(readFileSync(join(dir, sub, `${name}.json`), 'utf8'));
/** What `flowscout validate` prints for each problem: code, path and message. */
const problemsOf = (name: string) =>
  validateWorkflow(load('invalid', name), tools).map((p) => `[${p.code}] ${p.path}: ${p.message}`);

describe('valid fixtures', () => {
  const files = readdirSync(join(dir, 'valid')).map((f) => f.replace(/\.json$/, ''));
  it('covers linear, conditional branch, parallel, retry and calls: many', () => {
    expect(files.sort()).toEqual(['calls-many', 'conditional-branch', 'linear', 'parallel', 'retry']);
  });
  it.each(files)('%s is Valid(G, T)', (name) => {
    expect(validateWorkflow(load('valid', name), tools)).toEqual([]);
  });
});

describe('invalid fixtures: one problem each, message pinned', () => {
  it('every invalid fixture is rejected', () => {
    for (const f of readdirSync(join(dir, 'invalid'))) {
      expect(validateWorkflow(load('invalid', f.replace(/\.json$/, '')), tools), f).not.toEqual([]);
    }
  });
  it('duplicate ids', () => {
    expect(problemsOf('duplicate-id')).toMatchInlineSnapshot(`
      [
        "[duplicate-id] $.nodes[2].id: duplicate node id 'current' (first used at $.nodes[1]); give every node its own id",
      ]
    `);
  });
  it('edge to a missing node', () => {
    expect(problemsOf('edge-missing-node')).toMatchInlineSnapshot(`
      [
        "[missing-node] $.edges[1].to: edge target 'forecast' is not a node; add a node with that id or use one of: plan, current, answer",
      ]
    `);
  });
  it('cycle (the message names it)', () => {
    expect(problemsOf('cycle')).toMatchInlineSnapshot(`
      [
        "[cycle] $.edges[2]: the graph has a cycle: check → current → check; workflows are acyclic, so remove one of these edges (for repetition use a tool node's "retry" or "calls": "many")",
      ]
    `);
  });
  it('no entry', () => {
    expect(problemsOf('no-entry')).toMatchInlineSnapshot(`
      [
        "[cycle] $.edges[2]: the graph has a cycle: current → plan → current; workflows are acyclic, so remove one of these edges (for repetition use a tool node's "retry" or "calls": "many")",
        "[no-entry] $.edges: every node has an incoming edge, so there is no entry; the entry is the one llm "plan" node with no incoming edges",
      ]
    `);
  });
  it('several entries', () => {
    expect(problemsOf('multiple-entries')).toMatchInlineSnapshot(`
      [
        "[multiple-entries] $.nodes: 2 nodes have no incoming edges (plan, forecast); keep 'plan' as the only entry and add edges into the others from it or from a node after it",
      ]
    `);
  });
  it('wrong entry role', () => {
    expect(problemsOf('entry-role')).toMatchInlineSnapshot(`
      [
        "[entry-role] $.nodes[0]: entry node 'current' is a tool node; the entry must be an llm node with role "plan" (add a plan node with an edge into 'current')",
      ]
    `);
  });
  it('no exit', () => {
    expect(problemsOf('no-exit')).toMatchInlineSnapshot(`
      [
        "[cycle] $.edges[2]: the graph has a cycle: answer → current → answer; workflows are acyclic, so remove one of these edges (for repetition use a tool node's "retry" or "calls": "many")",
        "[no-exit] $.edges: every node has an outgoing edge, so there is no exit; the exit is the one llm "synthesize" node with no outgoing edges",
      ]
    `);
  });
  it('several exits', () => {
    expect(problemsOf('multiple-exits')).toMatchInlineSnapshot(`
      [
        "[multiple-exits] $.nodes: 2 nodes have no outgoing edges (forecast, answer); keep 'answer' as the only exit and add edges from the others to it or to a node before it",
      ]
    `);
  });
  it('wrong exit role', () => {
    expect(problemsOf('exit-role')).toMatchInlineSnapshot(`
      [
        "[exit-role] $.nodes[1]: exit node 'current' is a tool node; the exit must be an llm node with role "synthesize" (add a synthesize node with an edge from 'current')",
      ]
    `);
  });
  it('node unreachable from the entry', () => {
    expect(problemsOf('unreachable')).toMatchInlineSnapshot(`
      [
        "[multiple-entries] $.nodes: 2 nodes have no incoming edges (plan, extra); keep 'plan' as the only entry and add edges into the others from it or from a node after it",
        "[unreachable] $.nodes[3]: node 'forecast' cannot be reached from the entry; add an edge into it from the plan node or a node after it, or remove it",
      ]
    `);
  });
  it('node with no path to the exit', () => {
    expect(problemsOf('dead-end')).toMatchInlineSnapshot(`
      [
        "[multiple-exits] $.nodes: 2 nodes have no outgoing edges (archive, answer); keep 'answer' as the only exit and add edges from the others to it or to a node before it",
        "[dead-end] $.nodes[2]: node 'log' has no path to the exit; add an edge from it towards the synthesize node, or remove it",
      ]
    `);
  });
  it('tool hint not in T (with a suggestion)', () => {
    expect(problemsOf('unknown-tool')).toMatchInlineSnapshot(`
      [
        "[unknown-tool] $.nodes[1].tools[0]: tool 'get_curent_weather' used by node 'current' is not available; did you mean 'get_current_weather'? available: get_current_weather, get_forecast",
      ]
    `);
  });
  it('guard reading an undeclared field', () => {
    expect(problemsOf('guard-undeclared-field')).toMatchInlineSnapshot(`
      [
        "[guard-field] $.edges[2].when.field: guard reads field 'needed' which node 'judge' does not declare (declared: forecast_needed); guard on a declared field or add 'needed' to the node's output schema",
      ]
    `);
  });
  it('guard comparing a boolean field with a string', () => {
    expect(problemsOf('guard-value')).toMatchInlineSnapshot(`
      [
        "[guard-value] $.edges[2].when.value: guard compares field 'forecast_needed' (declared boolean) with "yes", which can never match as meant; compare with true or false, or use op "truthy" / "falsy"",
      ]
    `);
  });
  it('status guard on an llm node', () => {
    expect(problemsOf('status-guard-on-llm')).toMatchInlineSnapshot(`
      [
        "[guard-source] $.edges[0].when: a status guard reads a tool node's status, but 'plan' is an llm node with role "plan"; guard on a field of its JSON output instead ({"kind": "field", "field": …, "op": …})",
      ]
    `);
  });
  it('retry out of range', () => {
    expect(problemsOf('retry-range')).toMatchInlineSnapshot(`
      [
        "[retry-range] $.nodes[1].retry.attempts: retry attempts must be between 1 and 5 (got 8); attempts counts the first call, so 1 means no retry",
      ]
    `);
  });
  it('schema: bad node kind', () => {
    expect(problemsOf('schema-bad-kind')).toMatchInlineSnapshot(`
      [
        "[schema] $.nodes[1].kind: "kind" "api" is not valid; use "llm" or "tool"",
      ]
    `);
  });
  it('schema: unknown key', () => {
    expect(problemsOf('schema-unknown-key')).toMatchInlineSnapshot(`
      [
        "[schema] $.nodes[1]: unknown key 'retries'; remove it or check the spelling",
      ]
    `);
  });
  it('a prompt placeholder nothing fills at run time', () => {
    expect(problemsOf('prompt-placeholder')).toMatchInlineSnapshot(`
      [
        "[prompt-placeholder] $.nodes[2].prompt: prompt of node 'answer' uses the unknown placeholder {{results}}; a stored prompt may only use {{query}} and {{inputs}} (and {{question}} / {{choices}} with the node's field of that name), so write the text in its place",
      ]
    `);
  });
  it('tool hints are only checked when T is given', () => {
    expect(validateWorkflow(load('invalid', 'unknown-tool'))).toEqual([]);
  });
  it('an empty tool list suggests passing tools', () => {
    expect(validateWorkflow(load('invalid', 'unknown-tool'), []).map((p) => p.message)).toMatchInlineSnapshot(`
      [
        "tool 'get_curent_weather' used by node 'current' is not available; no tools are loaded; pass the tools (e.g. --tools tools.json)",
      ]
    `);
  });
});
