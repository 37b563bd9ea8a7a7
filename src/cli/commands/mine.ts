import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { crossFoldParts } from '../../conformance/held-out.js';
import { observedRunOfRecord, observedRunOfTools } from '../../conformance/observed-runs.js';
import { withConformanceProfile } from '../../conformance/profile.js';
import { FlowScoutError } from '../../errors/index.js';
import { namedVariants, type EventLog } from '../../mining/event-log/event-log.js';
import { eventLogFromRecords } from '../../mining/event-log/from-records.js';
import type { TaskRecord } from '../../records/schema.js';
import { summarizeDfg } from '../../mining/event-log/dfg-summary.js';
import { readEventLog, type ReadEventLogOptions } from '../../mining/event-log/read-event-log.js';
import {
  DEFAULT_READER_LIMITS,
  formatBytes,
  parseByteSize,
  type ReaderLimits,
} from '../../mining/event-log/read-limits.js';
import { discoverProcessTree } from '../../mining/inductive/discover.js';
import { formatProcessTree } from '../../mining/process-tree/format.js';
import { processTreeToMermaid } from '../../mining/process-tree/mermaid.js';
import { processTreeToWorkflow, recordOptions } from '../../mining/to-workflow.js';
import { loadToolConfig } from '../../tools/load-tool-config.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { readJsonFile, writeTextFile } from '../../util/json-file.js';
import { recordsLabel } from '../../records/records-label.js';
import type { CliIO } from '../output.js';
import type { FlagsOf, RegisterCommand } from './register.js';

const FORMATS = ['tree', 'mermaid', 'workflow', 'json'] as const;
type Format = (typeof FORMATS)[number];

/** `flowscout mine`'s options as its action receives them, typed from their declarations. */
type MineOptions = FlagsOf<typeof declareMine>;

/**
 * `flowscout mine <records.jsonl | log.xes[.gz] | log.csv | events.jsonl>`: discovers a process tree
 * with the inductive miner (IM, or IMf with `--noise`) and prints it in PM4Py's notation (`tree`),
 * as a Mermaid diagram (`mermaid`), as the initial workflow G0 (`workflow`, needs tool descriptors:
 * `--tools`, or a `tools.json` beside records), or as JSON with the tree, the DFG and the variants.
 */
function declareMine(program: Command) {
  return program
    .command('mine')
    .description(
      'discover a process tree (PM4Py inductive miner) from records or an event log, or the initial workflow G0',
    )
    .argument('<input>', 'records (.jsonl), a JSONL event log, an XES log (.xes, .xes.gz) or a CSV log (.csv)')
    .option('--noise <threshold>', 'IMf noise threshold in [0, 1]; 0 = IM', checkNoise, 0)
    .option('--format <format>', `output: ${FORMATS.join(', ')}`, 'tree')
    .option('--tools <file>', 'tool descriptors (tools.json) or a tool config, for --format workflow')
    .option('--case-column <name>', 'CSV: case id column (XES: trace attribute)')
    .option('--activity-column <name>', 'CSV: activity column (XES: event attribute)')
    .option('--timestamp-column <name>', 'CSV: timestamp column (XES: event attribute)')
    .option('--separator <char>', 'CSV separator (guessed from the header by default)')
    .option('--name <name>', 'workflow name (default: from the input file name)')
    .option('--domain <domain>', 'domain recorded in the workflow')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .option('--force', 'overwrite the output file if it exists')
    .option(
      '--no-routes',
      'workflow from records: leave out the router over the recurring variants (the skeleton only)',
    )
    .option(
      '--no-branches',
      "--format workflow: merge the tree's choices between step sequences into steps that pick their tool, instead of keeping each as a branch (a judge whose choices list the tools of every option)",
    )
    .option(
      '--skip-invalid',
      'leave out rows, events or lines that cannot be read (counted on stderr) instead of refusing the file',
    )
    .option(
      '--max-unpacked <size>',
      `most a .gz input may unpack to, e.g. 2g (default ${formatBytes(DEFAULT_READER_LIMITS.maxUnpackedBytes)})`,
      byteSizeArg('--max-unpacked'),
    )
    .option(
      '--max-comment <size>',
      `longest XML comment, CDATA section or processing instruction (default ${formatBytes(DEFAULT_READER_LIMITS.maxCommentBytes)})`,
      byteSizeArg('--max-comment'),
    )
    .option(
      '--max-entity <size>',
      `longest XML DOCTYPE or entity declaration (default ${formatBytes(DEFAULT_READER_LIMITS.maxEntityBytes)})`,
      byteSizeArg('--max-entity'),
    )
    .option(
      '--max-token <size>',
      `longest XML tag, JSONL line or CSV row (default ${formatBytes(DEFAULT_READER_LIMITS.maxTokenBytes)})`,
      byteSizeArg('--max-token'),
    );
}

