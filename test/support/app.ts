/** Builds the real app over a real (compiled) worker pool for HTTP tests. */
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { Readiness } from '../../src/http/readiness.js';
import { SearchPool } from '../../src/pool/pool.js';

export interface TestApp {
  app: FastifyInstance;
  pool: SearchPool;
  config: Config;
  readiness: Readiness;
}

export async function testApp(env: Record<string, string> = {}, options: { fallbackThread?: boolean } = {}): Promise<TestApp> {
  // One search thread unless a test asks for more, and no fallback thread unless it is what a test checks (fallbacks then
  // run on the main thread): each thread loads every engine, 0.5-0.75 s of CPU (docs/testing.md).
  const config = loadConfig({ WORKERS: '1', TT_SIZE_MB: '4', LOG_LEVEL: 'silent', CACHE_ENTRIES: '0', ...env });
  const pool = new SearchPool({
    threads: config.workers,
    maxQueue: config.maxQueue,
    ttSizeMb: config.ttSizeMb,
    fallbackThread: options.fallbackThread ?? false,
  });
  await pool.warmUp();
  const readiness = new Readiness('ready');
  const app = await buildApp({ config, pool, readiness });
  await app.ready();
  return { app, pool, config, readiness };
}

export async function closeTestApp(t: TestApp): Promise<void> {
  await t.app.close();
  await t.pool.close();
}

/** Tic-tac-toe states used across the HTTP tests. */
export const EMPTY_3X3 = { m: 3, n: 3, k: 3, board: ['...', '...', '...'], turn: 'X' };
export const X_WON_3X3 = { m: 3, n: 3, k: 3, board: ['XXX', 'OO.', '...'], turn: 'O' };
