import { basename, dirname } from 'node:path';
import { FlowScoutError } from '../../errors/index.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { readJsonFile } from '../../util/json-file.js';
import type { Call, TaskRecord } from '../schema.js';
import { checkShape } from './check-shape.js';
import { toolbenchFunctionName, type NameCollision } from './toolbench-names.js';
import {
  isParallelTrajectFile,
  TrajectFileSchema,
  TrajectParallelFileSchema,
  TrajectToolFileSchema,
  type TrajectCall,
  type TrajectRecord,
} from './traject-format.js';
import { trajectToolDescriptors } from './traject-tools.js';
import { widenSchemasToRecordedCalls, type WidenedParam } from './widen-schemas.js';

/**
 * TRAJECT-Bench sequential trajectories → FlowScout records (docs/DESIGN.md, "Data formats" §6): q = `query`,
 * r = `final_answer.answer`, π = `"tool list"` in order, each call named by its ToolBench function
 * name with the required and optional parameter lists merged into one argument object, the recorded
 * `executed_output` kept raw and `execution_status` mapped to ok/error.
 */

export interface ImportTrajectOptions {
  /** Keep records that contain a failed call (dropped by default: references should be validated logs). */
  keepFailed?: boolean;
}

/** Why records were dropped. */
export const DROP_UNKNOWN_API = 'calls an API absent from the tool definitions';
export const DROP_FAILED_CALL = 'has a failed call';

export interface TrajectCounts {
  /** Records in the file. */
  records: number;
  /** Records whose calls all succeeded. */
  recordsAllOk: number;
  /** Records imported. */
  kept: number;
  /** Records left out, by reason (one reason per record). */
  dropped: Record<string, number>;
  /** Calls in all records of the file. */
  calls: number;
  failedCalls: number;
  /** Calls to APIs that the tool definitions do not have (upstream `parent tool name` "unknown"). */
  unknownApiCalls: number;
  /** Their display names, distinct, sorted. */
  unknownApis: string[];
  /** Calls in the imported records. */
  keptCalls: number;
  /** Distinct tools (function names) called in the file's records / in the imported records. */
  distinctTools: number;
  distinctToolsKept: number;
  /** API definitions in the tool file, and descriptors written (after duplicates and collisions). */
  toolDefs: number;
  tools: number;
  duplicateDefs: number;
  collisions: NameCollision[];
  /** Parameters whose type was widened to accept what successful recorded calls passed (widen-schemas.ts). */
  widenedParams: WidenedParam[];
}

export interface ImportTrajectResult {
  records: TaskRecord[];
  tools: ToolDescriptor[];
  counts: TrajectCounts;
}

/**
 * Imports one `traj_query.json` (or a parallel set, `simple_ver.json` / `hard_ver.json`) with its
 * `<Domain>_tool.json`. A parallel record has no `generation_info` and no `execution_status`: its id
 * is `<domain>-<file name>-<index>`, a call whose output starts with `ERROR` is a failed call, and
 * its calls keep their listed order (they are independent; any order is a correct execution).
 */
