/**
 * Converting won positions as Black (issue 42): the squeeze term of the default evaluation (the moves of
 * White's free pawns, once Black leads by squeezeFrom) and the search's preference for the shortest
 * proven win.
 *
 * Sources of the positions: Kibitz's 1062-ply win as Black against tablut.cpp, game 16 of
 * tools/records/tablut-challenge-tablutcpp.jsonl (docs/tablut-strength.md), replayed from the record's
 * moves; only the boards are used here (no repetition record). Rows are written from row 9 down to row
 * 1, columns a..i; '+' marks an empty camp, 'T' the empty throne.
 */
import t from 'tap';
import { BLACK, EMPTY, KING, SIDE_BLACK, SQUARES, THRONE, WHITE, moveName } from '../../../src/games/tablut/board.js';
import { DEFAULT_WEIGHTS, DefaultEvaluator } from '../../../src/games/tablut/evaluation.js';
import { countPieceMoves, generatePieceMoves } from '../../../src/games/tablut/movegen.js';
import { MAX_MOVES, STATUS_BLACK_WON, STATUS_ONGOING, TablutPosition } from '../../../src/games/tablut/position.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { WIN_SCORE } from '../../../src/search/score.js';
import { Random } from '../../../src/core/random.js';

const CELLS: Record<string, number> = { '.': EMPTY, '+': EMPTY, W: WHITE, B: BLACK, K: KING, T: THRONE };

/** A position from nine rows (row 9 first) of the record's diagrams. */
function diagram(rows: string[], side: number): TablutPosition {
  const cells = new Uint8Array(SQUARES);
  rows.forEach((row, i) => {
    const r = 8 - i;
    row.split(' ').forEach((cell, c) => (cells[r * 9 + c] = CELLS[cell]));
  });
  const pos = new TablutPosition(64);
  pos.load(cells, side, STATUS_ONGOING);
  return pos;
}

function whitePawnMoves(pos: TablutPosition): number {
  let moves = 0;
  for (let i = 0; i < pos.whiteCount; i++) moves += countPieceMoves(pos.board, pos.whitePawns[i]);
  return moves;
}

t.test('countPieceMoves counts what generatePieceMoves writes, along random games', async (t) => {
  const rng = new Random(42);
  const moves = new Int32Array(MAX_MOVES);
  const one = new Int32Array(16);
  let checked = 0;
  for (let game = 0; game < 20; game++) {
    const pos = new TablutPosition(200);
    pos.load(new Uint8Array(diagramCells()), 0, STATUS_ONGOING);
    for (let ply = 0; ply < 80 && pos.status === STATUS_ONGOING; ply++) {
      for (let s = 0; s < SQUARES; s++) {
        const cell = pos.board[s];
        if (cell !== WHITE && cell !== BLACK && cell !== KING) continue;
        if (countPieceMoves(pos.board, s) !== generatePieceMoves(pos.board, s, one, 0)) t.fail(`square ${s} after ${ply} plies`);
        checked++;
      }
      const count = pos.generateMoves(moves, 0);
      if (count === 0) break;
      pos.makeMove(moves[rng.below(count)]);
    }
  }
  t.ok(checked > 10_000, `${checked} pieces compared`);
});

/** The initial board (camp pawns included, so camp-to-camp slides are covered). */
function diagramCells(): Uint8Array {
  return diagram(
    [
      '. . . B B B . . .',
      '. . . . B . . . .',
      '. . . . W . . . .',
      'B . . . W . . . B',
      'B B W W K W W B B',
      'B . . . W . . . B',
      '. . . . W . . . .',
      '. . . . B . . . .',
      '. . . B B B . . .',
    ],
    0,
  ).board;
}

// Game 16 after 111 plies, Black (Kibitz) to move, its evaluation about +1150: White keeps a fortress
// (king on the throne, pawns c4 c5 d4 d5) and moves only its two free pawns, g7 and h1 (its pawns have
// 10 moves in all).
const FORTRESS = [
  '. . . + + + . . .',
  '. . . . + . . . .',
  '. . . B B B W . .',
  '+ . B B B B B . +',
  '+ + W W K B B + +',
  '+ . W W B . . . +',
  '. . B . B B . B .',
  '. . . . + . . . .',
  '. . . + + + . W .',
];

