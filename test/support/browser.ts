import { mkdtempSync, rmSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/**
 * Debian's chromium driven by playwright-core, for the browser tests and the UI screenshots (never
 * a downloaded browser). Headless, no sandbox (CI runs as root), no network side-channels, and a
 * fresh profile that is removed on close.
 */
export const CHROMIUM = process.env.FLOWSCOUT_CHROMIUM ?? '/usr/bin/chromium';

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does)`);
  const profile = mkdtempSync(join(tmpdir(), 'flowscout-chromium-'));
  // A persistent context is how playwright takes an explicit, fresh --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 300_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
