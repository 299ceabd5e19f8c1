import t from 'tap';
import { GAME_IDS } from '../../../src/games/types.js';
import { ERROR_CATALOGUE } from '../../../src/http/errors.js';
import { EMPTY_3X3, X_WON_3X3, closeTestApp, testApp } from '../../support/app.js';

const ctx = await testApp();
t.teardown(() => closeTestApp(ctx));
const { app } = ctx;

const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object });

t.test('health and readiness', async (t) => {
  const health = await app.inject('/health');
  t.equal(health.statusCode, 200);
  t.same(health.json(), { status: 'ok' });
  const ready = await app.inject('/ready');
  t.equal(ready.statusCode, 200);
  t.match(ready.json(), { ready: true, workers: 1 });
});

t.test('the catalogue lists every game with formats, options and a usable example', async (t) => {
  const res = await app.inject('/v1/games');
  t.equal(res.statusCode, 200);
  const games = res.json() as Array<{
    id: string;
    exampleState: unknown;
    rules: string;
    stateSchema: unknown;
    searchOptions: { properties: Record<string, unknown> };
  }>;
  t.same(games.map((g) => g.id), [...GAME_IDS]);
  for (const game of games) {
    t.ok(game.rules.length > 40, `${game.id}: rules paragraph`);
    t.ok(game.searchOptions.properties.timeBudgetMs, `${game.id}: search options documented`);
    const legal = await post(`/v1/games/${game.id}/legal-moves`, { state: game.exampleState });
    t.equal(legal.statusCode, 200, `${game.id}: the example state is accepted`);
    t.ok((legal.json().moves as unknown[]).length > 0, `${game.id}: the example has moves`);
  }
  const one = await app.inject('/v1/games/othello');
  t.equal(one.json().id, 'othello');
});

t.test('unknown games and routes are 404 with their own codes', async (t) => {
  for (const [method, url] of [
    ['GET', '/v1/games/chess'],
    ['GET', '/v1/games/chess/initial-state'],
    ['POST', '/v1/games/chess/best-move'],
    ['POST', '/v1/games/chess/legal-moves'],
    ['POST', '/v1/games/chess/play'],
  ] as const) {
    const res = await app.inject({ method, url, payload: method === 'POST' ? { state: {} } : undefined });
    t.equal(res.statusCode, 404, url);
    t.equal(res.json().code, 'GAME_NOT_FOUND', url);
    t.match(res.json().message, /chess/);
  }
  const missing = await app.inject('/v2/nothing');
  t.equal(missing.statusCode, 404);
  t.equal(missing.json().code, 'NOT_FOUND');
});

t.test('initial state, with query parameters for parameterised games', async (t) => {
  const res = await app.inject('/v1/games/mnk/initial-state?m=3&n=4&k=3');
  t.equal(res.statusCode, 200);
  t.same(res.json(), { m: 3, n: 4, k: 3, board: ['....', '....', '....'], turn: 'X' });
  const bad = await app.inject('/v1/games/mnk/initial-state?m=abc');
  t.equal(bad.statusCode, 400);
  t.equal(bad.json().code, 'VALIDATION_ERROR');
  t.match(bad.json().message, /querystring\/m/);
  const unknownParam = await app.inject('/v1/games/mnk/initial-state?colour=red');
  t.equal(unknownParam.statusCode, 400, 'unknown query parameters are rejected');
  const inconsistent = await app.inject('/v1/games/mnk/initial-state?m=3&n=3&k=9');
  t.equal(inconsistent.statusCode, 400);
  t.equal(inconsistent.json().code, 'INVALID_PARAMETERS');
  t.match(inconsistent.json().message, /k/);
  const othello = await app.inject('/v1/games/othello/initial-state');
  t.equal(othello.json().turn, 'B');
});

