import { UnitProblem, type InputUnit } from './unit.js';
import { at, isObj, kind, type Obj } from './formats/common.js';
import { formatJsonPath, valueAt, type JsonPath } from './json-path.js';

/**
 * Where a run keeps its conversation. Agents log their messages under many keys (`messages`,
 * `traj`, `conversation`, `inputs.messages`, …); the format parsers read `messages`. This module
 * finds the array of role-tagged messages inside each item (or takes the `--messages` path), hands
 * the parser the item with that array as `messages`, and says which path it used. A JSON object
 * whose values are runs (`{"run-1": {…}, "run-2": {…}}`) is cut into one unit per run.
 */

/** True for a non-empty array whose every element is an object with a string `role`. */
export function isMessageArray(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every((m) => isObj(m) && typeof m.role === 'string');
}

/** Keys the parsers read themselves: a run that has one needs no relocation. */
function isNative(o: Obj): boolean {
  return (
    Array.isArray(o.messages) || Array.isArray(o.steps) || (isObj(o.response) && Array.isArray(o.response.messages))
  );
}

/** The shallowest path (up to `depth` keys) holding a message array; `messages` wins among equals. */
export function findMessageArray(value: unknown, depth = 3): JsonPath | undefined {
  let level: Array<{ v: unknown; path: JsonPath }> = [{ v: value, path: [] }];
  for (let d = 0; d < depth && level.length > 0; d++) {
    const next: Array<{ v: unknown; path: JsonPath }> = [];
    for (const { v, path } of level) {
      if (!isObj(v)) continue;
      const keys = Object.keys(v).sort((a, b) => Number(b === 'messages') - Number(a === 'messages'));
      for (const k of keys) if (isMessageArray(v[k])) return [...path, k];
      for (const k of keys) if (isObj(v[k])) next.push({ v: v[k], path: [...path, k] });
    }
    level = next;
  }
  return undefined;
}

/**
 * A JSON object of runs: at least two entries, every value an object that holds a message array
 * at the same path and carries something besides it (a run's id, reward, …), and no message
 * array of its own.
 */
function runsOf(o: Obj, path: JsonPath | undefined): Array<[string, Obj]> | undefined {
  if (isNative(o) || (path ? valueAt(o, path) !== undefined : findMessageArray(o, 1))) return undefined;
  const entries = Object.entries(o);
  if (entries.length < 2 || !entries.every(([, v]) => isObj(v))) return undefined;
  const paths = entries.map(([, v]) =>
    path ? (Array.isArray(valueAt(v, path)) ? path : undefined) : findMessageArray(v),
  );
  if (paths.some((p) => p === undefined)) return undefined;
  const first = JSON.stringify(paths[0]);
  if (!paths.every((p) => JSON.stringify(p) === first)) return undefined;
  if (!entries.every(([, v]) => Object.keys(v as Obj).length > 1)) return undefined;
  return entries as Array<[string, Obj]>;
}

/**
 * A JSON object holding its runs in an array under one key (`{"runs": [{…}, {…}]}`): that key, when
 * the object has no message array of its own and every element of the array holds one.
 */
function runListOf(o: Obj, path: JsonPath | undefined): string | undefined {
  if (isNative(o) || (path ? valueAt(o, path) !== undefined : findMessageArray(o))) return undefined;
  const keys = Object.keys(o).filter((k) => {
    const v = o[k];
    return (
      Array.isArray(v) &&
      v.length > 0 &&
      v.every((x) => isObj(x) && (path ? Array.isArray(valueAt(x, path)) : findMessageArray(x) !== undefined))
    );
  });
  return keys.length === 1 ? keys[0] : undefined;
}

/**
 * Units cut further: a unit that is a JSON object of runs becomes one unit per run, and so does an
 * object that holds its runs in an array under one key.
 */
export function expandRunObjects(units: readonly InputUnit[], path: JsonPath | undefined): InputUnit[] {
  return units.flatMap((u) => {
    if (!isObj(u.value)) return [u];
    const runs = runsOf(u.value, path);
    if (runs) return runs.map(([k, value]) => ({ ...u, path: at(u.path, k), value }));
    const key = runListOf(u.value, path);
    if (key) return (u.value[key] as unknown[]).map((value, i) => ({ ...u, path: at(at(u.path, key), i), value }));
    return [u];
  });
}

/** A unit ready for a parser, and the path of its messages (`$.traj`), undefined when already native. */
export interface LocatedUnit {
  unit: InputUnit;
  /** Where the messages were found, relative to the unit: `$.traj`; undefined when read as `messages` (or a bare array). */
  messagePath?: string;
}

/**
 * Finds the unit's messages (see the module comment). With `path` (from `--messages`) the array
 * must be there; without it a run that has no `messages` is searched. A problem names the keys seen.
 */
export function locateMessages(unit: InputUnit, path: JsonPath | undefined): LocatedUnit {
  if (!isObj(unit.value)) return { unit };
  const o = unit.value;
  if (path) {
    const v = valueAt(o, path);
    if (!Array.isArray(v)) {
      throw new UnitProblem(
        formatJsonPath(path),
        `--messages ${formatJsonPath(path).slice(2)}: expected an array of chat messages, found ${v === undefined ? 'nothing' : kind(v)}; keys seen: ${keysSeen(o)}`,
      );
    }
    if (path.length === 1 && path[0] === 'messages') return { unit, messagePath: '$.messages' };
    return { unit: { ...unit, value: { ...o, messages: v } }, messagePath: formatJsonPath(path) };
  }
  if (isNative(o)) return { unit };
  const found = findMessageArray(o);
  if (!found) {
    throw new UnitProblem(
      '$',
      `no array of chat messages (objects with a "role") in this item; keys seen: ${keysSeen(o)}. Name the key that holds the conversation with --messages <json path>`,
    );
  }
  return { unit: { ...unit, value: { ...o, messages: valueAt(o, found) } }, messagePath: formatJsonPath(found) };
}

/** A parser's path inside the relocated unit (`$.messages[3]`) as a path inside the item (`$.traj[3]`). */
export function relocatePath(path: string, messagePath: string | undefined): string {
  if (!messagePath || !path.startsWith('$.messages')) return path;
  return `${messagePath}${path.slice('$.messages'.length)}`;
}

function keysSeen(o: Obj): string {
  const keys = Object.keys(o);
  if (keys.length === 0) return '(none: an empty object)';
  return (
    keys
      .slice(0, 12)
      .map((k) => `${k} (${kind(o[k])})`)
      .join(', ') + (keys.length > 12 ? ', …' : '')
  );
}
