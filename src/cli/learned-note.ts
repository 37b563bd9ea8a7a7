import { FlowScoutError } from '../errors/index.js';
import type { Workflow } from '../graph/schema.js';

/**
 * What `run`, `eval` and `serve` say about what the offline policy decides with. The offline policy
 * learns from no records: it reads the request, the tools and the workflow, where a search writes
 * what it learned as bindings and hints on the tool nodes. Workflows written by an older FlowScout
 * carried the offline policy's own table (`learned.offline`) or named a records file it learned from
 * (`meta.search.learnedFrom`); both are no longer read, and the note says so.
 */

/** The one line about the offline policy (undefined for an LLM policy). */
export function learnedLine(policyKind: string, workflow: Workflow, raw?: unknown): string | undefined {
  if (policyKind !== 'offline') return undefined;
  let bound = 0;
  let hinted = 0;
  for (const n of workflow.nodes) {
    if (n.kind !== 'tool') continue;
    bound += n.bind?.length ?? 0;
    hinted += n.hints?.length ?? 0;
  }
  const what =
    bound + hinted > 0
      ? `the request, the tools and the workflow's ${bound} binding${bound === 1 ? '' : 's'} and ${hinted} tool hint${hinted === 1 ? '' : 's'}`
      : 'the request and the tool descriptions alone (the workflow carries no bindings or hints: a search learns them)';
  return `offline policy: decides from ${what}${olderNote(raw)}`;
}

/** Said of a workflow an older FlowScout wrote with what its offline policy learned (nothing of it is read now). */
function olderNote(raw: unknown): string {
  const w = raw as { learned?: unknown; meta?: { search?: { learnedFrom?: unknown } } } | null;
  if (!w?.learned && !w?.meta?.search?.learnedFrom) return '';
  return "; this workflow was written by an older FlowScout with a table of the offline policy's own, which is no longer read: run the search again to learn bindings and hints into the workflow";
}

/** `--learn-from` is gone: what to do instead. */
export function learnFromRemoved(): FlowScoutError {
  return new FlowScoutError({
    code: 'INVALID_INPUT',
    message: '--learn-from is no longer an option: policies learn from no records',
    hint: 'Run `flowscout search` on your records: it writes what it learns (bindings and hints) into the workflow, which `run`, `eval` and `serve` read.',
  });
}
