/** What an agent-log import counted (`ConversationCounts`), and the summary it prints from it. */
import type { WidenedParam } from './widen-schemas.js';

export interface ConversationCounts {
  format: string;
  files: number;
  /** Conversations found (valid or not). */
  conversations: number;
  kept: number;
  /** Conversations skipped as invalid (only with skipInvalid), by reason. */
  invalid: Record<string, number>;
  /** Valid conversations left out, by reason. */
  dropped: Record<string, number>;
  /** The first problems, formatted `file:line ($.path): message`. */
  problems: string[];
  calls: number;
  failedCalls: number;
  /** Of the failed calls, tool outputs that were errors by their text ("Error: …", {"error": …}). */
  textErrors: number;
  /** Failed calls of runs selected as successful (`where`) left out of the reference log and kept in the record's turns. */
  failedLeftOut: number;
  /** Calls to tools the definitions do not have (only counted when there are definitions). */
  missingToolCalls: number;
  missingTools: string[];
  /** Of those, calls kept (with --keep-failed). */
  keptMissingToolCalls: number;
  keptCalls: number;
  /** Parallel groups: assistant turns with more than one call. */
  parallelTurns: number;
  toolsDefined: number;
  /** Of the defined tools, those from the `tools` option's file. */
  toolsFromFile: number;
  toolsInferred: number;
  /** Later definitions of an already defined name that differ from the first (the first is kept). */
  conflictingDefinitions: number;
  duplicateIds: number;
  widenedParams: WidenedParam[];
  /** Where the messages were found, per path (`$.traj`), for items that did not hold them as `messages`. */
  messagePaths: Record<string, number>;
  /** The `where` conditions, and how many runs they selected out of how many. */
  where?: { conditions: string[]; selected: number; of: number };
  /** The `group` path, the distinct groups of the kept records and the kept records without one. */
  group?: { path: string; groups: number; without: number };
  /** How the kept records' reference answers were found (dialogue.ts, `referenceOf`). */
  references: { chosen: number; passedOver: number; endsInCall: number; closingOnly: number; fromTrace: number };
  /** Kept records with more than one user turn (their turns are kept). */
  multiTurn: number;
  /** Kept records of runs that made no tool call (their reference log is empty). */
  noCall: number;
}

/** The summary an import prints: where the messages were, what was selected, kept, dropped and why, calls, references, tools. */
export function formatConversationCounts(
  label: string,
  c: ConversationCounts,
  opts: { keepFailed?: boolean } = {},
): string {
  const sum = (o: Record<string, number>) => Object.values(o).reduce((n, k) => n + k, 0);
  const reasons = (o: Record<string, number>) =>
    Object.entries(o)
      .map(([r, k]) => `${r}: ${k}`)
      .join('; ');
  const paths = Object.entries(c.messagePaths);
  const rows: Array<[string, string]> = [
    ['conversations', `${c.conversations} in ${c.files} file${c.files === 1 ? '' : 's'}`],
  ];
  if (paths.length)
    rows.push(['messages found', paths.map(([p, n]) => `under ${p} (${n} run${n === 1 ? '' : 's'})`).join('; ')]);
  if (c.where)
    rows.push([
      'selected',
      `${c.where.selected} of ${c.where.of} runs by --where ${c.where.conditions.join(' and ')} (${c.where.of - c.where.selected} left out)`,
    ]);
  rows.push(
    [
      'kept',
      `${c.kept}${c.noCall ? ` (${c.noCall} answered without a tool call: kept with an empty reference log, from which a workflow learns when not to call)` : ''}${opts.keepFailed ? ' (--keep-failed: records with failed calls or calls to undefined tools kept)' : ''}`,
    ],
    ['dropped', `${sum(c.dropped)}${sum(c.dropped) ? ` (${reasons(c.dropped)})` : ''}`],
    ['invalid, skipped', `${sum(c.invalid)}${sum(c.invalid) ? ` (${reasons(c.invalid)})` : ''}`],
    [
      'calls',
      `${c.calls} (failed: ${c.failedCalls}, of them errors returned as text: ${c.textErrors}; to tools absent from the definitions: ${c.missingToolCalls}${opts.keepFailed ? `, kept: ${c.keptMissingToolCalls}` : ''})`,
    ],
    [
      'calls kept',
      `${c.keptCalls}${c.parallelTurns ? ` (${c.parallelTurns} turn${c.parallelTurns === 1 ? '' : 's'} with parallel calls, kept in their listed order)` : ''}`,
    ],
  );
  if (c.failedLeftOut)
    rows.push([
      'failed on the way',
      `${c.failedLeftOut} failed call${c.failedLeftOut === 1 ? '' : 's'} of selected runs left out of the reference logs (kept in the records' turns)`,
    ]);
  const r = c.references;
  const refParts = [
    `${r.chosen} chosen as the assistant's content after the last tool result${r.passedOver ? ` (${r.passedOver} closing formula${r.passedOver === 1 ? '' : 's'} passed over)` : ''}`,
  ];
  if (r.fromTrace) refParts.push(`${r.fromTrace} the trace's final output`);
  if (r.endsInCall)
    refParts.push(
      `${r.endsInCall} run${r.endsInCall === 1 ? '' : 's'} ending in a tool call (hand-offs, final writes) kept without one`,
    );
  if (r.closingOnly) refParts.push(`${r.closingOnly} with only closing formulas after the last call, kept without one`);
  rows.push(['references', refParts.join('; ')]);
  if (c.multiTurn)
    rows.push([
      'multi-turn',
      `${c.multiTurn} dialogue${c.multiTurn === 1 ? '' : 's'} with several user turns (query = the user turns joined with markers; turns kept in the record)`,
    ]);
  if (c.group)
    rows.push([
      'groups',
      `${c.group.groups} by --group ${c.group.path}${c.group.without ? ` (${c.group.without} record${c.group.without === 1 ? '' : 's'} without a value: each is its own group)` : ''}`,
    ]);
  rows.push([
    'tools',
    `${c.toolsDefined + c.toolsInferred} (${c.toolsDefined} defined${c.toolsFromFile ? `, ${c.toolsFromFile} of them by --tools` : ' in the logs'}${c.conflictingDefinitions ? `, ${c.conflictingDefinitions} differing redefinitions ignored` : ''}; ${c.toolsInferred} inferred from recorded calls)`,
  ]);
  // The first line says what was kept: a reader who stops there must not take the conversations read for records.
  const lines = [
    c.kept === 0 ? `Kept no record from ${label}` : `Imported ${c.kept} record${c.kept === 1 ? '' : 's'} from ${label}`,
    ...rows.map(([k, v]) => `  ${k.padEnd(20)} ${v}`),
  ];
  if (c.missingTools.length)
    lines.push(
      `  tools absent from the definitions: ${c.missingTools.slice(0, 10).join(', ')}${c.missingTools.length > 10 ? ', …' : ''}`,
    );
  if (c.duplicateIds) lines.push(`  ${c.duplicateIds} repeated id(s) made unique with ~<line>`);
  if (c.widenedParams.length)
    lines.push(`  widened ${c.widenedParams.length} parameter type(s) to accept recorded values`);
  for (const p of c.problems.slice(0, 5)) lines.push(`  skipped: ${p}`);
  if (c.problems.length > 5) lines.push(`  … and ${c.problems.length - 5} more skipped`);
  return lines.join('\n');
}
