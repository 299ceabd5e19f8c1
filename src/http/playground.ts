/**
 * The browser playground: the static files esbuild writes to dist/web (see scripts/build-web.ts),
 * served at `/` with headers for a static page. Hidden from the OpenAPI document; only the files
 * present at start-up get a route, so every other path still answers the API's 404 body.
 */
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import fastifyStatic from '@fastify/static';

/** dist/web from either the compiled module (dist/src/http) or the source one (src/http, under tap). */
export function playgroundDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const compiled = here.includes(`${sep}dist${sep}src${sep}`);
  return compiled ? join(here, '..', '..', 'web') : join(here, '..', '..', 'dist', 'web');
}

/** Only the page's own origin: no inline script or style, no framing, no plugins. */
export const PLAYGROUND_CSP = [
  "default-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const HEADERS: Record<string, string> = {
  'content-security-policy': PLAYGROUND_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export const playgroundRoutes: FastifyPluginAsync<{ root?: string }> = async (app, opts) => {
  const root = opts.root ?? playgroundDir();
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn({ root }, 'playground not built (npm run build); / is not served');
    return;
  }
  // This plugin is encapsulated: the hook sets the headers on the static files only.
  app.addHook('onSend', async (_request, reply) => {
    for (const [name, value] of Object.entries(HEADERS)) void reply.header(name, value);
  });
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    index: 'index.html',
    schemaHide: true,
    cacheControl: true,
    maxAge: 0,
  });
};
