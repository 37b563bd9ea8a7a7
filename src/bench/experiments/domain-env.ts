import { basename, join } from 'node:path';
import { FlowScoutError } from '../../errors/index.js';
import type { LlmClient } from '../../llm/client.js';
import { discoverProcessTree } from '../../mining/inductive/discover.js';
import { eventLogFromRecords } from '../../mining/event-log/from-records.js';
import type { ProcessTree } from '../../mining/process-tree/schema.js';
import { BUNDLED_DOMAINS, bundledTrajectPaths } from '../../records/bundled.js';
import { importTraject } from '../../records/import/traject.js';
import { readRecordsFile } from '../../records/read-records.js';
import type { TaskRecord } from '../../records/schema.js';
import { loadToolConfig } from '../../tools/load-tool-config.js';
import {
  describeSplitBy,
  nearDuplicateWarning,
  resolveSplitBy,
  splitRecords,
  type RecordSplit,
  type SplitBy,
} from '../../records/split.js';
import { createRandom } from '../../util/random.js';
import { createToolRegistry } from '../../tools/registry.js';
import { createReplayTools } from '../../tools/replay-tools.js';
import type { ToolDescriptor, ToolRegistry } from '../../contracts/tools.js';
import type { ResolvedPolicy } from '../../wiring/resolve-models.js';
import type { ModelWiring } from '../../wiring/wire-models.js';

/**
 * One benchmark domain, ready to run: the bundled TRAJECT-Bench records
 * (records whose calls all succeeded; `importTraject`), a seeded 5:2:3 split (by record for the
 * bundled domains, the paper's protocol, unless `splitBy` says otherwise; your own records by group
 * when they have groups, so a task run several times never straddles D_opt and D_test), the tools T
 * as replay of the recorded real responses of *all* the domain's records (the tools exist for every
 * query; a call nobody recorded is a miss, an error observation), the execution policy (the offline
 * policy learns only from D_opt), and the inductive miner's process tree over D_opt (noise 0).
 */

/** TRAJECT-Bench's four domains; Sports has no trajectories in the released data (docs/DESIGN.md, "Data formats" §7). */
export const PAPER_DOMAINS = ['Finance', 'Sports', 'Travel', 'Weather'] as const;

export const SPORTS_NOTE =
  'TRAJECT-Bench released no Sports trajectories (0 records: docs/DESIGN.md, "Data formats" §7); the paper\'s Sports column cannot be reproduced from real data, and simulated Sports results would not be comparable, so it is left out.';

/** A domain of your own: records and a tool config from files (what `bench --records --tools` runs). */
export interface DomainFiles {
  name: string;
  records: string;
  tools: string;
}

/**
 * A domain as a benchmark names it: a bundled domain's name, else a folder `flowscout import` wrote
 * (its records.jsonl and tools.config.json), named after the folder and split as your records are.
 */
export function domainByNameOrFolder(text: string): string | DomainFiles {
  if ((BUNDLED_DOMAINS as readonly string[]).includes(text)) return text;
  return { name: basename(text), records: join(text, 'records.jsonl'), tools: join(text, 'tools.config.json') };
}

export interface DomainEnv {
  domain: string;
  /** Where the records and tools came from, for the report. */
  source: string;
  /** The records used (all imported ones, or the seeded sample). */
  records: TaskRecord[];
  /** Records imported before any sampling. */
  imported: number;
  split: RecordSplit;
  /** The unit of the split, and a line saying so for the report. */
  splitBy: 'record' | 'group';
  splitNote: string;
  /** Set when, split by record, near-identical requests fall in different parts. */
  splitLeak?: string;
  /** The measured test queries: the first `maxTest` of D_test. */
  test: TaskRecord[];
  descriptors: ToolDescriptor[];
  tools: ToolRegistry;
  /** How a worker builds the same tools: the tool config of a domain of your own, or the records a bundled domain's replay answers from. */
  toolSource: { config: string } | { records: TaskRecord[]; descriptors: ToolDescriptor[] };
  policy: ResolvedPolicy;
  tree: ProcessTree;
}

export interface DomainEnvOptions {
  seed: number;
  maxTest: number;
  maxRecords?: number;
  model: string;
  /** The run's model wiring (its one limiter and budget serve the policy). */
  wiring: ModelWiring;
  /** `--split-by`; default: `record` for a bundled domain (the paper's protocol), `auto` for your records. */
  splitBy?: SplitBy;
  /** Send write calls to live tools of a `--records/--tools` domain (default: answered from its records' replay or refused). */
  allowLiveWrites?: boolean;
}

function splitOf(
  records: readonly TaskRecord[],
  opts: DomainEnvOptions,
  chosen: SplitBy,
  file?: string,
): Pick<DomainEnv, 'split' | 'splitBy' | 'splitNote' | 'splitLeak'> {
  const by = resolveSplitBy(records, chosen, file);
  const split = splitRecords(records, { ratio: [5, 2, 3], seed: opts.seed, by });
  const leak = by === 'record' ? nearDuplicateWarning(records, split) : undefined;
  return { split, splitBy: by, splitNote: describeSplitBy(records, by, chosen), ...(leak ? { splitLeak: leak } : {}) };
}

