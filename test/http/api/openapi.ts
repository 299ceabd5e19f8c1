import t from 'tap';
import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { generateOpenApi } from '../../../src/http/openapi.js';
import { GAME_IDS } from '../../../src/games/types.js';
import { urlFromRoot } from '../../support/paths.js';

const committedPath = urlFromRoot('openapi/openapi.json');

t.test('the committed OpenAPI document is up to date (run `npm run openapi` if this fails)', async (t) => {
  const generated = await generateOpenApi();
  const committed = readFileSync(committedPath, 'utf8');
  t.equal(committed, generated);
});

t.test('the document is valid OpenAPI 3 and documents every game', async (t) => {
  const document = JSON.parse(readFileSync(committedPath, 'utf8'));
  const result = await validate(structuredClone(document));
  t.ok(result.valid, JSON.stringify(result.errors ?? []).slice(0, 2000));
  t.equal(document.openapi, '3.1.0');
  for (const id of GAME_IDS) {
    for (const action of ['legal-moves', 'play', 'best-move']) {
      const op = document.paths[`/v1/games/${id}/${action}`]?.post;
      t.ok(op, `${id} ${action} documented`);
      const body = op.requestBody.content['application/json'].schema;
      t.ok(body.properties.state.description, `${id} ${action}: state described`);
      t.ok(body.examples ?? body.properties.state.examples, `${id} ${action}: example given`);
    }
    t.ok(document.paths[`/v1/games/${id}/initial-state`]?.get, `${id} initial-state documented`);
  }
  for (const path of ['/health', '/ready', '/v1/games']) t.ok(document.paths[path], `${path} documented`);
  t.notOk(document.paths['/v1/games/{gameId}/best-move'], 'the 404 catch-all is hidden');
});