export const registerMine: RegisterCommand = (program: Command, io: CliIO) => {
  declareMine(program).action(async (input, opts) => {
    const format = checkFormat(opts.format);
    const noise = opts.noise;
    const readOpts: ReadEventLogOptions = {};
    if (opts.caseColumn) {
      readOpts.caseColumn = opts.caseColumn;
      readOpts.caseKey = opts.caseColumn;
    }
    if (opts.activityColumn) readOpts.activityColumn = opts.activityColumn;
    if (opts.timestampColumn) readOpts.timestampColumn = opts.timestampColumn;
    if (opts.separator) readOpts.separator = opts.separator;
    if (opts.skipInvalid) readOpts.skipInvalid = true;
    const limits = readerLimits(opts);
    if (limits) readOpts.limits = limits;
    const { log, records } = await readEventLog(input, readOpts);
    if (log.skipped) {
      const why = Object.entries(log.skipped.reasons)
        .map(([r, n]) => `${n} ${r}`)
        .join(', ');
      io.err(`skipped ${log.skipped.count} of ${input} (--skip-invalid): ${why}`);
    }
    if (log.caseIds.length === 0) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `${input} holds no cases to mine`,
        hint: 'Pass a file with at least one case (record).',
        location: { file: input },
      });
    }
    const tree = discoverProcessTree(log, { noiseThreshold: noise });
    let text: string;
    if (format === 'tree') text = `${formatProcessTree(tree)}\n`;
    else if (format === 'mermaid') text = processTreeToMermaid(tree);
    else if (format === 'json') {
      const doc = {
        input,
        miner: noise > 0 ? 'IMf' : 'IM',
        noiseThreshold: noise,
        cases: log.caseIds.length,
        tree: formatProcessTree(tree),
        processTree: tree,
        dfg: summarizeDfg(log),
        variants: namedVariants(log),
      };
      text = `${JSON.stringify(doc, null, 2)}\n`;
    } else {
      const tools = await loadDescriptors(opts.tools ?? defaultToolsFile(input, records !== undefined), input);
      const name = opts.name ?? `${opts.domain ?? records?.[0]?.domain ?? recordsLabel(input)} G0`;
      const domain = opts.domain ?? records?.[0]?.domain;
      const learn = (from: EventLog, fromRecords: readonly TaskRecord[] | undefined) =>
        processTreeToWorkflow(from === log ? tree : discoverProcessTree(from, { noiseThreshold: noise }), {
          tools,
          name,
          log: from,
          noiseThreshold: noise,
          ...(domain ? { domain } : {}),
          ...(fromRecords ? recordOptions(fromRecords, tools, { routes: opts.routes !== false }) : {}),
          ...(opts.branches === false ? { branches: false } : {}),
        });
      const workflow = learn(log, records);
      // What drift compares new runs with (no record text): the mined runs against the workflow's
      // own tree, and each part of them against a workflow mined from the other parts (runs it was
      // not learned from: what new runs of the same process look like).
      const runs = records
        ? records.map(observedRunOfRecord)
        : log.caseIds.map((id, c) =>
            observedRunOfTools(
              id,
              Array.from(log.variants[log.caseVariants[c]!]!.trace, (a) => log.activities[a]!),
            ),
          );
      const heldOut = records
        ? crossFoldParts(records, {
            groupOf: (r) => r.group ?? r.id,
            runOf: observedRunOfRecord,
            learn: (part) => learn(eventLogFromRecords(part), part),
          })
        : [];
      text = `${JSON.stringify(withConformanceProfile(workflow, { learning: runs, heldOut }), null, 2)}\n`;
    }
    if (opts.out === undefined) {
      io.out(text);
      return;
    }
    writeTextFile(opts.out, text, { force: opts.force });
    io.out(
      `wrote ${opts.out} (${format}, ${noise > 0 ? `IMf ${noise}` : 'IM'}, ${log.caseIds.length} cases, ${log.variants.length} variants)`,
    );
  });
};