/** Why a domain cannot be run, or undefined when it can. */
export function unavailableReason(domain: string): string | undefined {
  if (domain.trim().toLowerCase() === 'sports') return SPORTS_NOTE;
  if (!BUNDLED_DOMAINS.some((d) => d.toLowerCase() === domain.trim().toLowerCase())) {
    return `no bundled TRAJECT-Bench data for '${domain}' (bundled: ${BUNDLED_DOMAINS.join(', ')})`;
  }
  return undefined;
}

/** Parses `--domains` (comma-separated, any case) into canonical names; INVALID_INPUT for unknown ones. */
export function parseDomains(text: string): string[] {
  const out: string[] = [];
  for (const raw of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const known = PAPER_DOMAINS.find((d) => d.toLowerCase() === raw.toLowerCase());
    if (!known) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `unknown domain '${raw}'`,
        hint: `Use a comma-separated subset of ${PAPER_DOMAINS.join(', ')} (Sports is reported as unavailable).`,
      });
    }
    if (!out.includes(known)) out.push(known);
  }
  if (out.length === 0)
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: '--domains names no domain',
      hint: 'e.g. --domains Finance,Travel,Weather',
    });
  return out;
}

/** A seeded sample of n records, kept in file order. */
export function sampleRecords(records: readonly TaskRecord[], n: number, seed: number): TaskRecord[] {
  if (n >= records.length) return [...records];
  const picked = new Set(createRandom(`${seed}:sample`).shuffle(records).slice(0, n));
  return records.filter((r) => picked.has(r));
}

/** A bundled domain by name, or a domain of your own from files. */
export async function prepareDomain(domain: string | DomainFiles, opts: DomainEnvOptions): Promise<DomainEnv> {
  if (typeof domain !== 'string') return prepareFilesDomain(domain, opts);
  const paths = bundledTrajectPaths(domain);
  const imported = importTraject(paths.trajQuery, paths.tools);
  const records =
    opts.maxRecords !== undefined ? sampleRecords(imported.records, opts.maxRecords, opts.seed) : imported.records;
  const parts = splitOf(records, opts, opts.splitBy ?? 'record');
  const split = parts.split;
  const tools = createToolRegistry(createReplayTools(imported.records, imported.tools));
  const policy = await opts.wiring.policy(opts.model, { tools: imported.tools });
  const tree = discoverProcessTree(eventLogFromRecords(split.opt), { noiseThreshold: 0 });
  const source = `${imported.records.length} TRAJECT-Bench records (every call succeeded); tools answered by replay of the recorded real responses`;
  return {
    domain: paths.domain,
    source,
    records,
    imported: imported.records.length,
    ...parts,
    test: split.test.slice(0, opts.maxTest),
    descriptors: imported.tools,
    tools,
    toolSource: { records: imported.records, descriptors: imported.tools },
    policy,
    tree,
  };
}

/**
 * Your own domain: the records file and the tool config (`flowscout import` writes both; any tool
 * config works — replay, your functions, MCP servers). Same split, policy and miner as the bundled ones.
 */
async function prepareFilesDomain(d: DomainFiles, opts: DomainEnvOptions): Promise<DomainEnv> {
  const read = await readRecordsFile(d.records);
  if (read.records.length === 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `no records in ${d.records}`,
      hint: 'Pass a records JSONL file (flowscout import writes one).',
      location: { file: d.records },
    });
  }
  const records =
    opts.maxRecords !== undefined ? sampleRecords(read.records, opts.maxRecords, opts.seed) : read.records;
  const parts = splitOf(records, opts, opts.splitBy ?? 'auto', d.records);
  const split = parts.split;
  if (split.opt.length === 0 || split.val.length === 0 || split.test.length === 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `the 5:2:3 split of ${records.length} records in ${d.records} leaves ${[
        ['D_opt', split.opt],
        ['D_val', split.val],
        ['D_test', split.test],
      ]
        .filter(([, p]) => (p as unknown[]).length === 0)
        .map(([n]) => n)
        .join(' and ')} empty`,
      hint: 'A benchmark needs records in every part: import more runs (at least 20 records is a sensible minimum), or --keep-failed at import.',
      location: { file: d.records },
    });
  }
  // A benchmark runs every approach on every record many times: write calls to live tools are
  // answered from the records' recorded responses or refused.
  const tools = await loadToolConfig(d.tools, {
    guardWrites: { allowLiveWrites: opts.allowLiveWrites === true, records },
  });
  try {
    const descriptors = tools.list();
    const policy = await opts.wiring.policy(opts.model, { tools: descriptors });
    const tree = discoverProcessTree(eventLogFromRecords(split.opt), { noiseThreshold: 0 });
    const source = `${read.records.length} records from ${d.records}; tools from ${d.tools}`;
    return {
      domain: d.name,
      source,
      records,
      imported: read.records.length,
      ...parts,
      test: split.test.slice(0, opts.maxTest),
      descriptors,
      tools,
      toolSource: { config: d.tools },
      policy,
      tree,
    };
  } catch (e) {
    await tools.close();
    throw e;
  }
}

/** The client of an LLM policy, if any (for usage reporting). */
export function policyClient(env: DomainEnv): LlmClient | undefined {
  return env.policy.client;
}