t.test('legal moves and status', async (t) => {
  const res = await post('/v1/games/mnk/legal-moves', { state: EMPTY_3X3 });
  t.equal(res.statusCode, 200);
  t.equal(res.json().moves.length, 9);
  t.same(res.json().status, { status: 'ongoing' });
  t.match(res.json().moves[0], { row: Number, col: Number, notation: String });
  const over = await post('/v1/games/mnk/legal-moves', { state: X_WON_3X3 });
  t.same(over.json(), { moves: [], status: { status: 'win', winner: 'X' } });
});

t.test('play a move, by object or notation', async (t) => {
  const res = await post('/v1/games/mnk/play', { state: EMPTY_3X3, move: { row: 1, col: 1 } });
  t.equal(res.statusCode, 200);
  t.same(res.json().state.board, ['...', '.X.', '...']);
  t.equal(res.json().state.turn, 'O');
  const notation = res.json().state;
  const second = await post('/v1/games/mnk/play', { state: notation, move: '0,0' });
  t.equal(second.statusCode, 200);
  t.same(second.json().state.board, ['O..', '.X.', '...']);
  const win = await post('/v1/games/mnk/play', { state: { m: 3, n: 3, k: 3, board: ['XX.', 'OO.', '...'], turn: 'X' }, move: { row: 0, col: 2 } });
  t.same(win.json().status, { status: 'win', winner: 'X' });
});

t.test('play rejects illegal, malformed and too-late moves with their codes', async (t) => {
  const occupied = await post('/v1/games/mnk/play', { state: { ...EMPTY_3X3, board: ['X..', '...', '...'], turn: 'O' }, move: { row: 0, col: 0 } });
  t.equal(occupied.statusCode, 422);
  t.equal(occupied.json().code, 'ILLEGAL_MOVE');
  t.equal(occupied.json().field, 'body/move');
  const malformed = await post('/v1/games/mnk/play', { state: EMPTY_3X3, move: 'e4' });
  t.equal(malformed.statusCode, 400);
  t.equal(malformed.json().code, 'INVALID_MOVE_NOTATION');
  t.match(malformed.json().message, /body\/move/);
  const offBoard = await post('/v1/games/mnk/play', { state: EMPTY_3X3, move: { row: 5, col: 0 } });
  t.ok([400, 422].includes(offBoard.statusCode), 'off-board move refused');
  t.match(offBoard.json().message, /body\/move/);
  const over = await post('/v1/games/mnk/play', { state: X_WON_3X3, move: { row: 2, col: 2 } });
  t.equal(over.statusCode, 422);
  t.equal(over.json().code, 'GAME_OVER');
});

t.test('schema violations name the field; unknown properties and enum values are refused', async (t) => {
  const cases: Array<[unknown, RegExp]> = [
    [{ state: EMPTY_3X3, colour: 'red' }, /^body\/colour is not an allowed property$/],
    [{ state: { ...EMPTY_3X3, turn: 'Z' } }, /^body\/state\/turn must be one of "X", "O"$/],
    [{ state: { ...EMPTY_3X3, extra: 1 } }, /^body\/state\/extra is not an allowed property$/],
    [{ state: EMPTY_3X3, timeBudgetMs: '100' }, /body\/timeBudgetMs/],
    [{ state: EMPTY_3X3, timeBudgetMs: 10_000_000 }, /body\/timeBudgetMs/],
    [{ state: EMPTY_3X3, maxDepth: 0 }, /body\/maxDepth/],
    [{ state: EMPTY_3X3, seed: -1 }, /body\/seed/],
    [{}, /body/],
  ];
  for (const [payload, field] of cases) {
    const res = await post('/v1/games/mnk/best-move', payload);
    t.equal(res.statusCode, 400, JSON.stringify(payload).slice(0, 60));
    t.equal(res.json().code, 'VALIDATION_ERROR');
    t.match(res.json().message, field);
    t.type(res.json().field, 'string');
  }
});

