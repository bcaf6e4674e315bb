/**
 * Headless Chromium for the docs page test and its screenshot, driven by playwright-core (which downloads
 * no browser of its own), with a fresh empty profile and every background network feature off, so that a
 * page load makes only the requests the page itself makes. The browser is looked for, in this order, at
 * CHROMIUM_PATH, at the usual system locations, and in playwright's own install (`npx playwright install
 * chromium`).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Where Chromium or Chrome is installed by Debian, Ubuntu (snap), Fedora, Homebrew and the macOS installers. */
export const SYSTEM_CHROMIUM_PATHS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/** How to make a browser available, for the line a run without one prints. */
export const CHROMIUM_HINT =
  'install Chromium (apt-get install chromium, or npx playwright install chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The candidates, in order. CHROMIUM_SEARCH_PATHS (a list in the PATH format; empty for none) stands in
 * for the system locations, so that a run can be made as on a machine without a browser. Playwright's own
 * install honours PLAYWRIGHT_BROWSERS_PATH.
 */
export function chromiumCandidates(env: Env = process.env): string[] {
  const system =
    env.CHROMIUM_SEARCH_PATHS === undefined
      ? SYSTEM_CHROMIUM_PATHS
      : env.CHROMIUM_SEARCH_PATHS.split(delimiter).filter((path) => path !== '');
  let playwrights: string[] = [];
  try {
    playwrights = [chromium.executablePath()];
  } catch {
    // playwright-core knows no browser build for this platform.
  }
  return [...(env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : []), ...system, ...playwrights];
}

/** The first candidate that exists, or undefined when this machine has no browser we can drive. */
export function findChromium(env: Env = process.env): string | undefined {
  return chromiumCandidates(env).find((path) => existsSync(path));
}

/** True when running under CI (CI=true, as GitHub Actions, GitLab and `.ci/run` set it). */
export function underCi(env: Env = process.env): boolean {
  return ['true', '1'].includes((env.CI ?? '').trim().toLowerCase());
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A browser with a new empty profile (playwright passes it as --user-data-dir); close() deletes it. */
export async function launchChromium(executablePath = findChromium()): Promise<Chromium> {
  if (executablePath === undefined) {
    throw new Error(`No Chromium found (looked at ${chromiumCandidates().join(', ')}): ${CHROMIUM_HINT}`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