/** The reader limits set on the command line, if any. */
function readerLimits(opts: MineOptions): ReaderLimits | undefined {
  const limits: ReaderLimits = {};
  if (opts.maxUnpacked !== undefined) limits.maxUnpackedBytes = opts.maxUnpacked;
  if (opts.maxComment !== undefined) limits.maxCommentBytes = opts.maxComment;
  if (opts.maxEntity !== undefined) limits.maxEntityBytes = opts.maxEntity;
  if (opts.maxToken !== undefined) limits.maxTokenBytes = opts.maxToken;
  return Object.keys(limits).length > 0 ? limits : undefined;
}

/** The input's name without extension (its folder's name for a `records.jsonl`). */

function checkFormat(format: string): Format {
  if ((FORMATS as readonly string[]).includes(format)) return format as Format;
  throw new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `unknown format '${format}'`,
    hint: `Use --format ${FORMATS.join(', ')}.`,
  });
}

/** A size flag (`--max-token 64k`) in bytes, as a commander argument parser. */
function byteSizeArg(flag: string): (text: string) => number {
  return (text) => parseByteSize(text, flag);
}

/** `--noise` as a number in [0, 1], or INVALID_INPUT (a commander argument parser). */
function checkNoise(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--noise must be a number between 0 and 1, got '${value}'`,
      hint: 'Use --noise 0 for IM or e.g. --noise 0.2 for IMf.',
    });
  }
  return n;
}

/** For records, `tools.json` beside them (what `flowscout import` writes). */
function defaultToolsFile(input: string, isRecords: boolean): string | undefined {
  const beside = join(dirname(input), 'tools.json');
  return isRecords && existsSync(beside) ? beside : undefined;
}

/** Tool descriptors from a descriptor array (tools.json) or from a tool config (its tools are listed). */
async function loadDescriptors(file: string | undefined, input: string): Promise<ToolDescriptor[]> {
  if (file === undefined) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--format workflow needs the tool descriptors of ${input}`,
      hint: 'Pass --tools tools.json (as written by `flowscout import`) or a tool config; for records, a tools.json beside them is used.',
    });
  }
  const doc = readJsonFile(file);
  const list = Array.isArray(doc) ? doc : (doc as { tools?: unknown })?.tools;
  if (Array.isArray(list)) {
    list.forEach((t, i) => {
      const d = t as Partial<ToolDescriptor> | null;
      if (!d || typeof d.name !== 'string' || typeof d.description !== 'string') {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `${file}: tool ${i} is not a descriptor {name, description, inputSchema}`,
          hint: 'Pass the tools.json written by `flowscout import`, or a tool config file.',
          location: { file, path: `$[${i}]` },
        });
      }
    });
    return list as ToolDescriptor[];
  }
  const registry = await loadToolConfig(file);
  try {
    return registry.list();
  } finally {
    await registry.close();
  }
}
