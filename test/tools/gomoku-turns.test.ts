/**
 * Where a lost gomoku game turned (tools/gomoku-turns.ts), on a hand-made game whose turn is known.
 *
 * 15x15 freestyle, moves as [column, row]. White builds the split twos of test/games/mnk/vct.ts (row 7: 7,8 and
 * 7,10; column 7: 4,7 and 5,7); black, the player examined, plays 6,9 and 5,8 (which close the diagonal through
 * 4,7 and 7,10) and then a far corner. Only with white's fourth stone does 7,7 become a double-three point: white
 * 7,7 makes two open split threes, black blocks one, the other becomes an open four, five: a VCT of 3 own moves,
 * which is how the game goes on. So the turn is black's third move after the opening (ply 9), and before it white
 * already had that VCT against a pass, with no open three on the board; black on the crossing cell 7,7 holds
 * (the root defence test of vct.ts keeps it), and black has no three, hence no four to play.
 */
import t from 'tap';
import { examineReplies, findTurn, reportTurns, sideOf } from '../../tools/gomoku-turns.js';
import type { GameRecord } from '../../tools/gomoku-fit.js';

const rc = (row: number, col: number): [number, number] => [col, row];
const MOVES: [number, number][] = [
  rc(0, 14), // black (opening)
  rc(7, 8), // white (opening)
  rc(14, 0), // black (opening)
  rc(7, 10), // white
  rc(6, 9), // black's move 1
  rc(4, 7), // white
  rc(5, 8), // black's move 2
  rc(5, 7), // white: 7,7 is now a double-three point
  rc(14, 14), // black's move 3: the turn
  rc(7, 7), // white: two open split threes
  rc(7, 9), // black blocks the row
  rc(6, 7), // white: open four on column 7 (rows 4-7)
  rc(3, 7), // black blocks one end
  rc(8, 7), // white: five (rows 4-8)
];
const GAME: GameRecord = {
  size: 15,
  rule: 0,
  moves: MOVES,
  opening: MOVES.slice(0, 3),
  winner: 1,
  black: 'A (node dist/src/adapters/pbrain.js)',
  white: 'B (an engine)',
};

t.test('sideOf: the side whose name contains the player', async (t) => {
  t.equal(sideOf(GAME, 'pbrain.js'), 0);
  t.equal(sideOf(GAME, 'engine'), 1);
  t.equal(sideOf(GAME, 'nobody'), -1);
});

t.test('findTurn: the first of the player\'s moves after which the opponent wins by threats', async (t) => {
  const turn = findTurn(GAME, 0, 300_000);
  t.ok(turn !== null);
  t.same([turn!.ply, turn!.moveNumber, turn!.length], [8, 3, 3], 'black\'s third move (ply 9); white\'s VCT of 3 own moves');
  t.equal(findTurn(GAME, 1, 300_000), null, 'black never wins by threats after a white move');
});

t.test('examineReplies: the threat before the turn and the replies that hold', async (t) => {
  const r = examineReplies(GAME, 8, 100_000);
  t.equal(r.openThree, false, 'no open three of white on the board');
  t.equal(r.passThreat, 3, 'white\'s VCT against a pass: 7,7, open four, five');
  t.equal(r.fours, 0, 'black has no three, so no four');
  t.ok(r.heldMoves.includes(7 * 15 + 7), 'black on the crossing cell holds');
  t.ok(r.refuted > 0, 'some replies are refuted');
  t.equal(r.refuted + r.heldMoves.length + r.unresolved + r.fours, r.candidates, 'every candidate is counted once');
});

t.test('reportTurns: one line per lost game, then the summary', async (t) => {
  const won: GameRecord = { ...GAME, black: 'B (an engine)', white: 'A (node dist/src/adapters/pbrain.js)' };
  const lines = reportTurns([GAME, won], { player: 'pbrain.js', nodes: 300_000, repliesBy: 5, replyNodes: 100_000 });
  t.match(lines[0], /^game 1: turned at the player's move 3 \(ply 9 of 14\), VCT of 3 in \d+ nodes; before it: a VCT of 3 against a pass/);
  t.ok(lines.includes('1 games lost by pbrain.js; a turn found in 1'), 'the second game was won by the player: not examined');
  t.ok(lines.includes("turn at the player's move (after the opening): 3:1"));
  t.match(lines.at(-1)!, /^turns by move 5: 1; before them an open three 0, a VCT against a pass 1, neither 0; some reply held 1/);
  const late = reportTurns([GAME], { player: 'pbrain.js', nodes: 300_000, repliesBy: 0, replyNodes: 100_000 });
  t.notOk(late[0].includes('replies'), 'no replies examined with --replies-by 0');
});
