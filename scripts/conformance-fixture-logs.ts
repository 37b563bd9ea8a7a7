// Writes the generated event logs of the conformance fixtures (test/fixtures/conformance/logs/, see
// test/fixtures/conformance/README.md): seeded, so running it again gives the same files byte for byte.
//
//   npx tsx scripts/conformance-fixture-logs.ts
//
// - noisy-running-example.xes: 200 cases drawn from the variants of pm4py-core's running example,
//   half of them changed by one or two edits (an event dropped, doubled, swapped or inserted);
// - flower-300.xes: 300 cases of a 15-activity process where every case is changed by two to four
//   such edits, so the inductive miner's tree of it is flower-like (loops and parallel blocks);
// - duplicates.xes: 150 random cases over five activities, aligned with hand-written trees in which
//   one activity occurs at several leaves (also inside parallel branches).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { namedVariants } from '../src/mining/event-log/event-log.js';
import { readEventLog } from '../src/mining/event-log/read-event-log.js';
import { createRandom, type Random } from '../src/util/random.js';

const repo = resolve(import.meta.dirname, '..');
const out = join(repo, 'test/fixtures/conformance/logs');

function xes(cases: string[][]): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    '<log xes.version="1.0" xmlns="http://www.xes-standard.org/">',
  ];
  const width = String(cases.length).length;
  const start = Date.UTC(2024, 0, 1);
  cases.forEach((events, c) => {
    lines.push('  <trace>', `    <string key="concept:name" value="case${String(c + 1).padStart(width, '0')}"/>`);
    events.forEach((a, i) => {
      const time = new Date(start + c * 86_400_000 + i * 60_000).toISOString().replace('Z', '+00:00');
      lines.push(
        `    <event><string key="concept:name" value="${esc(a)}"/><date key="time:timestamp" value="${time}"/></event>`,
      );
    });
    lines.push('  </trace>');
  });
  lines.push('</log>', '');
  return lines.join('\n');
}

function edit(t: string[], r: Random, alphabet: string[]): string[] {
  const out = t.slice();
  const i = r.int(Math.max(1, out.length));
  switch (r.int(4)) {
    case 0:
      if (out.length > 1) out.splice(i, 1);
      break;
    case 1:
      if (out.length > 0) out.splice(i, 0, out[i]!);
      break;
    case 2: {
      const j = r.int(Math.max(1, out.length));
      if (out.length > 1) [out[i], out[j]] = [out[j]!, out[i]!];
      break;
    }
    default:
      out.splice(i, 0, alphabet[r.int(alphabet.length)]!);
  }
  return out;
}

async function noisyRunningExample(): Promise<string[][]> {
  const { log } = await readEventLog(join(repo, 'test/fixtures/mining/pm4py-logs/input_data/running-example.xes'));
  const variants = namedVariants(log);
  const r = createRandom('noisy-running-example');
  const cases: string[][] = [];
  for (let c = 0; c < 200; c++) {
    let t = variants[r.int(variants.length)]!.activities;
    if (r.next() < 0.5) for (let k = 1 + r.int(2); k > 0; k--) t = edit(t, r, log.activities);
    cases.push(t);
  }
  return cases;
}

const WIDE = [
  'route',
  'profile',
  'quote',
  'news',
  'ratings',
  'filings',
  'options',
  'insiders',
  'peers',
  'rates_a',
  'rates_b',
  'rates_c',
  'fetch_chunk',
  'summarize',
  'report',
];

function flower(): string[][] {
  const r = createRandom('flower-300');
  const cases: string[][] = [];
  for (let c = 0; c < 300; c++) {
    let t = ['route', ...r.shuffle(WIDE.slice(1, 8)).filter(() => r.next() < 0.6), WIDE[9 + r.int(3)]!];
    for (let k = r.int(3); k > 0; k--) t.push('fetch_chunk');
    t.push(r.next() < 0.7 ? 'summarize' : 'report');
    for (let k = 2 + r.int(3); k > 0; k--) t = edit(t, r, WIDE);
    cases.push(t);
  }
  return cases;
}

function duplicates(): string[][] {
  const r = createRandom('duplicates');
  const alphabet = ['a', 'b', 'c', 'd', 'e'];
  return Array.from({ length: 150 }, () => Array.from({ length: 2 + r.int(7) }, () => alphabet[r.int(5)]!));
}

mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'noisy-running-example.xes'), xes(await noisyRunningExample()));
writeFileSync(join(out, 'flower-300.xes'), xes(flower()));
writeFileSync(join(out, 'duplicates.xes'), xes(duplicates()));
console.log(`wrote noisy-running-example.xes, flower-300.xes, duplicates.xes to ${out}`);
