/**
 * Hadron rules: perft and legal-move lists against the reference data.
 *
 * Sources (copied from the reference set shared/reference/hadron into test/fixtures/hadron):
 *  - perft.json: fields board9x9[d].perft, board5x5[d].perft, board4x4[d].perft (sequences of d
 *    plies from the empty board, White first).
 *  - vectors.json: positions[i].board / turn / terminal / winner / moves / notation, generated from
 *    the tournament framework's rule code.
 */
import t from 'tap';
import { perft } from '../../../src/search/perft.js';
import { HadronPosition, fastPerft } from '../../../src/games/hadron/position.js';
import { definition } from '../../../src/games/hadron/index.js';
import { NOT_TERMINAL, RESULT_LOSS } from '../../../src/search/score.js';
import { Random } from '../../../src/core/random.js';
import { type PerftRow, type Vector, emptyBoard, fixture, legalMoves, positionOf } from '../../fixtures/hadron/boards.js';

const perftData = fixture<{ board9x9: PerftRow[]; board5x5: PerftRow[]; board4x4: PerftRow[] }>('perft.json');
const vectors = fixture<{ positions: Vector[] }>('vectors.json').positions;

/** Deepest rows checked here (the bench runs 9x9 to depth 5). */
const TEST_DEPTHS = { board9x9: 4, board5x5: 6, board4x4: 8 } as const;
const SHAPES = { board9x9: [9, 9], board5x5: [5, 5], board4x4: [4, 4] } as const;

t.test('perft.json rows: bulk-counting perft (the bench one)', async (t) => {
  for (const key of ['board9x9', 'board5x5', 'board4x4'] as const) {
    const [rows, cols] = SHAPES[key];
    for (const row of perftData[key]) {
      if (row.depth > TEST_DEPTHS[key]) continue;
      t.equal(fastPerft(emptyBoard(rows, cols), row.depth), row.perft, `perft.json ${key} depth ${row.depth}`);
    }
  }
});

t.test('perft.json rows: generic perft over the SearchPosition interface', async (t) => {
  t.equal(perft(emptyBoard(9, 9), 3), perftData.board9x9[2].perft, 'perft.json board9x9[2] (depth 3)');
  t.equal(perft(emptyBoard(5, 5), 5), perftData.board5x5[4].perft, 'perft.json board5x5[4] (depth 5)');
  t.equal(perft(emptyBoard(4, 4), 6), perftData.board4x4[5].perft, 'perft.json board4x4[5] (depth 6)');
});

t.test('vectors.json: every legal-move list, terminal flag and notation', async (t) => {
  t.equal(vectors.length, 100, 'vectors.json has 100 positions');
  for (const v of vectors) {
    const pos = positionOf(v.board, v.turn);
    const cols = v.board[0].length;
    const expected = v.moves.map(([r, c]) => r * cols + c).sort((a, b) => a - b);
    t.same(legalMoves(pos), expected, `vectors.json positions id ${v.id}: moves`);
    t.equal(pos.playableCount, v.moveCount, `id ${v.id}: moveCount`);
    t.equal(pos.terminal() !== NOT_TERMINAL, v.terminal, `id ${v.id}: terminal`);
    if (v.terminal) {
      t.equal(pos.terminal(), RESULT_LOSS, `id ${v.id}: the side to move lost`);
      // The winner is the player who moved last, i.e. not the side to move.
      t.equal(v.winner, v.turn === 'W' ? 'B' : 'W', `id ${v.id}: winner`);
    }
    t.same(
      v.moves.map(([r, c]) => definition.encodeMove(pos, r * cols + c).notation),
      v.notation,
      `id ${v.id}: notation`,
    );
    t.same(definition.encodeState(pos), { board: v.board, turn: v.turn }, `id ${v.id}: state round trip`);
  }
});

t.test('a placement changes only its neighbours; make/unmake and the hash are exact', async (t) => {
  const rng = new Random(11);
  const buf = new Int32Array(81);
  for (let game = 0; game < 20; game++) {
    const pos = emptyBoard(9, 9);
    const played: number[] = [];
    for (;;) {
      const before = legalMoves(pos);
      const n = pos.generateMoves(buf, 0);
      if (n === 0) break;
      const move = buf[rng.below(n)];
      const hash = [pos.hashLo, pos.hashHi];
      pos.makeMove(move);
      t.same([pos.hashLo, pos.hashHi], pos.computeHash(), 'incremental hash = recomputed hash');
      // The legal set of a freshly built position agrees with the incremental one.
      const rebuilt = new HadronPosition(9, 9, pos.cells.subarray(0, 81));
      if (legalMoves(rebuilt).join() !== legalMoves(pos).join()) t.fail(`incremental legal set differs after ${played.length + 1} plies`);
      pos.unmakeMove(move);
      t.same(legalMoves(pos), before, 'unmake restores the legal set');
      t.same([pos.hashLo, pos.hashHi], hash, 'unmake restores the hash');
      pos.makeMove(move);
      played.push(move);
    }
    t.equal(pos.terminal(), RESULT_LOSS, 'the game ends with the side to move unable to play');
    t.equal(pos.side, played.length % 2, 'sides alternate, White first');
  }
});

t.test('hand-made positions: the 0-0, 1-1 and 2-2 balance rule', async (t) => {
  // A lone W at B2 shuts its four neighbours (1-0) and nothing else.
  const pos = positionOf(['...', '.W.', '...'], 'B');
  t.same(legalMoves(pos), [0, 2, 6, 8]);
  // W and B beside the same empty cell balance it (1-1).
  const balanced = positionOf(['W.B', '...', '...'], 'W');
  t.ok(balanced.isPlayable(1), 'A2 has one W and one B neighbour');
  t.notOk(balanced.isPlayable(3), 'B1 has one W neighbour');
  // Two W and two B around a centre cell (2-2).
  const cross = positionOf(['.W.', 'B.B', '.W.'], 'W');
  t.ok(cross.isPlayable(4), 'B2 sees 2 W and 2 B');
});