t.test('squeeze: in a fortress, Black takes moves away from White\'s pawns', async (t) => {
  const played = (weights: typeof DEFAULT_WEIGHTS): { move: string; before: number; after: number } => {
    const pos = diagram(FORTRESS, SIDE_BLACK);
    pos.evaluator = new DefaultEvaluator(weights);
    const result = new Searcher(new TranspositionTable(4)).search(pos, { maxDepth: 3 });
    const before = whitePawnMoves(pos);
    pos.makeMove(result.move);
    return { move: moveName(result.move), before, after: whitePawnMoves(pos) };
  };
  const squeeze = played(DEFAULT_WEIGHTS);
  t.equal(squeeze.before, 10);
  t.ok(squeeze.after < squeeze.before, `with the term: ${squeeze.move} leaves White ${squeeze.after} pawn moves`);
  const without = played({ ...DEFAULT_WEIGHTS, squeezeMobility: 0 });
  t.ok(without.after >= without.before, `without it (main before issue 42): ${without.move} leaves ${without.after}`);
});

t.test('squeeze: the bonus by its formula, and none while Black leads by less than squeezeFrom', async (t) => {
  const off = new DefaultEvaluator({ ...DEFAULT_WEIGHTS, squeezeMobility: 0 });
  const on = new DefaultEvaluator(DEFAULT_WEIGHTS);
  const fortress = diagram(FORTRESS, SIDE_BLACK);
  const base = off.whiteScore(fortress);
  t.ok(base <= -DEFAULT_WEIGHTS.squeezeFrom, `Black leads by ${-base} without the term`);
  // Free pawns g7 (g8 g9 h7 i7) and h1 (g1 h2 i1): 7 moves; the block's moves (c4-b4, d4-d3, d4-d2) do not count.
  t.equal(base - on.whiteScore(fortress), DEFAULT_WEIGHTS.squeezeMobility * (DEFAULT_WEIGHTS.squeezeCap - 7), 'the bonus for 7 free-pawn moves');
  // The same fortress with two more white pawns (h8, b2): Black's lead falls below squeezeFrom, no bonus.
  const rows = [...FORTRESS];
  rows[1] = '. . . . + . . W .';
  rows[7] = '. W . . + . . . .';
  const level = diagram(rows, SIDE_BLACK);
  t.ok(off.whiteScore(level) > -DEFAULT_WEIGHTS.squeezeFrom, `Black leads by ${-off.whiteScore(level)} only`);
  t.equal(on.whiteScore(level), off.whiteScore(level));
});

t.test('a proven win is played by its shortest line', async (t) => {
  // Game 16 after 1057 plies, Black to move: the king has left the throne for e6 (next to it: four
  // black pawns capture it). The record's search said 999995, a win in 5 plies.
  const pos = diagram(
    [
      '. . . + + + . . .',
      '. . . . + . . . W',
      '. . B B . B B . .',
      '+ . . B K . . . +',
      '+ + W W T B B + +',
      '+ . W W B B B . +',
      '. . B B B B . . .',
      '. . . . + . . . .',
      '. . . + + + . . W',
    ],
    SIDE_BLACK,
  );
  pos.evaluator = new DefaultEvaluator();
  const result = new Searcher(new TranspositionTable(4)).search(pos, { maxDepth: 9 });
  t.equal(result.score, WIN_SCORE - 5, 'mate-distance scoring: a win in 5 plies');
  t.equal(result.stopReason, 'proven');
  t.equal(result.depth, 5, 'iterations 1-4 proved nothing: no shorter win');
  t.equal(result.pv.length, 5);
  for (const move of result.pv) pos.makeMove(move);
  t.equal(pos.status, STATUS_BLACK_WON, `the line ${result.pv.map(moveName).join(' ')} captures the king`);
});
