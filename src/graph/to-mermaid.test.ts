import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Workflow } from './schema.js';
import { guardLabel, toMermaid } from './to-mermaid.js';

const dir = join(import.meta.dirname, '../../test/fixtures/workflows/valid');
const load = (name: string): Workflow => JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));

/**
 * A structural check of the output against the subset of Mermaid flowchart grammar toMermaid uses:
 * every line is a header, comment, node, edge or class line; labels are quoted and hold no raw quote.
 */
function checkSyntax(text: string): { nodes: string[]; edges: Array<[string, string, string]> } {
  const lines = text.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^flowchart (TD|LR)$/);
  const label = '"[^"\\n]*"';
  const nodeRe = new RegExp(`^  (n\\d+)(?:\\(${label}\\)|\\[\\[${label}\\]\\])$`);
  const edgeRe = new RegExp(`^  (n\\d+) (-->|-\\.->)(?:\\|${label}\\|)? (n\\d+)$`);
  const nodes: string[] = [];
  const edges: Array<[string, string, string]> = [];
  for (const line of lines.slice(1)) {
    const n = nodeRe.exec(line);
    const e = edgeRe.exec(line);
    if (n) nodes.push(n[1]!);
    else if (e) edges.push([e[1]!, e[2]!, e[3]!]);
    else expect(line).toMatch(/^ {2}(%% .*|classDef (llm|tool) [^"]+|class (n\d+,)*n\d+ (llm|tool))$/);
  }
  for (const [from, , to] of edges) {
    expect(nodes).toContain(from);
    expect(nodes).toContain(to);
  }
  return { nodes, edges };
}

describe('toMermaid', () => {
  it('draws the conditional branch: shapes by kind, roles and hints in labels, guards on edges, control edges dotted', () => {
    expect(toMermaid(load('conditional-branch'))).toMatchInlineSnapshot(`
      "flowchart TD
        %% weather-with-optional-forecast
        n0("plan<br/>llm: plan<br/>Plan which weather lookups answer: {{query}}")
        n1[["current<br/>tool: get_current_weather<br/>Get the current weather for the city named in the request"]]
        n2("needs_forecast<br/>llm: judge → json<br/>Does the request {{query}} ask about the coming days? Reply…")
        n3[["forecast<br/>tool: get_forecast<br/>Get the multi-day forecast for the city"]]
        n4("answer<br/>llm: synthesize<br/>Answer {{query}} using the tool results: {{inputs}}")
        n0 --> n1
        n1 --> n2
        n2 -->|"forecast_needed = true"| n3
        n2 -.->|"forecast_needed ≠ true"| n4
        n1 --> n4
        n3 --> n4
        classDef llm fill:#eef3ff,stroke:#3b5bdb
        classDef tool fill:#fff4e6,stroke:#e8590c
        class n0,n2,n4 llm
        class n1,n3 tool
      "
    `);
  });

  it.each(readdirSync(dir).map((f) => f.replace(/\.json$/, '')))(
    '%s: every node declared once, every edge present',
    (name) => {
      const w = load(name);
      const { nodes, edges } = checkSyntax(toMermaid(w));
      expect(nodes).toHaveLength(w.nodes.length);
      expect(new Set(nodes).size).toBe(nodes.length);
      expect(edges).toHaveLength(w.edges.length);
      expect(edges.filter(([, arrow]) => arrow === '-.->')).toHaveLength(
        w.edges.filter((e) => e.kind === 'control').length,
      );
    },
  );

  it('shows calls: many and retry in tool labels', () => {
    expect(toMermaid(load('calls-many'))).toContain('n1[["weather<br/>tool: get_current_weather · calls: many<br/>');
    expect(toMermaid(load('retry'))).toContain('search<br/>tool: any · retry ×3 on error-or-empty');
  });

  it('escapes quotes, markup, pipes, comments and newlines from prompts, tasks and guard values', () => {
    const w = load('linear');
    Object.assign(w.nodes[0]!, {
      id: 'end',
      prompt: 'Say "hi" <b>now</b> | a;b %% not a comment\n[x] (y) {z} #1 & `code`',
    });
    w.edges[0]!.from = 'end';
    w.nodes.push({
      id: 'j',
      kind: 'llm',
      role: 'judge',
      prompt: '{{query}}',
      output: { type: 'json', schema: { type: 'object', properties: { tag: { type: 'string' } } } },
    });
    w.edges.push(
      { from: 'end', to: 'j', kind: 'data' },
      {
        from: 'j',
        to: 'answer',
        kind: 'control',
        when: { kind: 'field', field: 'tag', op: 'in', value: ['a"b', 'c|d'] },
      },
    );
    const text = toMermaid(w, { snippet: 200 });
    checkSyntax(text);
    expect(text).toContain(
      'n0("end<br/>llm: plan<br/>Say #34;hi#34; #60;b#62;now#60;/b#62; #124; a#59;b #37;#37; not a comment [x] (y) {z} #35;1 #38; #96;code#96;")',
    );
    expect(text).toContain('n3 -.->|"tag in [#34;a\\#34;b#34;,#34;c#124;d#34;]"| n2');
  });

  it('renders guards readably', () => {
    expect(guardLabel({ kind: 'field', field: 'n', op: 'gte', value: 3 })).toBe('n ≥ 3');
    expect(guardLabel({ kind: 'field', field: 'ok', op: 'falsy' })).toBe('not ok');
    expect(guardLabel({ kind: 'status', status: 'error' })).toBe('status error');
  });

  it('hides snippets on request and draws left to right', () => {
    const text = toMermaid(load('linear'), { snippet: 0, direction: 'LR' });
    expect(text.split('\n')[0]).toBe('flowchart LR');
    expect(text).toContain('n0("plan<br/>llm: plan")');
  });
});
