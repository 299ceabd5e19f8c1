/**
 * The OpenAPI document, generated from the route schemas of an app built with default settings
 * (so the committed file does not depend on the machine that generated it).
 */
import { loadConfig } from '../config.js';
import { buildApp } from './app.js';
import type { SearchRunner } from './types.js';

const idleRunner: SearchRunner = {
  submit: () => Promise.reject(new Error('no search pool in documentation mode')),
  stats: () => ({
    threads: 0, running: 0, queued: 0, maxQueue: 0, completed: 0, fallbacks: 0,
    cancelled: 0, rejected: 0, failed: 0, overruns: 0, terminated: 0, utilization: 0,
  }),
  saturated: () => false,
};

export async function generateOpenApi(): Promise<string> {
  const app = await buildApp({ config: loadConfig({ WORKERS: '1' }), pool: idleRunner });
  await app.ready();
  const document = app.swagger();
  await app.close();
  return `${JSON.stringify(document, null, 2)}\n`;
}
