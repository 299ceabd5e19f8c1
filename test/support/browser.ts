/**
 * Browser tests: a real Kibitz on a free port (the app and worker pool of test/support/app.ts, serving
 * the playground that `npm test`'s pretest built into dist/web), and Debian's Chromium driven by
 * playwright-core (one browser per test file).
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import type { Test } from 'tap';
import { PREREQUISITES, requireBinary } from '../../scripts/test-prereqs.js';
import { closeTestApp, testApp } from './app.js';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Kibitz {
  url: string;
  close(): Promise<void>;
}

/**
 * A real Kibitz (the app with its worker pool) listening on a free port of 127.0.0.1. In the test's
 * process, so nothing else on a shared machine can stop it between two tests.
 */
export async function startKibitz(env: Record<string, string> = {}): Promise<Kibitz> {
  const kibitz = await testApp(env);
  await kibitz.app.listen({ host: '127.0.0.1', port: 0 });
  const address = kibitz.app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => closeTestApp(kibitz) };
}

/** A fresh temporary profile per launch (playwright's own); the arguments of the CI image. */
export function launchChromium(): Promise<Browser> {
  // Never skipped: a missing browser fails the test (npm test's pretest installs it: scripts/test-prereqs.ts).
  const executablePath = requireBinary(PREREQUISITES[0]);
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

const sharedPages = new WeakMap<Browser, Map<string, Page>>();

/**
 * A page that records console errors and failed requests, so a test can assert there were none. One page per
 * browser and viewport serves every test of a file, each test loading the app afresh (the app keeps its state in
 * memory only): a new browser context per test cost about 1 s against 0.35 s for a navigation.
 */
export async function openPage(browser: Browser, url: string, size = { width: 1280, height: 800 }): Promise<{ page: Page; errors: string[] }> {
  let pages = sharedPages.get(browser);
  if (pages === undefined) sharedPages.set(browser, (pages = new Map()));
  const key = `${size.width}x${size.height}`;
  let page = pages.get(key);
  if (page === undefined || page.isClosed()) {
    page = await (await browser.newContext({ viewport: size })).newPage();
    pages.set(key, page);
  }
  page.removeAllListeners('console');
  page.removeAllListeners('pageerror');
  await page.unrouteAll();
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  return { page, errors };
}

/** Ends a test's use of its page: its routes go, and a blank page stops whatever the app still had in flight. */
export async function closePage(page: Page): Promise<void> {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.goto('about:blank');
}

/** Where the tests put their screenshots (printed by the tests so a person can look at them). */
export function screenshotDir(): string {
  const dir = join(tmpdir(), 'kibitz-playground-screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The desktop and phone viewports the pages are checked at. */
export const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Until the person can move (a legal target is marked) or the game is over. */
export async function waitForTurn(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.getElementById('banner')!.hidden || document.querySelector('rect.sq.legal, rect.sq.dest') !== null);
}

export async function setBudget(page: Page, ms: number): Promise<void> {
  await page.fill('#budget', String(ms));
}

/** The position the page shows, from its state box (filled once the page has fetched its first state). */
export async function stateOf(page: Page): Promise<{ board: unknown[]; turn: string }> {
  await page.waitForFunction(() => (document.getElementById('state-json') as HTMLTextAreaElement).value !== '');
  return JSON.parse(await page.inputValue('#state-json')) as { board: unknown[]; turn: string };
}

/** The moves played so far, as the move list shows them. */
export async function plies(page: Page): Promise<string[]> {
  return page.locator('#moves button').allTextContents();
}

/** A browser test file's fixture: a Kibitz on a free port and a Chromium, started before its tests and closed after them. */
export function browserSession(t: Test): { kibitz: Kibitz; browser: Browser } {
  const session = {} as { kibitz: Kibitz; browser: Browser };
  t.before(async () => {
    session.kibitz = await startKibitz();
    session.browser = await launchChromium();
  });
  t.teardown(async () => {
    await session.browser?.close();
    await session.kibitz?.close();
  });
  return session;
}
