import type { InputDocument } from './read-inputs.js';

/**
 * How the runs of an agent-log import were laid out in its files, so that a hint about fixing
 * them describes the input the user gave: JSON Lines (one run a line), a JSON array of runs, or a
 * JSON document (one run, or an object holding runs). A format says what one run looks like
 * (`ConversationFormat.shape`); this says where that run sits.
 */

export type InputLayout = 'jsonl' | 'array' | 'document';

/** The layout of one parsed document: a JSONL line, a file that is a JSON array of runs, or one JSON document. */
export function layoutOf(doc: InputDocument, isRun: (value: unknown) => boolean = () => false): InputLayout {
  if (doc.line !== undefined) return 'jsonl';
  return Array.isArray(doc.value) && !isRun(doc.value) ? 'array' : 'document';
}

const PHRASE: Record<InputLayout, (shape: string) => string> = {
  jsonl: (shape) => `JSON Lines: one ${shape} a line`,
  array: (shape) => `a JSON array of runs, each ${shape}`,
  document: (shape) => `one JSON document: ${shape}`,
};

/**
 * How the input holds its runs, in the words of its own layouts (in the order first met), e.g.
 * `a JSON array of runs, each {"messages": [...]}`. Documents that could not be read are left out
 * unless nothing else is there (then a file that is not JSON reads as a JSON document).
 */
export function describeLayout(
  docs: readonly InputDocument[],
  shape: string,
  isRun?: (value: unknown) => boolean,
): string {
  const read = docs.filter((d) => !d.problem);
  const layouts = new Set((read.length > 0 ? read : docs).map((d) => layoutOf(d, isRun)));
  if (layouts.size === 0) layouts.add('document');
  return [...layouts].map((l) => PHRASE[l](shape)).join('; or ');
}
