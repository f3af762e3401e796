// The booking page's browser set-up: the page built fresh by Vite, served as the partner API serves it
// (serveBookingPage), and one headless Chromium (Debian's, driven by playwright-core) with a phone (390 px) and a
// desktop (1280 px) context.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const pageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCREENSHOTS = path.join(pageRoot, 'test', 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Builds the page into a folder of this test file's own (two files building into one would empty it under each other). */
export function buildBookingPage(): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'backbone-booking-page-dist-'));
  execFileSync(process.execPath, [path.join(pageRoot, '..', '..', 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn', '--outDir', dist], {
    cwd: pageRoot,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return dist;
}

/** Builds the console (apps/console) into a folder of this test file's own, for the operator API to serve under /console. */
export function buildConsole(): string {
  const consoleRoot = path.join(pageRoot, '..', 'console');
  const dist = mkdtempSync(path.join(os.tmpdir(), 'backbone-console-dist-'));
  execFileSync(process.execPath, [path.join(pageRoot, '..', '..', 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn', '--outDir', dist], {
    cwd: consoleRoot,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return dist;
}

export type Width = 'phone' | 'desktop';

export function useBrowser() {
  const pages = { phone: null as unknown as Page, desktop: null as unknown as Page, errors: [] as string[] };
  let instance: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`No Chromium at ${CHROMIUM}: install Debian's (apt-get install -y chromium, as .ci/run does) or set CHROMIUM_PATH.`);
    instance = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    for (const [name, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      const context = await instance.newContext({ viewport, locale: 'en-GB' });
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => pages.errors.push(`${name} page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) pages.errors.push(`${name} console: ${message.text()}`);
      });
      pages[name] = page;
    }
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await instance?.close();
  });
  return pages;
}

/** Saves a screenshot of the whole page under test/screenshots/<name>-<width>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(SCREENSHOTS, `${name}-${page.viewportSize()!.width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
