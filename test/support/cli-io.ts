import type { CliIO } from '../../src/cli/output.js';
import { runCli } from '../../src/cli/program.js';

/**
 * The CLI as tests drive it: in-process through `runCli`, with what a command prints kept instead
 * of written to the terminal (never a TTY, so no spinners).
 */

/** A `CliIO` that keeps every printed piece. */
export interface CapturedIO extends CliIO {
  /** What went to stdout, the pieces joined by newlines. */
  text(): string;
  /** What went to stderr, the pieces joined by newlines. */
  errors(): string;
  /** stdout and stderr interleaved in print order, joined by newlines. */
  all(): string;
}

/** A fresh capturing `CliIO` (pass it to `runCli`). */
export function captureIO(): CapturedIO {
  const out: string[] = [];
  const err: string[] = [];
  const all: string[] = [];
  return {
    out: (t) => void (out.push(t), all.push(t)),
    err: (t) => void (err.push(t), all.push(t)),
    isTTY: false,
    text: () => out.join('\n'),
    errors: () => err.join('\n'),
    all: () => all.join('\n'),
  };
}

/** Runs `flowscout <argv>`: the exit status, and stdout and stderr with every printed piece ending in one newline. */
export async function cli(argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const line = (t: string) => (t.endsWith('\n') ? t : `${t}\n`);
  const io: CliIO = { out: (t) => (out += line(t)), err: (t) => (err += line(t)), isTTY: false };
  const status = await runCli(argv, io);
  return { status, out, err };
}
