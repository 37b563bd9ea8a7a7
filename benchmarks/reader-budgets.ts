/**
 * Readers with budgets (not a test): builds hostile event logs in a temp dir and prints what reading
 * them costs.
 *
 *   npx tsx benchmarks/reader-budgets.ts [--unpacked 1.5g] [--keep]
 *
 * 1. Gzip bombs, each built by streaming through gzip (never held in memory): an XES log of
 *    distinct traces that unpacks to 1.5 GiB, the same size as one XML comment, and a JSONL event
 *    log that is one endless line. The XES bomb is also mined with a second, tiny gzip member
 *    appended, so that its trailer understates the size and only the count while unpacking stops
 *    it (what a forged trailer costs). Each is mined by `flowscout mine` in a child process with the
 *    default limits; the benchmark prints the wall and CPU time of the command, the child's peak
 *    memory (max RSS) and the error it printed. The goal: a named error in under 5 s and under
 *    300 MB (on a busy machine the wall time says more about the other processes than about us).
 * 2. Linear scanning: XES logs with a 15, 30 and 60 MB comment, a 15/30/60 MB attribute value (one
 *    tag), and a 15/30/60 MB run of tags on one line are read in this process; the benchmark prints
 *    the read times (CPU, least of 3) and the ratios 30/15 and 60/30 (about 2 when linear; a
 *    quadratic scan gives 4).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, createWriteStream, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip, gzipSync } from 'node:zlib';
import type { CliIO } from '../src/cli/output.js';
import { runCli } from '../src/cli/program.js';
import { readXes } from '../src/mining/event-log/read-xes.js';
import { parseByteSize } from '../src/mining/event-log/read-limits.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1e6;

/** Child mode: run `flowscout mine <file>` in this process and report time and peak memory. */
async function child(file: string): Promise<void> {
  let err = '';
  const io: CliIO = {
    out: () => {},
    err: (text) => {
      err += text;
    },
    isTTY: false,
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const status = await runCli(['mine', file], io);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(
    `${JSON.stringify({ status, ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssKb: process.resourceUsage().maxRSS, err: err.split('\n')[0] ?? '' })}\n`,
  );
}

/** Streams `total` bytes made by `piece(i)` (repeated, i = 0, 1, …) plus head and tail through gzip into `file`. */
async function gzipStream(
  file: string,
  head: string,
  piece: (i: number) => string,
  total: number,
  tail: string,
): Promise<void> {
  async function* gen() {
    yield head;
    let written = head.length;
    let i = 0;
    while (written < total) {
      const parts: string[] = [];
      let size = 0;
      while (size < 1 << 20 && written + size < total) {
        const p = piece(i++);
        parts.push(p);
        size += p.length;
      }
      written += size;
      yield parts.join('');
    }
    yield tail;
  }
  await pipeline(Readable.from(gen()), createGzip(), createWriteStream(file));
}

async function bombs(dir: string, unpacked: number): Promise<void> {
  const acts = ['register', 'check', 'approve', 'pay', 'archive'];
  const trace = (i: number) =>
    `\t<trace>\n\t\t<string key="concept:name" value="case-${String(i).padStart(9, '0')}"/>\n${acts
      .map(
        (a, k) =>
          `\t\t<event>\n\t\t\t<string key="concept:name" value="${a}"/>\n\t\t\t<date key="time:timestamp" value="2024-01-01T${String(k + 10).padStart(2, '0')}:00:00.000+00:00"/>\n\t\t</event>\n`,
      )
      .join('')}\t</trace>\n`;
  const cases: Array<{ name: string; build: (f: string) => Promise<void> }> = [
    {
      name: 'bomb-traces.xes.gz',
      build: (f) => gzipStream(f, '<?xml version="1.0"?>\n<log>\n', trace, unpacked, '</log>\n'),
    },
    {
      name: 'bomb-comment.xes.gz',
      build: (f) => gzipStream(f, '<log>\n<!-- ', () => 'x'.repeat(4096), unpacked, ' -->\n</log>\n'),
    },
    {
      name: 'bomb-line.events.jsonl.gz',
      build: (f) => gzipStream(f, '{"case": "c1", "events": [', (i) => `${i ? ',' : ''}"step"`, unpacked, ']}\n'),
    },
  ];
  console.log(
    `1. Gzip bombs of ${(unpacked / MB).toFixed(0)} MB unpacked, mined with the default limits (goal: named error, < 5 s, < 300 MB)`,
  );
  console.log(
    '   file                          .gz size   exit  wall in mine  CPU in mine  peak RSS  verdict / the error printed',
  );
  const run = (file: string, name: string) => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', file], {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    const line = res.stdout.trim().split('\n').pop() ?? '';
    let r: { status: number; ms: number; cpuMs: number; maxRssKb: number; err: string };
    try {
      r = JSON.parse(line) as typeof r;
    } catch {
      console.log(
        `   ${name}: the child failed (exit ${res.status}, signal ${res.signal}): ${res.stderr.slice(0, 400)}`,
      );
      return;
    }
    const named = r.status === 2 && /INPUT_TOO_LARGE/.test(r.err);
    const verdict = `${named ? 'named' : 'NOT NAMED'}, ${r.maxRssKb < 300_000 ? '<300 MB' : '≥300 MB'}, <5 s: wall ${r.ms < 5000 ? 'yes' : 'no'} / CPU ${r.cpuMs < 5000 ? 'yes' : 'no'}`;
    console.log(
      `   ${name.padEnd(29)} ${`${(statSync(file).size / MB).toFixed(1)} MB`.padStart(8)}  ${String(r.status).padStart(4)}  ${`${(r.ms / 1000).toFixed(2)} s`.padStart(12)}  ${`${(r.cpuMs / 1000).toFixed(2)} s`.padStart(11)}  ${`${(r.maxRssKb / 1024).toFixed(0)} MB`.padStart(8)}  ${verdict}`,
    );
    console.log(`${' '.repeat(35)}${r.err.replace(`${dir}/`, '')}`);
  };
  for (const c of cases) {
    const file = join(dir, c.name);
    await c.build(file);
    run(file, c.name);
    if (c.name === 'bomb-traces.xes.gz') {
      // The same bomb with a second, tiny gzip member: the trailer now states a few bytes, so only
      // the count while unpacking can stop it (the cost of a bomb with a forged trailer).
      const twoMembers = join(dir, 'bomb-traces-2members.xes.gz');
      renameSync(file, twoMembers);
      appendFileSync(twoMembers, gzipSync(Buffer.from('<!-- a second gzip member -->\n')));
      run(twoMembers, '  the same + a 2nd tiny member');
      rmSync(twoMembers, { force: true });
    }
    rmSync(file, { force: true });
  }
}

