/** npm run openapi: regenerates openapi/openapi.json from the route schemas. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateOpenApi } from '../src/http/openapi.js';

const target = fileURLToPath(new URL('../../openapi/openapi.json', import.meta.url));
writeFileSync(target, await generateOpenApi());
console.log(`wrote ${target}`);
