import { z } from 'zod';
import { readJsonlFile } from '../records/read-jsonl.js';

/**
 * Predictions: what any agent produced for a record, so `flowscout eval --predictions` can measure
 * existing agents with TC and ES. One JSON object a line:
 * `{"id": "<record id>", "calls": [{"tool": "…", "args": {…}}], "answer": "…"}`.
 * Other fields (on the line or on a call, e.g. `output`, `latencyMs`) are allowed and ignored.
 * The same id on several lines means repeated runs of that record (for stability).
 */

export const PredictedCallSchema = z.looseObject({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
});

export const PredictionSchema = z.looseObject({
  id: z.string().min(1),
  calls: z.array(PredictedCallSchema),
  answer: z.string(),
});

export type Prediction = { id: string; calls: Array<{ tool: string; args: Record<string, unknown> }>; answer: string };

export interface ReadPredictionsResult {
  predictions: Prediction[];
  skipped: number;
  problems: string[];
}

/** Reads a predictions JSONL file; bad lines are named by line and field (or skipped with `skipInvalid`). */
export async function readPredictionsFile(
  path: string,
  opts: { skipInvalid?: boolean; maxProblems?: number } = {},
): Promise<ReadPredictionsResult> {
  const res = await readJsonlFile(path, PredictionSchema, {
    ...opts,
    noun: 'prediction',
    shape: '{"id", "calls": [{"tool", "args"}], "answer"}',
    missingHint: 'Check the path of the predictions file (one {"id", "calls", "answer"} object a line).',
  });
  const predictions = res.values.map((p) => ({
    id: p.id,
    calls: p.calls.map((c) => ({ tool: c.tool, args: c.args })),
    answer: p.answer,
  }));
  return { predictions, skipped: res.skipped, problems: res.problems };
}