async function linear(dir: string): Promise<void> {
  const sizes = [15, 30, 60];
  const tail =
    '<trace><string key="concept:name" value="c1"/><event><string key="concept:name" value="a"/></event></trace>\n</log>\n';
  const kinds: Array<{ name: string; make: (bytes: number) => string }> = [
    {
      name: 'comment',
      make: (n) => `<log>\n<!-- ${'comment text, with - and -- and > inside\n'.repeat(Math.ceil(n / 41))} -->\n${tail}`,
    },
    { name: 'attribute value', make: (n) => `<log>\n<string key="note" value="${'v'.repeat(n)}"/>\n${tail}` },
    {
      name: 'tags on one line',
      make: (n) => `<log>${'<string key="k" value="v"/>'.repeat(Math.ceil(n / 27))}\n${tail}`,
    },
  ];
  console.log('');
  console.log(
    '2. Linear scanning (plain .xes read in this process, CPU s, least of 3; ratio ~2 is linear, ~4 quadratic)',
  );
  console.log('   kind               15 MB      30 MB      60 MB      30/15  60/30');
  for (const k of kinds) {
    const times: number[] = [];
    for (const mb of sizes) {
      const file = join(dir, `long-${k.name.replace(/\W+/g, '-')}-${mb}.xes`);
      writeFileSync(file, k.make(mb * MB));
      // CPU time (user + system) of this process, the least of 3 reads: steadier than wall time on a shared machine.
      let best = Infinity;
      for (let r = 0; r < 3; r++) {
        const c0 = process.cpuUsage();
        const log = await readXes(file);
        const c = process.cpuUsage(c0);
        best = Math.min(best, (c.user + c.system) / 1000);
        if (log.caseIds.length !== 1) throw new Error(`${file}: expected one case`);
      }
      times.push(best);
      rmSync(file, { force: true });
    }
    const s = times.map((t) => `${(t / 1000).toFixed(3)} s`.padEnd(9));
    console.log(
      `   ${k.name.padEnd(17)}  ${s.join('  ')}  ${(times[1]! / times[0]!).toFixed(2).padStart(5)}  ${(times[2]! / times[1]!).toFixed(2).padStart(5)}`,
    );
  }
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--child');
  if (at >= 0) return child(process.argv[at + 1]!);
  const u = process.argv.indexOf('--unpacked');
  const unpacked = u >= 0 ? parseByteSize(process.argv[u + 1]!, '--unpacked') : 1.5 * 1024 ** 3;
  const dir = mkdtempSync(join(tmpdir(), 'flowscout-reader-budgets-'));
  console.log(
    `Reader budgets (Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}); files in ${dir}`,
  );
  try {
    await bombs(dir, unpacked);
    await linear(dir);
  } finally {
    if (process.argv.includes('--keep')) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
