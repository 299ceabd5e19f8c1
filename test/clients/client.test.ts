/**
 * The typed client @kibitz/client: its generated schema matches the committed OpenAPI document (run
 * `npm run client` if not), and it talks to a real server on a real port (the example included).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { KibitzError, createKibitzClient, streamAnalysis, type AnalyseProgress, type OkResponse, type RequestBody } from '@kibitz/client';
import { CLIENT_SCHEMA, OPENAPI_DOCUMENT, generateClientSchema } from '../../scripts/client.js';
import { bestMoves } from '../../examples/best-move.js';
import { closeTestApp, testApp } from '../support/app.js';
import { urlFromRoot } from '../support/paths.js';

// scripts/client.ts resolves its paths from dist/scripts when compiled: from the sources, go to the repository root.
const documentPath = urlFromRoot('openapi/openapi.json');
const schemaPath = urlFromRoot('clients/typescript/src/schema.ts');

t.test('the committed client schema is generated from the committed OpenAPI document (run `npm run client` if this fails)', async (t) => {
  t.ok(OPENAPI_DOCUMENT.href.endsWith('openapi/openapi.json') && CLIENT_SCHEMA.href.endsWith('clients/typescript/src/schema.ts'));
  const generated = await generateClientSchema(readFileSync(documentPath, 'utf8'));
  t.equal(readFileSync(schemaPath, 'utf8'), generated);
});

t.test('the client against a real server on a real port', async (t) => {
  const ctx = await testApp();
  t.teardown(() => closeTestApp(ctx));
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  const kibitz = createKibitzClient(`http://127.0.0.1:${port}/`);

  const games = await kibitz.GET('/v1/games');
  t.equal(games.response.status, 200);
  t.same(games.data?.map((g) => g.id).sort(), ['hadron', 'mnk', 'othello', 'tablut']);

  // The example: the best move of every game's initial position.
  const answers = await bestMoves(kibitz, 300);
  t.same(answers.map((a) => a.game), ['mnk', 'othello', 'tablut', 'hadron']);
  for (const a of answers) t.ok(a.move.length > 0 && Number.isFinite(a.score), `${a.game}: ${a.move} (${a.score})`);

  // Typed bodies and answers, including the exactK option of the (M,N,K)-game.
  const body: RequestBody<'/v1/games/mnk/best-move', 'post'> = {
    state: { m: 3, n: 3, k: 3, exactK: true, board: ['XX.', 'OO.', '...'], turn: 'X' },
    maxDepth: 4,
  };
  const win = await kibitz.POST('/v1/games/mnk/best-move', { body });
  const answer: OkResponse<'/v1/games/mnk/best-move', 'post'> | undefined = win.data;
  t.equal(answer?.move.notation, '0,2');
  t.equal(answer?.evaluation.outcome, 'win');

  // Live analysis over Server-Sent Events: typed progress events, then the typed result.
  const progress: AnalyseProgress<'/v1/games/othello/analyse'>[] = [];
  const start = await kibitz.GET('/v1/games/othello/initial-state');
  const streamed = await streamAnalysis(
    `http://127.0.0.1:${port}`,
    '/v1/games/othello/analyse',
    // A generous budget: depth 4 takes milliseconds, but a loaded CI machine once stopped the default 1000 ms at depth 1.
    { state: start.data!, multiPv: 2, maxDepth: 4, timeBudgetMs: 20_000 },
    { onProgress: (p) => progress.push(p) },
  );
  t.ok(progress.length >= 1, `${progress.length} progress events`);
  t.same(progress.map((p) => p.depth), [...progress.map((p) => p.depth)].sort((a, b) => a - b), 'depths grow');
  t.equal(streamed.lines.length, 2, 'two lines in the result');
  t.equal(streamed.depth, 4);
  await t.rejects(
    streamAnalysis(`http://127.0.0.1:${port}`, '/v1/games/othello/analyse', { state: { ...start.data!, turn: 'X' as 'B' } }),
    KibitzError,
    'a refusal before the stream is a KibitzError',
  );

  // Errors come back typed too: a position breaking the rules is a 422 with a stable code.
  const bad = await kibitz.POST('/v1/games/mnk/best-move', { body: { state: { ...body.state, turn: 'O' } } });
  t.equal(bad.response.status, 422);
  t.equal(bad.data, undefined);
  t.match(bad.error, { code: String, message: /turn/ });
});
