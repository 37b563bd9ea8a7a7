/**
 * Where a search's model tokens go (not a test): the cost projection of `flowscout search
 * --dry-run` counts the requests the real LLM policy, judge and optimizer build on a few D_opt
 * records (src/search/project-cost.ts); this prints those requests' input tokens per role and per
 * part of the request (system text, the answer's JSON schema, and the prompt's sections: the step,
 * the candidate tools, hints, bindings, the request, upstream results, the judge's rubric and the
 * record, the optimizer's workflow view, feedback, tools, schema, …), per request on average, and
 * the projected cost of the whole search.
 *
 *   npx tsx benchmarks/request-parts.ts [--domain Travel] [--model openai:gpt-4o-mini] [--iterations 30]
 *
 * Tokens are estimated at 4 characters a token (llm/counting-model.ts); the records are the bundled
 * TRAJECT-Bench domain, split and searched as `flowscout search` does with its defaults.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/cli/program.js';
import type { CliIO } from '../src/cli/output.js';
import { projectionOf } from '../src/cli/commands/search-dry-run.js';
import { DEFAULT_SETTINGS } from '../src/search/search-context.js';
import { openStore } from '../src/store/open-store.js';
import { prepareSearch } from '../src/wiring/prepare-search.js';
import { TOKEN_CHARS } from '../src/llm/counting-model.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const domain = arg('--domain', 'Travel');
const model = arg('--model', 'openai:gpt-4o-mini');
const iterations = Number(arg('--iterations', '30'));

const quiet: CliIO = { out: () => {}, err: () => {}, isTTY: false };
const dir = mkdtempSync(join(tmpdir(), 'flowscout-request-parts-'));
try {
  await runCli(['import', 'traject', '--domain', domain, '--out', dir], quiet);
  const store = openStore(':memory:');
  const prepared = await prepareSearch(store, {
    config: {
      records: join(dir, 'records.jsonl'),
      tools: join(dir, 'tools.config.json'),
      model,
      split: '5:2:3',
      splitBy: 'auto',
      start: 'mined',
      strategy: 'mcts',
      memo: true,
      settings: { ...DEFAULT_SETTINGS, iterations, seed: 0 },
      budget: {},
    },
    calls: { probe: false, requireKeys: false },
  });
  try {
    const p = (await projectionOf(prepared, { keepRequests: true }))!;
    const requests = p.requests ?? [];
    const byRole = new Map<string, { requests: number; parts: Map<string, number> }>();
    for (const r of requests) {
      const role = r.role.startsWith('policy:') ? `policy (${r.role.slice(7)})` : r.role;
      const entry = byRole.get(role) ?? { requests: 0, parts: new Map<string, number>() };
      byRole.set(role, entry);
      entry.requests++;
      const addPart = (part: string, chars: number) => entry.parts.set(part, (entry.parts.get(part) ?? 0) + chars);
      addPart('system text', r.systemChars);
      addPart('answer schema (response format)', r.schemaChars);
      const prompt = r.input.slice(r.schemaChars + r.systemChars);
      let section = 'prompt (other)';
      for (const paragraph of prompt.split('\n\n')) {
        section = sectionOf(paragraph) ?? section;
        addPart(section, paragraph.length + 2);
      }
    }
    console.log(`${domain}, ${model}, J = ${iterations}: ${p.sampled} D_opt records measured`);
    for (const [role, e] of [...byRole].sort((a, b) => a[0].localeCompare(b[0]))) {
      const total = [...e.parts.values()].reduce((a, b) => a + b, 0);
      console.log(
        `${role}: ${e.requests} requests, ${Math.round(total / TOKEN_CHARS / e.requests)} input tokens a request`,
      );
      for (const [part, chars] of [...e.parts].sort((a, b) => b[1] - a[1]))
        if (chars > 0)
          console.log(
            `  ${part.padEnd(44)} ${String(Math.round(chars / TOKEN_CHARS / e.requests)).padStart(6)} tokens a request (${Math.round((100 * chars) / total)} %)`,
          );
    }
    console.log('parts of the projected search:');
    for (const part of p.parts)
      console.log(
        `  ${part.label}: ${part.requests} requests, ${part.inputTokens} input tokens (${part.cachedInputTokens} cached), ${part.outputTokens} output tokens`,
      );
    console.log(
      `projected: ${p.total.requests} requests, ${p.total.inputTokens} input tokens (${p.total.cachedInputTokens} cached), ${p.total.outputTokens} output tokens, $${p.costUsd?.toFixed(3) ?? '?'}`,
    );
    for (const [mode, m] of Object.entries(p.judgeModes))
      console.log(`  with --judge-mode ${mode}: $${m.costUsd?.toFixed(3) ?? '?'}`);
  } finally {
    await prepared.close();
    store.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** The section a paragraph of a prompt opens, by its first words (undefined: it continues the last one). */
function sectionOf(paragraph: string): string | undefined {
  const first = paragraph.split('\n')[0]!;
  const known: Array<[RegExp, string]> = [
    [/^Step:/, 'step and call rule'],
    [/^Make (exactly|at most) one call|^Make one call per/, 'step and call rule'],
    [/^Do not repeat a call/, 'step and call rule'],
    [/^Candidate tools:/, 'candidate tools'],
    [/^These are the \d+ of the step/, 'candidate tools'],
    [/^What this workflow learned/, 'hints'],
    [/^Arguments the workflow fills/, 'bindings'],
    [/^Bound by the workflow/, 'bound values'],
    [/^Request:/, 'request'],
    [/^Your parts? of the request/, 'part of the request'],
    [/^Upstream results:|^Information so far:|^\[[^\]]+\] (tool results|\w+ output)/, 'upstream results'],
    [/^You will be given a user request/, 'judge rubric'],
    [/^Evaluation (criteria|steps|form)/, 'judge rubric'],
    [/^Reference answer:/, 'reference answer'],
    [/^Candidate answer:/, 'candidate answer'],
    [/^## Workflow/, 'optimizer: workflow'],
    [/^## Feedback/, 'optimizer: feedback'],
    [/^## Tools/, 'optimizer: tools'],
    [/^## Prompt templates/, 'optimizer: prompt templates'],
    [/^## How tool nodes/, 'optimizer: hand-off'],
    [/^## Synthesizer prompt variants/, 'optimizer: synthesize variants'],
    [/^## Already tried/, 'optimizer: siblings'],
    [/^## Edit-plan JSON schema/, 'optimizer: edit-plan schema in the prompt'],
    [/^Answer with the edit plan/, 'optimizer: instruction'],
  ];
  return known.find(([re]) => re.test(first))?.[1];
}
