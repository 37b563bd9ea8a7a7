/**
 * How a person reads a tool name. ToolBench-style names longer than 64 characters are cut from the
 * front (`toolbenchFunctionName`), so the name starts mid-word, e.g.
 * `ndonesian_city_district_for_…` of "indonesian_city_district…". Where a person reads names (Mermaid
 * drawings, tool lists, reports) such a name is shown as `…<cut API part> (<tool>)`: the leading `…`
 * says the front is missing, and the tool after the last `_for_` is set apart. Data keeps the exact name.
 */

/** The length ToolBench cuts function names to. */
const CUT_LENGTH = 64;

export function toolLabel(name: string): string {
  if (name.length !== CUT_LENGTH) return name;
  const at = name.lastIndexOf('_for_');
  if (at <= 0) return `…${name}`;
  return `…${name.slice(0, at)} (${name.slice(at + 5)})`;
}
