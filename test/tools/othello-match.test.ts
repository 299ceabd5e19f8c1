/**
 * othello-match's record summaries: the paired, game-by-game difference of two runs.
 */
import t from 'tap';
import { type MatchGame, formatPaired, pairedDifference, summarise } from '../../tools/othello-match.js';

function game(opening: number, kibitz: 'B' | 'W', points: number, discs: number): MatchGame {
  return {
    opening,
    kibitz,
    moves: [],
    points,
    discs,
    kibitzMoves: 30,
    kibitzSeconds: 3,
    engineMoves: 30,
    engineSeconds: 0.3,
    engineOwnSeconds: 0.2,
  } as MatchGame;
}

t.test('pairs games by opening and colour, ignoring games only one run has', async (t) => {
  const first = [game(0, 'B', 0, -10), game(0, 'W', 1, 4), game(1, 'B', 0.5, 0), game(2, 'B', 1, 8)];
  const second = [game(0, 'W', 1, 6), game(0, 'B', 1, 2), game(1, 'B', 0, -4), game(3, 'W', 1, 20)];
  const d = pairedDifference(first, second);
  t.equal(d.games, 3);
  // Differences: (0,B) +1 / +12, (0,W) 0 / +2, (1,B) -0.5 / -4.
  t.equal(d.points, 0.5 / 3);
  t.equal(d.discs, 10 / 3);
  const sd = Math.sqrt(([1, 0, -0.5].reduce((a, x) => a + (x - 0.5 / 3) ** 2, 0) / 2) / 3);
  t.equal(d.pointsError, 1.96 * sd);
  t.equal(formatPaired(d).split(':')[0], 'paired over 3 games (second - first)');
  t.match(formatPaired(d), /\+16\.7 ± \d+\.\d points, \+3\.3 ± \d+\.\d discs/);
});

t.test('no common game: zero games, no error bar', async (t) => {
  const d = pairedDifference([game(0, 'B', 1, 2)], [game(0, 'W', 0, -2)]);
  t.same(d, { games: 0, points: 0, pointsError: 0, discs: 0, discsError: 0 });
});

t.test('summarise counts results, sides and time per move', async (t) => {
  const s = summarise([game(0, 'B', 1, 10), game(0, 'W', 0.5, 0), game(1, 'B', 0, -6)]);
  t.same([s.wins, s.draws, s.losses, s.games], [1, 1, 1, 3]);
  t.equal(s.score, 0.5);
  t.same(s.asBlack, { points: 1, games: 2 });
  t.equal(s.kibitzMsPerMove, 100);
  t.ok(Math.abs(s.engineMsPerMove - 10) < 1e-9, 'engine ms per move');
});
