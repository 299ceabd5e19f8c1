/** npm run openapi: regenerates openapi/openapi.json from the route schemas. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCliIfMain } from '../src/core/cli.js';
import { generateOpenApi } from '../src/http/openapi.js';

const spec = {
  name: 'openapi',
  usage: `npm run openapi

Regenerates openapi/openapi.json from the route schemas (a test fails when the committed file is stale).

  --help  this text`,
  options: {},
} as const;

runCliIfMain(import.meta.url, spec, async () => {
  const target = fileURLToPath(new URL('../../openapi/openapi.json', import.meta.url));
  writeFileSync(target, await generateOpenApi());
  console.log(`wrote ${target}`);
});
