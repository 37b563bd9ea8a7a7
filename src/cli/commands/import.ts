import { join } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { FlowScoutError } from '../../errors/index.js';
import { bundledTrajectPaths } from '../../records/bundled.js';
import { importToolbench, type ToolbenchCounts } from '../../records/import/toolbench.js';
import { importTraject, type TrajectCounts } from '../../records/import/traject.js';
import { writeImportFolder } from '../../records/import/write-import.js';
import { AGENT_LOG_FORMATS, importAgentLogs, type AgentLogFormat } from '../../records/import/agent-logs.js';
import { formatConversationCounts } from '../../records/import/conversation-counts.js';
import { formatRedactCounts, parseRedact, redactRecords } from '../../records/redact.js';
import { readToolDefinitions } from '../../records/import/tool-definitions.js';
import { nearDuplicateWarning } from '../../records/split.js';
import type { TaskRecord } from '../../records/schema.js';
import type { ToolDescriptor, ToolEffect } from '../../contracts/tools.js';
import {
  suggestEffects,
  suggestedEffectsMap,
  summarizeSuggestions,
  UNDECLARED_MEANING,
} from '../../tools/effect-suggestions.js';
import type { CliIO } from '../output.js';
import type { FlagsOf, RegisterCommand } from './register.js';

/**
 * `flowscout import traject|toolbench …`: converts datasets into FlowScout records (JSONL) and, where
 * the source has tool definitions, tool descriptors plus a replay tool config.
 */
export const registerImport: RegisterCommand = (program: Command, io: CliIO) => {
  const cmd = program
    .command('import')
    .description('convert a dataset into FlowScout records (records.jsonl, tools.json, tools.config.json)');

  declareTraject(cmd).action((trajQuery, opts) => {
    const { queryPath, toolsPath, label } = trajectInputs(trajQuery, opts);
    const result = importTraject(queryPath, toolsPath, { keepFailed: opts.keepFailed });
    const written = writeImportFolder(opts.out, result.records, result.tools, { force: opts.force });
    io.out(formatTrajectCounts(label, result.counts, Boolean(opts.keepFailed)));
    io.out(`Wrote ${written.join(', ')}`);
    warnFewRecords(io, result.records.length, Boolean(opts.keepFailed));
  });

  for (const [format, what] of AGENT_LOG_COMMANDS)
    declareAgentLogs(cmd, format, what).action((paths, opts) => importAgentLogsCommand(io, format, paths, opts));

  cmd
    .command('toolbench')
    .description('import ToolBench / StableToolBench answer files (or folders of them): winning answers become records')
    .argument('<paths...>', 'answer files (<query_id>_<method>.json) or folders searched recursively for *.json')
    .requiredOption('--out <dir>', 'output folder')
    .option('--force', 'overwrite existing output files')
    .action((paths, opts) => {
      const result = importToolbench(paths);
      if (result.records.length === 0) {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `no usable answer in ${result.counts.files} file(s): ${formatReasons(result.counts.dropped) || 'no *.json files found'}`,
          hint: 'Records need valid_data, finish_type give_answer and win; pass answer files or the answer/ folder.',
        });
      }
      const written = writeImportFolder(opts.out, result.records, result.tools, { force: opts.force });
      io.out(formatToolbenchCounts(result.counts));
      io.out(`Wrote ${written.join(', ')}`);
      warnFewRecords(io, result.records.length, true);
    });
};

const AGENT_LOG_COMMANDS: Array<[AgentLogFormat | 'auto', string]> = [
  [
    'openai',
    'import OpenAI Chat Completions conversations: one {"messages": [...], "tools"?: [...]} a line (tool_calls, tool messages)',
  ],
  [
    'anthropic',
    'import Anthropic Messages API conversations: one {"system"?, "messages": [...], "tools"?: [...]} a line (tool_use, tool_result)',
  ],
  [
    'ai-sdk',
    'import Vercel AI SDK ModelMessage[] (response.messages with the prompt) or {prompt, steps}: tool-call / tool-result parts',
  ],
  [
    'otel',
    'import OpenTelemetry traces (OTLP/JSON resourceSpans): GenAI execute_tool spans and AI SDK ai.toolCall spans; one trace = one record',
  ],
  ['auto', 'detect the format of agent logs from their content (openai, anthropic, ai-sdk, otel) and import them'],
];

