import t from 'tap';
import { GAME_IDS } from '../../../src/games/types.js';
import { TOP_LEVEL, levelSetting } from '../../../src/levels/levels.js';
import { closeTestApp, testApp } from '../../support/app.js';

const ctx = await testApp();
t.teardown(() => closeTestApp(ctx));
const { app } = ctx;
const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object });

const GOMOKU = {
  m: 9,
  n: 9,
  k: 5,
  board: ['.........', '.........', '.........', '...XO....', '....X....', '...O.....', '.........', '.........', '.........'],
  turn: 'X',
};

t.test('a level outside 1..top, or not an integer, is a 400 naming body/level; analyse has no level', async (t) => {
  for (const level of [0, TOP_LEVEL + 1, 2.5, '3', -1]) {
    const res = await post('/v1/games/mnk/best-move', { state: GOMOKU, level });
    t.equal(res.statusCode, 400, `level ${JSON.stringify(level)}`);
    t.equal(res.json().code, 'VALIDATION_ERROR');
    t.match(res.json().message, /body\/level/);
    t.equal(res.json().field, 'body/level');
  }
  const analyse = await post('/v1/games/mnk/analyse', { state: GOMOKU, level: 3 });
  t.equal(analyse.statusCode, 400);
  t.match(analyse.json().message, /body\/level/);
});

t.test('the top level is the default: the same reproducible answer with and without it', async (t) => {
  const body = { state: GOMOKU, maxDepth: 3, seed: 5, timeBudgetMs: 20_000 };
  const plain = (await post('/v1/games/mnk/best-move', body)).json();
  const top = (await post('/v1/games/mnk/best-move', { ...body, level: TOP_LEVEL })).json();
  t.same([top.move, top.evaluation, top.pv, top.nodes, top.depth], [plain.move, plain.evaluation, plain.pv, plain.nodes, plain.depth]);
});

t.test('below the top: the same seed gives the same move, within the level node limit', async (t) => {
  for (const game of ['mnk', 'othello'] as const) {
    const state = game === 'mnk' ? GOMOKU : (await app.inject(`/v1/games/${game}/initial-state`)).json();
    for (const level of [1, 4]) {
      const body = { state, level, seed: 11, timeBudgetMs: 20_000 };
      const a = await post(`/v1/games/${game}/best-move`, body);
      const b = await post(`/v1/games/${game}/best-move`, body);
      t.equal(a.statusCode, 200);
      t.same([a.json().move, a.json().pv, a.json().nodes], [b.json().move, b.json().pv, b.json().nodes], `${game} level ${level}`);
      t.equal(a.json().cached, false);
      // A one-ply first iteration may pass a tiny limit (it always completes); beyond it, the node check's batch of 128.
      const limit = Math.max(levelSetting(game, level)!.nodes, 128) + 128;
      t.ok(a.json().nodes <= Math.max(limit, 400), `${game} level ${level}: ${a.json().nodes} nodes`);
    }
  }
});

t.test('the catalogue gives the level range and the measured table', async (t) => {
  const games = (await app.inject('/v1/games')).json() as Array<{
    id: string;
    levels: { min: number; max: number; measured?: { elo: { level: number; elo: number; error: number }[]; command: string } };
    searchOptions: { properties: Record<string, { minimum?: number; maximum?: number }> };
  }>;
  for (const game of games) {
    t.same([game.levels.min, game.levels.max], [1, TOP_LEVEL], game.id);
    t.same([game.searchOptions.properties.level.minimum, game.searchOptions.properties.level.maximum], [1, TOP_LEVEL]);
    if (game.levels.measured !== undefined) {
      t.same(game.levels.measured.elo.map((row) => row.level), Array.from({ length: TOP_LEVEL }, (_, i) => i + 1), `${game.id}: every level`);
      t.match(game.levels.measured.command, /levels-calibrate -- --game /);
    }
  }
  t.equal(games.length, GAME_IDS.length);
});
