import type { TaskPart, Workflow } from './schema.js';

/**
 * The neutral tasks the search's rules write on a tool step (search/optimizers/rule-edits.ts and
 * new-positions.ts): a task that names no tool, so the part of the request the step serves decides.
 * A step that has one carries the part it looks up in its `taskPart` field, which is what the search
 * reads to tell its own tasks from the miner's or a user's; nothing compares the text.
 */

/** The neutral task of the k-th tool step (k from 1), or of a step appended after the last (`next`). */
export function neutralTask(part: TaskPart): string {
  return part === 'next'
    ? 'Look up what the next part of the request asks for, with the tool that fits that part and the values the request gives for it.'
    : `Look up what part ${part} of the request asks for, with the tool that fits that part and the values the request gives for it.`;
}

/** The texts written before `taskPart` existed, read back only to set the field on such files. */
const OLD_PART_TASK = new RegExp(`^${escape(neutralTask(1)).replace(' 1 ', ' ([1-9][0-9]{0,5}) ')}$`);
const OLD_NEXT_TASK = neutralTask('next');

/**
 * A workflow written before tool steps carried `taskPart`: each tool step without the field whose
 * task is, word for word, a neutral task gets the field (the part named in the text). Any other
 * workflow is returned as it is. Pure: the input is not changed.
 */
export function withTaskParts(w: Workflow): Workflow {
  if (!w.nodes.some((n) => n.kind === 'tool' && n.taskPart === undefined && oldTaskPart(n.task) !== undefined))
    return w;
  return {
    ...w,
    nodes: w.nodes.map((n) => {
      if (n.kind !== 'tool' || n.taskPart !== undefined) return n;
      const part = oldTaskPart(n.task);
      return part === undefined ? n : { ...n, taskPart: part };
    }),
  };
}

function oldTaskPart(task: string): TaskPart | undefined {
  if (task === OLD_NEXT_TASK) return 'next';
  const m = OLD_PART_TASK.exec(task);
  return m ? Number(m[1]) : undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
