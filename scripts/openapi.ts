/** npm run openapi: regenerates openapi/openapi.json from the route schemas. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCliIfMain } from '../src/core/cli.js';

const spec = {
  name: 'openapi',
  usage: `npm run openapi

Regenerates openapi/openapi.json from the route schemas (a test fails when the committed file is stale).

  --help  this text`,
  options: {},
} as const;

runCliIfMain(import.meta.url, spec, async () => {
  // Loaded after the command line is parsed: --help and a bad option answer without loading fastify and the routes.
  const { generateOpenApi } = await import('../src/http/openapi.js');
  const target = fileURLToPath(new URL('../../openapi/openapi.json', import.meta.url));
  writeFileSync(target, await generateOpenApi());
  console.log(`wrote ${target}`);
});
