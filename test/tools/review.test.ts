/**
 * npm run review is a thin client of POST /v1/games/{game}/review (the service started in-process).
 * The reference is tic-tac-toe theory (3x3, K=3: a draw; test/fixtures/mnk/known-values.json): after X
 * takes the centre a corner reply holds the draw; when X then threatens a line, the one block holds
 * it and any other move loses to X completing the line at once. Notation "row,col".
 */
import t from 'tap';
import type { GameRecord } from '../../tools/arena.js';
import { localClient, reviewRecords } from '../../tools/review.js';

const params = { m: 3, n: 3, k: 3 };
// X: 1,1 (centre); O: 2,2 (corner, a draw); X: 0,2 (threatens 2,0 on the anti-diagonal);
// O: 1,0 (does not block: lost); X: 2,0 wins.
const record: GameRecord = { pair: 1, first: 'default', second: 'random', opening: [], moves: ['1,1', '2,2', '0,2', '1,0', '2,0'], result: 1 };

const local = await localClient();
t.teardown(() => local.close());

t.test('review: the losing move is the one blunder', async (t) => {
  // A depth limit and ample time: the same lines on a loaded machine (a 200 ms budget alone reached depth 2 once in CI).
  const options = { game: 'mnk', params, player: 'random', lost: false, ms: 2000, depth: 9 };
  const loser = await reviewRecords(local.client, [record], options);
  t.same(loser, [
    'pair 1: default - random, random scored 0; opening ',
    '  ply 1 2,2 (prefers 0,0): 0.500 -> 0.500, drop 0.000, best, depth 8',
    '  ply 3 1,0 (prefers 2,0): 0.500 -> 0.000, drop 0.500, blunder, depth 6',
  ]);
  const winner = await reviewRecords(local.client, [record], { ...options, player: 'default' });
  t.same(winner.slice(1).map((line) => line.split(', ').slice(-2, -1)[0]), ['best', 'best', 'best'], "X's three moves lose nothing");
  t.same(await reviewRecords(local.client, [record], { ...options, player: 'default', lost: true }), [], '--lost skips a won game');
});

t.test('review: a record that does not replay is an error naming the game and the ply', async (t) => {
  const options = { game: 'mnk', params, player: 'random', lost: false, ms: 50, depth: 1 };
  await t.rejects(reviewRecords(local.client, [{ ...record, moves: ['1,1', '1,1'] }], options), /game 1: 422 ILLEGAL_MOVE body\/moves\/1: /);
  // Tablut's notation parses any from-to pair; the king on the throne cannot move at the start.
  await t.rejects(
    reviewRecords(local.client, [{ ...record, moves: ['e5-e1'] }], { ...options, game: 'tablut', params: {}, player: 'default' }),
    /game 1: 422 ILLEGAL_MOVE body\/moves\/0: e5-e1 is not legal/,
  );
});