export function importTraject(
  trajQueryPath: string,
  toolDefsPath: string,
  opts: ImportTrajectOptions = {},
): ImportTrajectResult {
  const data = readJsonFile(trajQueryPath);
  const parallel = isParallelTrajectFile(data);
  const variant = basename(trajQueryPath).replace(/\.json$/i, '');
  const raw: TrajectRecord[] = parallel
    ? checkShape(
        TrajectParallelFileSchema,
        data,
        trajQueryPath,
        'a TRAJECT-Bench parallel set (a list of {query, "tool list", final_answer})',
      ).map((rec, index) => ({
        ...rec,
        final_answer: { answer: rec.final_answer },
        'tool list': rec['tool list'].map((call) => ({
          ...call,
          execution_status: /^\s*ERROR\b/.test(String(call.executed_output ?? '')) ? 'failed' : 'success',
        })),
        generation_info: { sequence_index: index, trajectory_index: 0 },
        sequence_name: 'parallel',
      }))
    : checkShape(
        TrajectFileSchema,
        data,
        trajQueryPath,
        'a TRAJECT-Bench traj_query.json (a list of trajectory records)',
      );
  const defs = checkShape(
    TrajectToolFileSchema,
    readJsonFile(toolDefsPath),
    toolDefsPath,
    'a TRAJECT-Bench <Domain>_tool.json (a list of API definitions)',
  );
  const used = new Set(raw.flatMap((r) => r['tool list'].map((c) => c['tool name'])));
  const { tools, nameOf, duplicateDefs, collisions } = trajectToolDescriptors(defs, used);
  const fallbackDomain = defs.find((d) => d['domain name'])?.['domain name'] ?? basename(dirname(trajQueryPath));

  const records: TaskRecord[] = [];
  const dropped: Record<string, number> = {};
  const seen = new Map<string, number>();
  const unknownApis = new Set<string>();
  const allTools = new Set<string>();
  const keptTools = new Set<string>();
  let recordsAllOk = 0;
  let calls = 0;
  let failedCalls = 0;
  let unknownApiCalls = 0;
  let keptCalls = 0;
  const allCalls: Call[] = [];

  raw.forEach((rec, index) => {
    const domain = rec.domain ?? fallbackDomain;
    const { sequence_index: seq, trajectory_index: traj } = rec.generation_info;
    const id = (parallel ? `${domain}-${variant}-${seq}` : `${domain}-${seq}-${traj}`)
      .toLowerCase()
      .replace(/\s+/g, '_');
    const previous = seen.get(id);
    if (previous !== undefined) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `records $[${previous}] and $[${index}] have the same sequence_index ${seq} and trajectory_index ${traj}`,
        hint: 'Record ids are <domain>-<sequence_index>-<trajectory_index>; each pair must occur once in a file.',
        location: { file: trajQueryPath, path: `$[${index}].generation_info` },
      });
    }
    seen.set(id, index);

    let unknownHere = 0;
    const recCalls: Call[] = rec['tool list'].map((call) => {
      const known = nameOf.get(call['tool name']);
      if (!known) {
        unknownHere++;
        unknownApis.add(call['tool name']);
      }
      const tool = known ?? fallbackName(call);
      allTools.add(tool);
      return {
        tool,
        args: mergeArgs(call),
        output: call.executed_output,
        status: call.execution_status === 'success' ? 'ok' : 'error',
      };
    });
    allCalls.push(...recCalls);
    const failedHere = recCalls.filter((c) => c.status === 'error').length;
    calls += recCalls.length;
    failedCalls += failedHere;
    unknownApiCalls += unknownHere;
    if (failedHere === 0) recordsAllOk++;

    if (failedHere > 0 && !opts.keepFailed) {
      const reason = unknownHere > 0 ? DROP_UNKNOWN_API : DROP_FAILED_CALL;
      dropped[reason] = (dropped[reason] ?? 0) + 1;
      return;
    }
    keptCalls += recCalls.length;
    for (const c of recCalls) keptTools.add(c.tool);
    records.push({
      id,
      query: rec.query,
      reference: rec.final_answer.answer,
      calls: recCalls,
      domain,
      group: (parallel ? `${domain}-${variant}-${seq}` : `${domain}-${seq}`).toLowerCase().replace(/\s+/g, '_'),
      meta: parallel
        ? { source: 'traject-bench', trajectoryType: 'parallel', set: variant, index: seq }
        : recordMeta(rec),
    });
  });

  const widenedParams = widenSchemasToRecordedCalls(tools, allCalls);
  return {
    records,
    tools,
    counts: {
      records: raw.length,
      recordsAllOk,
      kept: records.length,
      dropped,
      calls,
      failedCalls,
      unknownApiCalls,
      unknownApis: [...unknownApis].sort(),
      keptCalls,
      distinctTools: [...allTools].filter((t) => tools.some((d) => d.name === t)).length,
      distinctToolsKept: keptTools.size,
      toolDefs: defs.length,
      tools: tools.length,
      duplicateDefs,
      collisions,
      widenedParams,
    },
  };
}

/** Required and optional parameter lists merged into one object (later entries win on a repeated name). */
function mergeArgs(call: TrajectCall): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const p of [...(call['required parameters'] ?? []), ...(call['optional parameters'] ?? [])])
    args[p.name] = p.value;
  return args;
}

/**
 * The function name of a call whose API is not in the tool definitions: built from the display
 * name `"<Parent>: <API name>"` (the call's own parent/API fields read "unknown" in that case).
 */
function fallbackName(call: TrajectCall): string {
  const parent = call['parent tool name'];
  const api = call['API name'];
  if (parent && api && parent !== 'unknown' && api !== 'unknown') return toolbenchFunctionName(api, parent);
  const display = call['tool name'];
  const colon = display.indexOf(': ');
  return colon > 0
    ? toolbenchFunctionName(display.slice(colon + 2), display.slice(0, colon))
    : toolbenchFunctionName(display, 'unknown');
}

/** What the miner and the optimizer may use beyond (q, r, π): the chain and the data-flow hints. */
function recordMeta(rec: TrajectRecord): Record<string, unknown> {
  const adapt = rec['tool list'].flatMap((call, index) =>
    call.adapt_parameter === undefined
      ? []
      : [
          {
            call: index,
            parameter: call.adapt_parameter,
            constraint: call.adapt_constraint,
            reason: call.adapt_reason,
          },
        ],
  );
  return {
    source: 'traject-bench',
    sequenceName: rec.sequence_name,
    sequenceDescription: rec.sequence_description,
    sequenceIndex: rec.generation_info.sequence_index,
    trajectoryIndex: rec.generation_info.trajectory_index,
    ...(adapt.length ? { adapt } : {}),
  };
}