/** `flowscout import traject`'s flags, declared once (the action gets their types from here). */
function declareTraject(cmd: Command) {
  return cmd
    .command('traject')
    .description(
      'import TRAJECT-Bench trajectories (a sequential traj_query.json or a parallel simple_ver.json / hard_ver.json, + <Domain>_tool.json), or a bundled domain with --domain',
    )
    .argument('[traj_query]', 'a TRAJECT-Bench traj_query.json, or a parallel set simple_ver.json / hard_ver.json')
    .option('--tools <file>', 'the matching <Domain>_tool.json (tool definitions)')
    .option('--domain <name>', 'import the bundled copy of a domain instead: Finance, Travel or Weather')
    .requiredOption('--out <dir>', 'output folder')
    .option(
      '--keep-failed',
      'keep records that contain a failed call (dropped by default); this also keeps calls to APIs absent from the tool definitions (they always failed), which the summary counts',
    )
    .option('--force', 'overwrite existing output files');
}

/** The options of a TRAJECT-Bench import as its action receives them, typed from their declarations. */
type TrajectFlags = FlagsOf<typeof declareTraject>;

/** `flowscout import <format> <paths...>` for agent logs: one subcommand per format, the same options. */
function declareAgentLogs(cmd: Command, format: string, what: string) {
  return cmd
    .command(format)
    .description(what)
    .argument('<paths...>', 'log files (JSON or JSONL) or folders searched recursively for .json / .jsonl / .ndjson')
    .requiredOption('--out <dir>', 'output folder')
    .option('--domain <name>', "written as every record's domain")
    .option(
      '--keep-failed',
      'keep records with a failed call or a call to a tool absent from the tool definitions (dropped by default; such tools get descriptors inferred from their calls)',
    )
    .option(
      '--skip-invalid',
      'skip conversations that cannot be imported (unreadable, no query, no final answer) and count them; by default any stops the import',
    )
    .option(
      '--messages <json path>',
      'where each run keeps its messages, e.g. traj or inputs.messages (default: found by content: the first array of {"role", …} objects)',
    )
    .option(
      '--tools <file>',
      'tool definitions in a file of their own (an OpenAI tools list, an Anthropic tool list, an MCP tools/list result or a list of {name, parameters}); they win over definitions in the logs',
    )
    .option(
      '--where <condition>',
      "import only runs meeting it: <json path><op><value> with = != < <= > >=, e.g. reward=1 or 'info.status!=failed' (repeatable: all must hold)",
      collect,
      [],
    )
    .option(
      '--group <json path>',
      "write each run's value at this path (e.g. task_id) as its record's group, so splits keep repeated tasks in one part",
    )
    .option(
      '--error-pattern <regex>',
      'also read tool outputs matching this regular expression as failed calls (besides outputs starting with Error / Exception and {"error": …} objects)',
    )
    .option(
      '--redact <list>',
      'replace personal values with stable placeholders before writing: emails, phones, ids and/or regular expressions, comma-separated',
    )
    .option(
      '--apply-effects',
      "declare the suggested tool effects (read / write / destructive, from the tools' names and descriptions) in the tools.config.json this import writes, listing them; by default they are only written to effects.suggested.json",
    )
    .option('--force', 'overwrite existing output files');
}

/** The options of an agent-log import as its action receives them, typed from their declarations. */
type AgentLogFlags = FlagsOf<typeof declareAgentLogs>;

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function importAgentLogsCommand(io: CliIO, format: string, paths: string[], opts: AgentLogFlags): void {
  if (format !== 'auto' && !(format in AGENT_LOG_FORMATS)) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `unknown format '${format}'`,
      hint: `Use one of ${Object.keys(AGENT_LOG_FORMATS).join(', ')} or auto.`,
    });
  }
  const rules = opts.redact !== undefined ? parseRedact(opts.redact) : undefined;
  const result = importAgentLogs(format as AgentLogFormat | 'auto', paths, {
    keepFailed: opts.keepFailed,
    skipInvalid: opts.skipInvalid,
    ...(opts.domain ? { domain: opts.domain } : {}),
    ...(opts.messages !== undefined ? { messages: opts.messages } : {}),
    ...(opts.tools !== undefined ? { tools: readToolDefinitions(opts.tools) } : {}),
    ...(opts.where.length ? { where: opts.where } : {}),
    ...(opts.group !== undefined ? { group: opts.group } : {}),
    ...(opts.errorPattern !== undefined ? { errorPattern: opts.errorPattern } : {}),
  });
  if (result.records.length === 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `no record kept from ${result.counts.conversations} ${result.format} conversation(s):\n${formatConversationCounts(paths.join(', '), result.counts, opts)}`,
      hint: 'Records need a user query, at least one tool call and a final answer; --keep-failed also keeps records with failed calls.',
    });
  }
  const redacted = rules ? redactRecords(result.records, rules) : undefined;
  const records = redacted?.records ?? result.records;
  const effects = effectsSuggestion(result.tools, opts.out, { apply: Boolean(opts.applyEffects) });
  const written = writeImportFolder(opts.out, records, result.tools, {
    force: opts.force,
    ...(effects ? { also: effects.also } : {}),
    ...(effects?.applied ? { effects: effects.applied } : {}),
  });
  io.out(
    formatConversationCounts(
      `${result.counts.conversations} ${result.format} conversation${result.counts.conversations === 1 ? '' : 's'}${format === 'auto' ? ' (format detected from the content)' : ''}`,
      result.counts,
      opts,
    ),
  );
  if (effects) io.out(effects.lines.join('\n'));
  if (redacted) io.out(formatRedactCounts(redacted.counts));
  io.out(`Wrote ${written.join(', ')}`);
  warnFewRecords(io, records.length, Boolean(opts.keepFailed));
  warnSplitLeaks(io, records);
}

