import { z } from 'zod';

/**
 * The TRAJECT-Bench input shapes (docs/DESIGN.md, "Data formats" §6), only as far as the importer reads them. Loose
 * objects: upstream fields the importer does not use are allowed and ignored.
 */

const ParamValueSchema = z.looseObject({ name: z.string().min(1), value: z.unknown() });

/** One executed call of a trajectory's `"tool list"`. */
export const TrajectCallSchema = z.looseObject({
  'tool name': z.string().min(1),
  'parent tool name': z.string().optional(),
  'API name': z.string().optional(),
  'required parameters': z.array(ParamValueSchema).nullish(),
  'optional parameters': z.array(ParamValueSchema).nullish(),
  execution_status: z.string(),
  executed_output: z.unknown().optional(),
  adapt_parameter: z.unknown().optional(),
  adapt_constraint: z.unknown().optional(),
  adapt_reason: z.unknown().optional(),
});

/** One trajectory record of `traj_query.json`. */
export const TrajectRecordSchema = z.looseObject({
  query: z.string().min(1),
  final_answer: z.looseObject({ answer: z.string(), reason: z.unknown().optional() }),
  'tool list': z.array(TrajectCallSchema),
  sequence_name: z.string().optional(),
  sequence_description: z.string().optional(),
  domain: z.string().optional(),
  generation_info: z.looseObject({
    sequence_index: z.number().int().nonnegative(),
    trajectory_index: z.number().int().nonnegative(),
  }),
});

export const TrajectFileSchema = z.array(TrajectRecordSchema);

/** One call of a parallel trajectory: no status (a failure shows only in its output). */
export const TrajectParallelCallSchema = z.looseObject({
  'tool name': z.string().min(1),
  'required parameters': z.array(ParamValueSchema).nullish(),
  'optional parameters': z.array(ParamValueSchema).nullish(),
  executed_output: z.unknown().optional(),
});

/** One record of a parallel set (`parallel/<Domain>/{simple_ver,hard_ver}.json`): `final_answer` is a string. */
export const TrajectParallelRecordSchema = z.looseObject({
  query: z.string().min(1),
  final_answer: z.string(),
  'tool list': z.array(TrajectParallelCallSchema),
  trajectory_type: z.string().optional(),
  domain: z.string().optional(),
});

export const TrajectParallelFileSchema = z.array(TrajectParallelRecordSchema);

/** True when a parsed traj file is a parallel set (its records' `final_answer` is a string). */
export function isParallelTrajectFile(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  const first = value[0] as Record<string, unknown> | null;
  return (
    typeof first === 'object' &&
    first !== null &&
    (first.trajectory_type === 'parallel' ||
      (typeof first.final_answer === 'string' && first.generation_info === undefined))
  );
}

const ParamDefSchema = z.looseObject({
  name: z.string(),
  type: z.string().optional(),
  description: z.string().nullish(),
  default: z.unknown().optional(),
});

/** One API definition of `<Domain>_tool.json` (a flattened ToolBench tool JSON, docs/DESIGN.md, "Data formats" §2). */
export const TrajectToolDefSchema = z.looseObject({
  'tool name': z.string().min(1),
  'API name': z.string().min(1),
  'parent tool name': z.string().min(1),
  'parent tool description': z.string().nullish(),
  'tool description': z.string().nullish(),
  required_parameters: z.array(ParamDefSchema).nullish(),
  optional_parameters: z.array(ParamDefSchema).nullish(),
  'domain name': z.string().optional(),
});

export const TrajectToolFileSchema = z.array(TrajectToolDefSchema);

export type TrajectCall = z.infer<typeof TrajectCallSchema>;
export type TrajectRecord = z.infer<typeof TrajectRecordSchema>;
export type TrajectToolDef = z.infer<typeof TrajectToolDefSchema>;
