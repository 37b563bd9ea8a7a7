import { redactText } from '../util/redact.js';
/**
 * Where CLI commands write. Injected so tests can capture output without spawning a process.
 */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is a terminal (progress displays only then). */
  isTTY: boolean;
}

// Everything a command prints passes the one redaction pass (util/redact.ts): keys a model echoed,
// credentials in URLs, encoded keys.
export const processIO: CliIO = {
  out: (text) => process.stdout.write(redactText(text.endsWith('\n') ? text : `${text}\n`)),
  err: (text) => process.stderr.write(redactText(text.endsWith('\n') ? text : `${text}\n`)),
  isTTY: Boolean(process.stdout.isTTY),
};

/** Thrown by a command to end with a status without printing an error (e.g. `validate` → 1). */
export class ExitWith {
  constructor(readonly status: number) {}
}
