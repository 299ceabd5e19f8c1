/**
 * Where a lost gomoku game turned by a judge's evaluation (tools/gomoku-judge.ts): the turn rule on given values, and
 * Kibitz's own brain judging a hand-made game whose turn is known.
 *
 * 20x20 freestyle, moves as [column, row]. Black's opening stones 9,9 and 10,9 (white's in a corner); white, the player
 * examined, answers in the corner twice while black makes an open three (9-11 on row 9) and then an open four; white
 * blocks one end, black makes five. White's second move ignores the open three: after it black makes an open four,
 * which wins (a win the judge proves), while before it white could still block. So the turn is white's move 2.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type JudgedGame, judgeLostGames, judgedTurn, pairsLostTwice, playerValues, reportJudged } from '../../tools/gomoku-judge.js';
import type { GameRecord } from '../../tools/gomoku-fit.js';
import { KIBITZ_BRAIN } from '../../tools/pbrain-match.js';

const MOVES: [number, number][] = [
  [9, 9], // black (opening)
  [0, 0], // white (opening)
  [10, 9], // black (opening)
  [0, 2], // white's move 1
  [11, 9], // black: an open three
  [0, 4], // white's move 2: the turn
  [12, 9], // black: an open four
  [8, 9], // white's move 3 blocks one end
  [13, 9], // black: five
];
const GAME: GameRecord = {
  size: 20,
  rule: 0,
  moves: MOVES,
  opening: MOVES.slice(0, 3),
  winner: 0,
  seed: 7,
  game: 2,
  black: 'A (an engine)',
  white: 'B (node dist/src/adapters/pbrain.js)',
};

t.test('the turn rule: values for the side to move, read from the player side', async (t) => {
  // White (side 1) from ply 3: white to move at plies 3, 5, 7.
  const game = (values: (number | null)[]): JudgedGame => ({ seed: 1, game: 1, side: 1, from: 3, values });
  t.same(playerValues(game([-100, 50, 20, -30])), [-100, -50, 20, 30], "the opponent's values negated");
  t.same(judgedTurn(game([-100, 50, -200, 900, -1e6]), 400, 800), { kind: 'move', moveNumber: 2, before: -200, after: -900 });
  t.same(judgedTurn(game([-100, 1e6, -1e6]), 400, 800), { kind: 'move', moveNumber: 1, before: -100, after: -1e6 }, 'a found win');
  t.same(judgedTurn(game([-500, 900, -1e6]), 400, 800), { kind: 'opening' }, 'lost from the first position');
  t.same(judgedTurn(game([-100, 500, -600, 700, -1e6]), 400, 800), { kind: 'decline' }, 'no move from above -400 to -800');
  t.same(judgedTurn(game([-100, null, -300, 900]), 400, 800), { kind: 'move', moveNumber: 2, before: -300, after: -900 }, 'a gap skips a move');
  t.same(judgedTurn(game([null, 900]), 400, 800), { kind: 'decline' }, 'no first value');
  const lines = reportJudged([game([-100, 50, -200, 900, -1e6]), game([-500, 900]), game([-100, 300]), game([-300, 1e6])], 400, 800);
  t.equal(lines[0], "seed 1 game 1 (white): the player's move 2: -200 -> -900");
  t.equal(lines[1], 'seed 1 game 1 (white): lost from the opening');
  t.equal(lines[2], 'seed 1 game 1 (white): no single move');
  t.equal(lines[3], "seed 1 game 1 (white): the player's move 1: -300 -> lost");
  t.match(lines[5], /^4 lost games judged; the turn at the player's move 1:1 2:1 3-5:0 6-10:0 11\+:0; judged lost from the opening 1; no single move 1 /);
  t.equal(
    lines[6],
    "the opening as judged (its first position, the player's view): level (within ±150) 2 (in pairs lost twice 0), for the player 0 (0), " +
      'against the player 2 (0)',
  );
  // Games 1-2 are a pair: the player (white in game 1, black in game 2) lost both; of games 3-4 only game 3.
  const games: GameRecord[] = [1, 2, 3, 4].map((g) => ({
    size: 20, rule: 0, moves: [], seed: 9, game: g, winner: [0, 1, 0, 0][g - 1],
    black: g % 2 === 1 ? 'A (x)' : 'B (pbrain.js)', white: g % 2 === 1 ? 'B (pbrain.js)' : 'A (x)',
  }));
  const twice = pairsLostTwice(games, 'pbrain.js');
  t.same([...twice], ['9/0']);
  const level = { seed: 9, game: 2, side: 0, from: 3, values: [-100, 50] };
  t.match(reportJudged([level], 400, 800, 150, twice)[3], /level \(within ±150\) 1 \(in pairs lost twice 1\), for the player 0/);
  t.match(reportJudged([{ ...level, values: [-200] }], 400, 800, 150, twice)[3], /for the player 1 \(1\)/);
});

t.test("Kibitz's brain judges a hand-made game: the turn is white's second move", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-judge-'));
  try {
    const out = join(dir, 'judged.jsonl');
    const options = { command: `node ${KIBITZ_BRAIN}`, turnMs: 300, player: 'pbrain.js', out, part: 0, parts: 1 };
    const printed: string[] = [];
    const won: GameRecord = { ...GAME, game: 3, winner: 1 };
    const judged = await judgeLostGames([GAME, won], options, (line) => printed.push(line));
    t.equal(judged.length, 1, 'only the lost game');
    t.same(printed, ['judged seed 7 game 2: 5 positions'], 'stopped at white to move against the open four: lost');
    const values = judged[0].values;
    t.equal(values[3], 1e6, 'black to move with an open three: a proven win');
    t.equal(values[4], -1e6, 'white to move against an open four: a proven loss');
    t.ok(values[2] !== null && values[2] > -1e6, 'white to move against the open three: not lost yet');
    t.same(judgedTurn(judged[0], 1e5, 1e6), { kind: 'move', moveNumber: 2, before: values[2], after: -1e6 });
    // Resumable: a second run judges nothing more and returns what the file holds.
    const again = await judgeLostGames([GAME], options, (line) => printed.push(line));
    t.same(again, judged);
    t.equal(printed.length, 1);
    t.equal(readFileSync(out, 'utf8').trim().split('\n').length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