/** The file beside tools.config.json with the suggested `effects` map, which nothing reads unless the user copies it. */
export const EFFECTS_SUGGESTION_FILE = 'effects.suggested.json';

/**
 * Imported tools declare no effect (logs and tool definitions do not say what a call does): the
 * summary names them, says what that means, and suggests an `effects` map from their names and
 * descriptions, written apart (`effects.suggested.json`) for the user to confirm into the config.
 * With `apply` (`--apply-effects`) the summary lists every suggested entry and the map is declared
 * in the tool config the import writes (`applied`); that config is new, or replaced only with
 * `--force`, as every file of the import.
 */
export function effectsSuggestion(
  tools: readonly ToolDescriptor[] | undefined,
  out: string,
  opts: { apply?: boolean } = {},
): { lines: string[]; also: Record<string, string>; applied?: Record<string, ToolEffect> } | undefined {
  if (!tools?.length) return undefined;
  const suggestions = suggestEffects(tools);
  const effects = suggestedEffectsMap(suggestions);
  const names = tools.map((t) => t.name);
  const file = join(out, EFFECTS_SUGGESTION_FILE);
  const config = join(out, 'tools.config.json');
  const declared = Object.keys(effects).length;
  const lines = opts.apply
    ? [
        `  effects              ${declared} of the ${tools.length} tool${tools.length === 1 ? '' : 's'} declared from the suggestions below (--apply-effects)${declared < tools.length ? `; the other ${tools.length - declared}: ${UNDECLARED_MEANING}` : ''}`,
        `  suggested effects    ${summarizeSuggestions(suggestions)}; from the tools' names and descriptions, APPLIED: written into ${config} as its "effects" (also in ${file}); change any entry there that is wrong:`,
        ...(['destructive', 'write', 'read'] as const).flatMap((e) => {
          const named = Object.keys(effects).filter((t) => effects[t] === e);
          return named.length ? [`    ${e.padEnd(12)}${named.join(', ')}`] : [];
        }),
      ]
    : [
        `  effects              none declared for the ${tools.length} tool${tools.length === 1 ? '' : 's'} (${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''}): ${UNDECLARED_MEANING}`,
        `  suggested effects    ${summarizeSuggestions(suggestions)}; from the tools' names and descriptions, NOT applied: check ${file}, then copy its "effects" into ${config} (--apply-effects declares them there)`,
      ];
  return {
    lines,
    also: { [EFFECTS_SUGGESTION_FILE]: `${JSON.stringify({ effects }, null, 2)}\n` },
    ...(opts.apply && declared > 0 ? { applied: effects } : {}),
  };
}

/** The warning every import prints when it keeps too few records for a search to mean much. */
export function warnFewRecords(io: CliIO, kept: number, keepFailed: boolean): void {
  const line = fewRecordsWarning(kept, keepFailed);
  if (line) io.err(line);
}

/**
 * When the records have no groups, a warning if requests that are the same but for numbers and ids
 * would land in different parts of a search's default split (its seed 0, 5:2:3).
 */
export function warnSplitLeaks(io: CliIO, records: readonly TaskRecord[]): void {
  const line = nearDuplicateWarning(records);
  if (line) io.err(line);
}

/** Fewer than this many records make splits too small to trust (the warning above). */
export const FEW_RECORDS = 20;

export function fewRecordsWarning(kept: number, keepFailed: boolean): string | undefined {
  if (kept >= FEW_RECORDS) return undefined;
  return `warning: only ${kept} record${kept === 1 ? '' : 's'} kept; a search splits them into optimisation, validation and test parts, and with fewer than ${FEW_RECORDS} records its scores say little. Import more runs${keepFailed ? '' : ', or pass --keep-failed to also keep records with failed calls'}.`;
}

