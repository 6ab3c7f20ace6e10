import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`); .ci/run installs it when missing. */
export const CHROMIUM = '/usr/bin/chromium';

/** Every wait in these tests is bounded by this (Playwright's own default is 30 s). */
export const STEP_MS = 15_000;

/** Where the screenshots go (gitignored). */
export const ARTIFACTS = join(__dirname, '../../test-artifacts');

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless chromium on a fresh profile, removed by close(). `args`: more command-line switches
 * (a fake camera, host names); `viewport`: the page's size (a phone's, 390×844).
 */
export async function launchChromium(
  options: {
    args?: string[];
    viewport?: { width: number; height: number };
  } = {},
): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'box-office-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: STEP_MS,
    ...(options.viewport ? { viewport: options.viewport } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.args ?? []),
    ],
  });
  context.setDefaultTimeout(STEP_MS);
  context.setDefaultNavigationTimeout(STEP_MS);
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The page's console errors and uncaught exceptions, as they happen. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return errors;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
}