t.test('bodies that are not JSON objects we accept', async (t) => {
  const notJson = await app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', headers: { 'content-type': 'application/json' }, payload: '{"state":' });
  t.equal(notJson.statusCode, 400);
  t.equal(notJson.json().code, 'INVALID_JSON');
  const proto = await app.inject({
    method: 'POST',
    url: '/v1/games/mnk/legal-moves',
    headers: { 'content-type': 'application/json' },
    payload: '{"state":{"m":3,"n":3,"k":3,"board":["...","...","..."],"turn":"X"},"__proto__":{"polluted":true}}',
  });
  t.equal(proto.statusCode, 400, 'prototype keys are refused');
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  const text = await app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
  t.equal(text.statusCode, 415);
  t.equal(text.json().code, 'UNSUPPORTED_MEDIA_TYPE');
  const huge = await app.inject({
    method: 'POST',
    url: '/v1/games/mnk/best-move',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ state: EMPTY_3X3, pad: 'x'.repeat(ctx.config.bodyLimitBytes) }),
  });
  t.equal(huge.statusCode, 413);
  t.equal(huge.json().code, 'BODY_TOO_LARGE');
});

t.test('positions that break the rules are 422 with the field', async (t) => {
  const tooManyX = await post('/v1/games/mnk/best-move', { state: { ...EMPTY_3X3, board: ['XX.', '...', '...'], turn: 'O' } });
  t.equal(tooManyX.statusCode, 422);
  t.equal(tooManyX.json().code, 'INVALID_POSITION');
  t.match(tooManyX.json().field, /body\/state/);
  const shortRow = await post('/v1/games/mnk/legal-moves', { state: { ...EMPTY_3X3, board: ['...', '..', '...'] } });
  t.equal(shortRow.statusCode, 422);
  t.equal(shortRow.json().field, 'body/state/board/1');
  const over = await post('/v1/games/mnk/best-move', { state: X_WON_3X3 });
  t.equal(over.statusCode, 422);
  t.equal(over.json().code, 'GAME_OVER');
});

t.test('best-move proves tic-tac-toe a draw and 4x3 K=3 a win for X', async (t) => {
  // Values: known-values.json (3,3,3 draw; 4,3,3 P1 win), from the reference set shared/reference/mnk, verified there by solver.
  const draw = await post('/v1/games/mnk/best-move', { state: EMPTY_3X3, timeBudgetMs: 1000 });
  t.equal(draw.statusCode, 200);
  const d = draw.json();
  t.equal(d.evaluation.outcome, 'draw');
  t.equal(d.evaluation.score, 0);
  t.equal(d.stopReason, 'proven');
  t.ok(d.elapsedMs <= 1000 + 250, 'within the budget (with slack)');
  const win = await post('/v1/games/mnk/best-move', { state: { m: 4, n: 3, k: 3, board: ['...', '...', '...', '...'], turn: 'X' }, timeBudgetMs: 1000 });
  const w = win.json();
  t.equal(w.evaluation.outcome, 'win');
  t.type(w.evaluation.plies, 'number');
  t.ok(w.evaluation.plies >= 5, 'X needs at least 5 plies to make three');
  t.equal(w.pv[0].notation, w.move.notation, 'the pv starts with the move');
});

t.test('fixed depth and seed give the same answer twice', async (t) => {
  const state = {
    m: 9,
    n: 9,
    k: 5,
    board: ['.........', '.........', '.........', '...XO....', '....X....', '...O.....', '.........', '.........', '.........'],
    turn: 'X',
  };
  const body = { state, maxDepth: 4, seed: 7, timeBudgetMs: 20_000 };
  const a = (await post('/v1/games/mnk/best-move', body)).json();
  const b = (await post('/v1/games/mnk/best-move', body)).json();
  t.same([a.move, a.evaluation, a.pv, a.nodes, a.depth], [b.move, b.evaluation, b.pv, b.nodes, b.depth]);
});

t.test('every error code in responses is in the catalogue', async (t) => {
  const res = await post('/v1/games/mnk/best-move', { state: { ...EMPTY_3X3, turn: 'Q' } });
  t.ok(Object.hasOwn(ERROR_CATALOGUE, res.json().code));
  t.equal(res.json().statusCode, ERROR_CATALOGUE[res.json().code as keyof typeof ERROR_CATALOGUE].status);
  t.type(res.json().requestId, 'string');
});
