/**
 * Pattern instances read from bitboards (patterns.ts) against a naive read of explicit square
 * lists: each instance must be the image of its pattern's base square list under a board symmetry,
 * read in image order, so all instances can share one weight table.
 */
import t from 'tap';
import { Random } from '../../../src/core/random.js';
import { NOT_TERMINAL } from '../../../src/search/score.js';
import { INSTANCE_COUNT, INSTANCE_PATTERN, PATTERN_LENGTHS, patternIndices } from '../../../src/games/othello/patterns.js';
import { BLACK_CELL, MAILBOX } from '../../../src/games/othello/board.js';
import type { OthelloPosition } from '../../../src/games/othello/position.js';
import { legalMoves, startPosition } from './helpers.js';

type Square = [number, number];
type Symmetry = (s: Square) => Square;
const id: Symmetry = ([r, c]) => [r, c];
const flipH: Symmetry = ([r, c]) => [r, 7 - c];
const flipV: Symmetry = ([r, c]) => [7 - r, c];
const rot180: Symmetry = ([r, c]) => [7 - r, 7 - c];
const transpose: Symmetry = ([r, c]) => [c, r];
const rot90: Symmetry = ([r, c]) => [c, 7 - r];
const rot270: Symmetry = ([r, c]) => [7 - c, r];
const antiTranspose: Symmetry = ([r, c]) => [7 - c, 7 - r];

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const row = (r: number): Square[] => range(8).map((c) => [r, c]);
const diag = (off: number): Square[] => range(8 - off).map((i) => [i, i + off]);
const corner: Square[] = [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2]];
const edgeX: Square[] = [...row(0), [1, 1], [1, 6]];
const block25: Square[] = [...range(5).map((c): Square => [0, c]), ...range(5).map((c): Square => [1, c])];

/** Square lists of every instance, in slot order (see INSTANCE_PATTERN). */
const INSTANCES: Square[][] = [
  ...[id, flipV, transpose, rot90].map((g) => edgeX.map(g)),
  ...[id, flipV, transpose, rot90].map((g) => row(1).map(g)),
  ...[id, flipV, transpose, rot90].map((g) => row(2).map(g)),
  ...[id, flipV, transpose, rot90].map((g) => row(3).map(g)),
  ...[id, flipH].map((g) => diag(0).map(g)),
  ...[id, flipH, flipV, rot180].map((g) => corner.map(g)),
  ...[1, 2, 3, 4].flatMap((off) => [id, transpose, flipH, rot90].map((g) => diag(off).map(g))),
  ...[id, transpose, flipH, rot90, flipV, rot270, rot180, antiTranspose].map((g) => block25.map(g)),
];

function naive(pos: OthelloPosition, squares: Square[]): number {
  let index = 0;
  for (let i = squares.length - 1; i >= 0; i--) {
    const [r, c] = squares[i];
    const cell = pos.cells[MAILBOX[r * 8 + c]];
    const own = pos.side === 0 ? BLACK_CELL : 3 - BLACK_CELL;
    index = index * 3 + (cell === 0 ? 0 : cell === own ? 1 : 2);
  }
  return index;
}

t.test('instance lists match the declared pattern lengths', async (t) => {
  t.equal(INSTANCES.length, INSTANCE_COUNT);
  INSTANCES.forEach((squares, slot) => t.equal(squares.length, PATTERN_LENGTHS[INSTANCE_PATTERN[slot]], `slot ${slot}`));
});

t.test('bitboard pattern indices == naive reads along random games', async (t) => {
  const rng = new Random(31337);
  const out = new Int32Array(INSTANCE_COUNT);
  let checked = 0;
  for (let game = 0; game < 30; game++) {
    const pos = startPosition();
    while (pos.terminal() === NOT_TERMINAL) {
      const s = pos.side << 1;
      patternIndices(pos.bits[s], pos.bits[s + 1], pos.bits[2 - s], pos.bits[3 - s], out);
      for (let slot = 0; slot < INSTANCE_COUNT; slot++) {
        if (out[slot] !== naive(pos, INSTANCES[slot])) {
          t.fail(`slot ${slot} differs in game ${game} at ply ${pos.ply}`);
          return;
        }
      }
      checked++;
      const moves = legalMoves(pos);
      pos.makeMove(moves[rng.below(moves.length)]);
    }
  }
  t.ok(checked > 1500, `${checked} positions x ${INSTANCE_COUNT} instances`);
});
