import type { z } from 'zod';
import { FlowScoutError } from '../../errors/index.js';
import { describeIssue } from '../issue-text.js';

/**
 * Checks a parsed input file against the shape an importer expects and throws one INVALID_INPUT
 * error listing every mismatch with its JSON path (at most `max`), so a wrong or damaged file is
 * reported clearly instead of failing somewhere inside the importer.
 */
export function checkShape<T extends z.ZodType>(
  schema: T,
  value: unknown,
  file: string,
  what: string,
  max = 20,
): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const lines = issues.slice(0, max).map((issue) => {
    const { path, message } = describeIssue(issue, value);
    return `${file} (${path}): ${message}`;
  });
  if (issues.length > max) lines.push(`… and ${issues.length - max} more problems`);
  throw new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `${file} is not ${what}:\n  ${lines.join('\n  ')}`,
    hint: 'Check that you passed the right file (docs/DESIGN.md, "Data formats", describes each format); the fields above are missing or of the wrong type.',
    details: { problems: lines },
  });
}
