import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';
import { readRecordsFile, writeRecordsFile } from '../../src/records/read-records.js';
import { splitRecords } from '../../src/records/split.js';

/**
 * `flowscout drift` on the bundled TRAJECT-Bench domains: G0 mined (`mine --format workflow`, which
 * writes the conformance profile) from each domain's D_opt, then drift on that domain's held-out
 * records (requests of the kind it was learned from: no drift) and on the other two domains'
 * (drift). The split is by record: with the split by group, the held-out records are API chains
 * the workflow never saw, which drift reports as tool sequences never seen.
 */
const DOMAINS = ['Travel', 'Weather', 'Finance'] as const;
const dir = mkdtempSync(join(tmpdir(), 'flowscout-drift-'));
const at = (domain: string, name: string) => join(dir, domain, name);

interface DriftJson {
  drift: boolean;
  reasons: string[];
  next: string;
  measures: { runs: number; averageFitness: number; unseenVariants: number | null; outsideRoutes: number | null };
  processChanged: boolean;
  runsFailMore: boolean;
  comparedWith: string | null;
  baseline: { runs: number; averageFitness: number; variants: number } | null;
}

async function drift(workflow: string, runs: string): Promise<DriftJson> {
  const r = await cli(['drift', workflow, '--runs', runs, '--json']);
  expect(r.status, r.err).toBe(0);
  return JSON.parse(r.out) as DriftJson;
}

beforeAll(async () => {
  for (const domain of DOMAINS) {
    expect((await cli(['import', 'traject', '--domain', domain, '--out', join(dir, domain)])).status).toBe(0);
    const { records } = await readRecordsFile(at(domain, 'records.jsonl'));
    const split = splitRecords(records, { seed: 0, by: 'record' });
    writeRecordsFile(at(domain, 'opt.jsonl'), split.opt);
    writeRecordsFile(at(domain, 'test.jsonl'), split.test);
    const mined = await cli([
      'mine',
      at(domain, 'opt.jsonl'),
      '--tools',
      at(domain, 'tools.json'),
      '--format',
      'workflow',
      '--out',
      at(domain, 'g0.json'),
    ]);
    expect(mined.status, mined.err).toBe(0);
  }
});

describe('flowscout drift on the bundled domains', () => {
  it.each(DOMAINS)('%s G0: no drift on its own held-out requests, drift on the other domains', async (domain) => {
    const g0 = at(domain, 'g0.json');
    const profile = (JSON.parse(readFileSync(g0, 'utf8')) as { meta: { conformance: { learning: { runs: number } } } })
      .meta.conformance;
    const { records: opt } = await readRecordsFile(at(domain, 'opt.jsonl'));
    expect(profile.learning.runs).toBe(opt.length);

    const own = await drift(g0, at(domain, 'test.jsonl'));
    expect(own.drift, own.reasons.join('; ')).toBe(false);
    // Compared with runs G0 was not learned from: each part of D_opt against a G0 mined from the others.
    expect(own.comparedWith).toBe('heldOut');
    expect(own.baseline!.runs).toBe(opt.length);
    expect(own.measures.averageFitness).toBeGreaterThan(0.85);
    expect(own.next).toMatch(/^Nothing to do/);

    for (const other of DOMAINS.filter((d) => d !== domain)) {
      const r = await drift(g0, at(other, 'test.jsonl'));
      expect(r.drift, `${domain} G0 on ${other}`).toBe(true);
      expect(r.measures.averageFitness).toBe(0);
      expect(r.measures.unseenVariants).toBe(1);
      expect(r.reasons.some((x) => x.startsWith('averageFitness 0.000 is '))).toBe(true);
      expect(r).toMatchObject({ processChanged: true, runsFailMore: false });
      // Records none of which failed may be searched on as they are.
      expect(r.next).toContain(`flowscout search --records ${at(other, 'test.jsonl')} --tools <tool config>`);
    }
  });

  it('prints the verdict, each measure beside its baseline, and the next step', async () => {
    const r = await cli(['drift', at('Travel', 'g0.json'), '--runs', at('Finance', 'test.jsonl')]);
    expect(r.status).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(
      /^drift: yes, the process changed {2}\(\d+ runs of .*Finance\/test\.jsonl against .*Travel\/g0\.json, compared with \d+ runs of the process it was not learned from\)$/,
    );
    expect(r.out).toMatch(/ {2}averageFitness {5}0\.000 {3}baseline 0\.\d{3}, drift below 0\.\d{3}/);
    expect(r.out).toMatch(/ {2}averageHealth {6}0\.\d{3} {3}baseline 0\.\d{3}\n/);
    expect(r.out).toMatch(/ {2}health of calls {4}1\.000 {3}baseline 1\.000, fail more below 0\.850/);
    expect(r.out).toContain('next: The process changed: the runs no longer follow what the workflow was learned from');
  });

  it('takes a threshold by name, and refuses an unknown one', async () => {
    const strict = await cli([
      'drift',
      at('Travel', 'g0.json'),
      '--runs',
      at('Travel', 'test.jsonl'),
      '--json',
      '--threshold',
      'maxFitnessDrop=0',
      '--threshold',
      'maxUnseenVariantsRise=0',
    ]);
    const doc = JSON.parse(strict.out) as DriftJson & { thresholds: Record<string, number> };
    expect(doc.thresholds.maxFitnessDrop).toBe(0);
    const bad = await cli([
      'drift',
      at('Travel', 'g0.json'),
      '--runs',
      at('Travel', 'test.jsonl'),
      '--threshold',
      'maxFitness=0.2',
    ]);
    expect(bad.status).toBe(2);
    expect(bad.err).toMatch(/--threshold maxFitness=0\.2: not <name>=<number> with a known name/);
    expect(bad.err).toMatch(/Names: minRuns, maxFitnessDrop/);
  });

  it('falls back to fixed thresholds for a workflow without a profile', async () => {
    const g0 = JSON.parse(readFileSync(at('Weather', 'g0.json'), 'utf8')) as { meta: Record<string, unknown> };
    delete g0.meta.conformance;
    const bare = join(dir, 'bare.json');
    writeFileSync(bare, JSON.stringify(g0));
    const r = await drift(bare, at('Travel', 'test.jsonl'));
    expect(r).toMatchObject({ drift: true, comparedWith: null, baseline: null });
    expect(r.reasons[0]).toMatch(/\(minFitness; the workflow has no profile\)$/);
  });
});
