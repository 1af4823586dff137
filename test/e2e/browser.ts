/**
 * @module
 * Debian's chromium driven by playwright-core (no downloaded browser), with the flags a shared CI machine needs and
 * a fresh profile per run.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export const hasChromium = (): boolean => existsSync(CHROMIUM_PATH);

export interface RunningBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless chromium on a fresh --user-data-dir (playwright passes it through launchPersistentContext). */
export async function startBrowser(): Promise<RunningBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "parley-e2e-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    viewport: { width: 1440, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
