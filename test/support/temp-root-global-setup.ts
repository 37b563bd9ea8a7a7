import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest globalSetup: every temporary file a test run makes goes under one folder of its own, which
 * is removed when the run ends, so running the tests leaves nothing in the system's temporary folder
 * (many tests make a folder with `mkdtempSync(join(tmpdir(), …))` and leave it to the system). The
 * test processes are forked after this runs, so they, and the CLIs, workers and servers they start,
 * read the folder from TMPDIR (`os.tmpdir()`).
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'flowscout-tests-'));
  // Open to every user as the system's temporary folder is (sticky): the permission tests run the
  // CLI as an unprivileged user on folders made here.
  chmodSync(root, 0o1777);
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
