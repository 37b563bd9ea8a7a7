/**
 * The message of anything thrown, for error text that is recorded rather than thrown (node
 * observations, tool call outcomes): an Error's message (its name when the message is empty), a
 * string as is, anything else as JSON.
 */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e) ?? String(e);
  } catch {
    return String(e);
  }
}
