/**
 * The playground's static files (dist/web, written by `npm run build`): served at `/` with a
 * same-origin content security policy, hidden from the OpenAPI document, and off with
 * EXPOSE_PLAYGROUND=false. The page itself is tested in Chromium by test/browser/playground.test.ts.
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config.js';
import { buildApp } from '../../../src/http/app.js';
import type { SearchRunner } from '../../../src/http/types.js';
import { PLAYGROUND_CSP, playgroundDir, playgroundRoutes } from '../../../src/http/playground.js';
import Fastify from 'fastify';

const idle: SearchRunner = {
  submit: () => Promise.reject(new Error('no searches here')),
  stats: () => ({
    threads: 0, running: 0, queued: 0, maxQueue: 0, completed: 0, fallbacks: 0,
    cancelled: 0, rejected: 0, failed: 0, overruns: 0, terminated: 0, utilization: 0,
  }),
  saturated: () => false,
};

async function app(env: Record<string, string> = {}) {
  const instance = await buildApp({ config: loadConfig({ WORKERS: '1', LOG_LEVEL: 'silent', ...env }), pool: idle });
  await instance.ready();
  return instance;
}

t.test('the build wrote the page where the server looks for it', async (t) => {
  for (const file of ['index.html', 'app.js', 'style.css']) t.ok(existsSync(join(playgroundDir(), file)), `dist/web/${file}`);
});

t.test('GET / serves the page with headers for a static page', async (t) => {
  const server = await app();
  t.teardown(() => server.close());
  const page = await server.inject({ method: 'GET', url: '/' });
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /^text\/html/);
  t.equal(page.headers['content-security-policy'], PLAYGROUND_CSP);
  t.match(PLAYGROUND_CSP, /default-src 'self'/);
  t.notMatch(PLAYGROUND_CSP, /unsafe-inline|unsafe-eval|https?:/, 'nothing but the own origin');
  t.equal(page.headers['x-content-type-options'], 'nosniff');
  t.equal(page.headers['x-frame-options'], 'DENY');
  t.match(page.body, /<script type="module" src="app\.js"><\/script>/);
  t.notMatch(page.body, /<script>|<style>| style="|https?:\/\//, 'no inline script or style, no external resource');
  const script = await server.inject({ method: 'GET', url: '/app.js' });
  t.equal(script.statusCode, 200);
  t.match(script.headers['content-type'], /javascript/);
  t.equal(script.headers['content-security-policy'], PLAYGROUND_CSP);
  t.notMatch(script.body, /https?:\/\/(?!www\.w3\.org\/2000\/svg)/, 'the bundle fetches nothing from another origin');
  const css = await server.inject({ method: 'GET', url: '/style.css' });
  t.match(css.headers['content-type'], /text\/css/);
});

t.test('the API keeps its own 404 and headers; the page is not in the OpenAPI document', async (t) => {
  const server = await app();
  t.teardown(() => server.close());
  const missing = await server.inject({ method: 'GET', url: '/no-such-file.js' });
  t.equal(missing.statusCode, 404);
  t.equal(missing.json().code, 'NOT_FOUND');
  const api = await server.inject({ method: 'GET', url: '/v1/games' });
  t.equal(api.headers['content-security-policy'], undefined, 'API responses are not given the page headers');
  const paths = Object.keys((server.swagger() as { paths: Record<string, unknown> }).paths);
  t.notOk(paths.some((p) => p === '/' || p.includes('app.js') || p.includes('index.html') || p.includes('*')), paths.join(' '));
});

t.test('EXPOSE_PLAYGROUND=false turns the page off', async (t) => {
  t.equal(loadConfig({}).exposePlayground, true, 'on by default');
  t.throws(() => loadConfig({ EXPOSE_PLAYGROUND: 'maybe' }), /EXPOSE_PLAYGROUND/);
  const server = await app({ EXPOSE_PLAYGROUND: 'false' });
  t.teardown(() => server.close());
  const page = await server.inject({ method: 'GET', url: '/' });
  t.equal(page.statusCode, 404);
  t.equal(page.json().code, 'NOT_FOUND');
});

t.test('a missing build leaves / unserved instead of failing the start', async (t) => {
  const server = Fastify();
  await server.register(playgroundRoutes, { root: join(playgroundDir(), 'no-such-dir') });
  t.teardown(() => server.close());
  t.equal((await server.inject({ method: 'GET', url: '/' })).statusCode, 404);
});
