/**
 * npm run review: re-searching recorded games finds the losing moves. The reference is tic-tac-toe
 * theory (3x3, K=3), checked by an exact depth-9 search: after X takes the centre a corner reply
 * holds the draw; when X then threatens a line, the one block holds it and any other move loses
 * to X completing the line at once. Notation "row,col".
 */
import t from 'tap';
import type { GameRecord } from '../../tools/arena.js';
import { makeAnalyst, reviewGame, type Analyst } from '../../tools/review.js';
import { BLACK, EMPTY, KING, SIDE_BLACK, SQUARES, THRONE, THRONE_SQUARE, WHITE, parseSquare } from '../../src/games/tablut/board.js';
import { STATUS_ONGOING, TablutPosition } from '../../src/games/tablut/position.js';
import { findGame } from '../../src/games/registry.js';
import { WIN_SCORE } from '../../src/search/score.js';

const params = { m: 3, n: 3, k: 3 };
// X: 1,1 (centre); O: 2,2 (corner, a draw); X: 0,2 (threatens 2,0 on the anti-diagonal);
// O: 1,0 (does not block: lost); X: 2,0 wins.
const record: GameRecord = { pair: 1, first: 'default', second: 'random', opening: [], moves: ['1,1', '2,2', '0,2', '1,0', '2,0'], result: 1 };

t.test('review: the losing move shows the drop from a draw to a loss', async (t) => {
  const mnk = findGame('mnk')!;
  const analyst = makeAnalyst(mnk, 'default', { depth: 9 });
  const loser = reviewGame(mnk, params, record, 'random', analyst);
  t.same(
    loser.map((m) => [m.ply, m.played, m.preferred === m.played || m.bestScore === m.playedScore, m.bestScore, m.playedScore]),
    [
      [1, '2,2', true, 0, 0],
      [3, '1,0', false, 0, -(WIN_SCORE - 1)],
    ],
    "O's corner keeps the draw; 1,0 instead of the block at 2,0 loses at once",
  );
  t.equal(loser[1].preferred, '2,0', 'the block');

  const winner = reviewGame(mnk, params, record, 'default', analyst);
  t.same(winner.map((m) => m.ply), [0, 2, 4], "X's three moves");
  t.same(winner.map((m) => m.bestScore - m.playedScore), [0, 0, 0], 'no move of X lost anything');
  t.equal(winner[2].playedScore, WIN_SCORE - 1, 'the winning move is scored by its result');
});

t.test('review: a record that does not replay is an error naming the move', async (t) => {
  const mnk = findGame('mnk')!;
  const analyst = makeAnalyst(mnk, 'default', { depth: 1 });
  t.throws(() => reviewGame(mnk, params, { ...record, moves: ['1,1', '1,1'] }, 'random', analyst), /game 1: ply 1 1,1: /);
  t.throws(() => reviewGame(mnk, params, { ...record, moves: ['1,1', '9,9'] }, 'random', analyst), /game 1: ply 1 9,9/);
  // Tablut's notation parses any from-to pair; the king on the throne cannot move at the start.
  const tablut = findGame('tablut')!;
  t.throws(
    () => reviewGame(tablut, {}, { ...record, moves: ['e5-e1'] }, 'default', makeAnalyst(tablut, 'default', { depth: 1 })),
    /game 1: ply 0 e5-e1 is not legal there/,
  );
});

t.test('review: a forced move loses nothing', async (t) => {
  // The analyst marks a search that had one move to consider (Tablut: Black must block the king's
  // one open line). King g3 walled by f3 h3 g4 has one open line, down to g1 (RULES.md: any edge
  // square wins; test/fixtures/tablut); Black's only pawn i1 can block it only by i1-g1.
  const tablut = findGame('tablut')!;
  const cells = new Uint8Array(SQUARES).fill(EMPTY);
  cells[THRONE_SQUARE] = THRONE;
  for (const [name, cell] of Object.entries({ g3: KING, f3: WHITE, h3: WHITE, g4: WHITE, i1: BLACK })) cells[parseSquare(name)] = cell;
  const pos = new TablutPosition(1);
  pos.load(cells, SIDE_BLACK, STATUS_ONGOING);
  const found = makeAnalyst(tablut, 'default', { depth: 6 }).search(pos);
  t.same([found.move, found.forced], [parseSquare('i1') * SQUARES + parseSquare('g1'), true], 'the one block, forced');

  // reviewGame gives a forced move the played move's score, whatever the analyst's own score.
  const mnk = findGame('mnk')!;
  const exact = makeAnalyst(mnk, 'default', { depth: 9 });
  let calls = 0;
  const forcedFirst: Analyst = {
    search(p) {
      calls++;
      return calls === 1 ? { ...exact.search(p), score: 12_345, forced: true } : exact.search(p);
    },
  };
  const [first] = reviewGame(mnk, params, record, 'default', forcedFirst);
  t.same([first.ply, first.forced, first.bestScore, first.playedScore], [0, true, 0, 0], 'X 1,1 marked forced, no drop');
});
