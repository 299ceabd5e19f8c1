/**
 * Browser tests: a real Kibitz process (dist/src/server.js, built by `npm test`'s pretest) on a free
 * port, and Debian's Chromium driven by playwright-core (one browser per test file).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

const entry = fileURLToPath(new URL('../../dist/src/server.js', import.meta.url));

export const CHROMIUM = '/usr/bin/chromium';
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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Kibitz {
  url: string;
  close(): Promise<void>;
}

/** Starts the service and waits until /ready answers 200. */
export async function startKibitz(env: Record<string, string> = {}): Promise<Kibitz> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [entry], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), WORKERS: '2', TT_SIZE_MB: '8', LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let closing = false;
  child.once('exit', (code, signal) => {
    if (!closing) process.stderr.write(`kibitz on port ${port} exited unexpectedly (code ${code}, signal ${signal})\n`);
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  let ready = false;
  while (!ready && Date.now() < until && child.exitCode === null) {
    ready = await fetch(`${url}/ready`).then((r) => r.status === 200, () => false);
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error('kibitz did not become ready');
  }
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A fresh temporary profile per launch (playwright's own); the arguments of the CI image. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** A page that records console errors and failed requests, so a test can assert there were none. */
export async function openPage(browser: Browser, url: string, size = { width: 1280, height: 800 }): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  return { page, errors };
}

/** Where the tests put their screenshots (printed by the tests so a person can look at them). */
export function screenshotDir(): string {
  const dir = join(tmpdir(), 'kibitz-playground-screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}