/** The counts `import toolbench` prints. */
export function formatToolbenchCounts(c: ToolbenchCounts): string {
  const dropped = Object.values(c.dropped).reduce((n, k) => n + k, 0);
  const rows: Array<[string, string]> = [
    ['kept', String(c.kept)],
    ['dropped', `${dropped}${dropped ? ` (${formatReasons(c.dropped)})` : ''}`],
    [
      'calls',
      `${c.calls} (error observations: ${c.errorCalls}; truncated observations kept raw: ${c.truncatedObservations}; names not among the offered functions: ${c.unmatchedNames}; unparsable arguments: ${c.unparsedArguments})`,
    ],
    ['ignored messages', `${c.ignoredUserMessages} reflection / later user messages`],
    ['tools', `${c.tools} offered functions (Finish excluded)`],
  ];
  return [
    `Imported ${c.kept} record${c.kept === 1 ? '' : 's'} from ${c.files} ToolBench answer file${c.files === 1 ? '' : 's'}`,
    ...rows.map(([k, v]) => `  ${k.padEnd(20)} ${v}`),
  ].join('\n');
}

function formatReasons(dropped: Record<string, number>): string {
  return Object.entries(dropped)
    .map(([r, k]) => `${r}: ${k}`)
    .join('; ');
}

function trajectInputs(
  trajQuery: string | undefined,
  opts: Pick<TrajectFlags, 'tools' | 'domain'>,
): { queryPath: string; toolsPath: string; label: string } {
  if (opts.domain !== undefined) {
    if (trajQuery !== undefined || opts.tools !== undefined) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: '--domain imports the bundled data; it cannot be combined with a traj_query.json file or --tools',
        hint: 'Use either `import traject --domain Travel --out <dir>` or `import traject <traj_query.json> --tools <Domain_tool.json> --out <dir>`.',
      });
    }
    const paths = bundledTrajectPaths(opts.domain);
    return { queryPath: paths.trajQuery, toolsPath: paths.tools, label: `bundled TRAJECT-Bench ${paths.domain}` };
  }
  if (trajQuery === undefined || opts.tools === undefined) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message:
        trajQuery === undefined
          ? 'no input: pass a traj_query.json file or --domain <name>'
          : '--tools <Domain_tool.json> is required with a traj_query.json file',
      hint: 'Example: flowscout import traject sequential/Travel/traj_query.json --tools tools/Travel_tool.json --out runs/travel (or --domain Travel for the bundled copy).',
    });
  }
  return { queryPath: trajQuery, toolsPath: opts.tools, label: trajQuery };
}

/** The counts an import prints (also used by the README and the report). */
export function formatTrajectCounts(label: string, c: TrajectCounts, keepFailed: boolean): string {
  const dropped = Object.entries(c.dropped);
  const droppedTotal = dropped.reduce((n, [, k]) => n + k, 0);
  const rows: Array<[string, string]> = [
    ['records', `${c.records} (all calls succeeded: ${c.recordsAllOk})`],
    ['kept', `${c.kept}${keepFailed ? ' (--keep-failed: records with failed calls kept)' : ''}`],
    ['dropped', `${droppedTotal}${dropped.length ? ` (${dropped.map(([r, k]) => `${r}: ${k}`).join('; ')})` : ''}`],
    ['calls', `${c.calls} (failed: ${c.failedCalls}; to APIs absent from the tool definitions: ${c.unknownApiCalls})`],
    ['calls kept', String(c.keptCalls)],
    ['distinct tools used', `${c.distinctTools} (in kept records: ${c.distinctToolsKept})`],
    [
      'tool definitions',
      `${c.toolDefs} → ${c.tools} tools (${c.duplicateDefs} repeated entries, ${c.collisions.length} name collisions)`,
    ],
  ];
  const lines = [
    `Imported ${c.kept} of ${c.records} record${c.records === 1 ? '' : 's'} from ${label}`,
    ...rows.map(([k, v]) => `  ${k.padEnd(20)} ${v}`),
  ];
  if (c.unknownApis.length) lines.push(`  APIs absent from the tool definitions: ${c.unknownApis.join('; ')}`);
  if (c.widenedParams.length) {
    const shown = c.widenedParams.slice(0, 5).map((w) => `${w.tool}.${w.param} (${w.from} + ${w.added.join(', ')})`);
    lines.push(
      `  widened ${c.widenedParams.length} parameter type(s) to accept recorded values: ${shown.join('; ')}${c.widenedParams.length > 5 ? '; …' : ''}`,
    );
  }
  for (const col of c.collisions) {
    lines.push(`  name collision: ${col.name} ← ${col.apis.map((a) => `${a.tool}: ${a.api}`).join(' | ')}`);
  }
  return lines.join('\n');
}
