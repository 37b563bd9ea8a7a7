import { FlowScoutError } from '../../errors/index.js';

/**
 * The small JSON paths the import options take (`--messages traj`, `--where info.status!=failed`,
 * `--group task_id`): keys separated by dots, array indexes in brackets (`inputs.messages`,
 * `steps[0].output`, `["odd key"]`), an optional leading `$` or `$.`.
 */

export type JsonPath = ReadonlyArray<string | number>;

/** Parses a path; INVALID_INPUT naming the option when it is not one. */
export function parseJsonPath(text: string, option: string): JsonPath {
  let s = text.trim().replace(/^\$\.?/, '');
  const out: Array<string | number> = [];
  const bad = (why: string) =>
    new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${option} '${text}' is not a JSON path: ${why}`,
      hint: 'Write keys separated by dots and indexes in brackets, e.g. traj, inputs.messages, runs[0].messages.',
    });
  while (s.length > 0) {
    let m: RegExpExecArray | null;
    if ((m = /^\[(\d+)\]/.exec(s))) out.push(Number(m[1]));
    else if ((m = /^\[("(?:[^"\\]|\\.)*")\]/.exec(s))) out.push(JSON.parse(m[1]!) as string);
    else if ((m = /^\.?([^.[\]]+)/.exec(s))) out.push(m[1]!);
    else throw bad(`cannot read '${s}'`);
    s = s.slice(m[0].length);
  }
  if (out.length === 0) throw bad('it is empty');
  return out;
}

/** The value at a path, or undefined when any step is missing. */
export function valueAt(value: unknown, path: JsonPath): unknown {
  let v = value;
  for (const key of path) {
    if (typeof key === 'number') {
      if (!Array.isArray(v)) return undefined;
      v = v[key];
    } else {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
      v = (v as Record<string, unknown>)[key];
    }
  }
  return v;
}

/** `$.traj`, `$.inputs.messages`, `$.runs[0]` for messages and locations. */
export function formatJsonPath(path: JsonPath): string {
  return `$${path.map((k) => (typeof k === 'number' ? `[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join('')}`;
}
