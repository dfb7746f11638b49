import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { build } from "vite";

/** The playground package directory. */
export const playgroundDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Where screenshots go: `artifacts/screenshots/` at the repository root (gitignored). */
export const screenshotDir = resolve(playgroundDir, "..", "artifacts", "screenshots");

/** Chromium from the system package; CI installs it the same way. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Builds the playground for production into a fresh temporary directory and returns it. */
export async function buildPlayground(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), "costplugin-playground-"));
  await build({
    root: playgroundDir,
    configFile: join(playgroundDir, "vite.config.ts"),
    logLevel: "warn",
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

/** A headless Chromium with a fresh profile; `close()` removes the profile. */
export interface TestBrowser {
  readonly context: BrowserContext;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** Launches Chromium headless, with the flags a locked-down CI machine needs. */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), "costplugin-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    locale: "en-US",
    timezoneId: "UTC",
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  await mkdir(screenshotDir, { recursive: true });
  return {
    context,
    async newPage(viewport) {
      const page = await context.newPage();
      // Waits are on conditions, never fixed: generous limits only matter on a slow, loaded
      // machine, where a cold page load (and the dev server's first compile) takes seconds.
      page.setDefaultTimeout(30_000);
      page.setDefaultNavigationTimeout(60_000);
      if (viewport) await page.setViewportSize(viewport);
      return page;
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot as `artifacts/screenshots/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}
