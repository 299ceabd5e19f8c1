/**
 * Incremental pattern indices (position.ts keeps, per ply, Black's view and the occupancy of every pattern
 * instance, updated square by square from patterns.ts SQUARE_SLOTS / SQUARE_DIGITS, restored on unmake):
 * along seeded random games, through passes and back, the kept block equals the one recomputed from the
 * bitboards, both sides' indices read from it equal patternIndices, and the evaluation read from it equals
 * the evaluation computed from scratch; a fixed-depth search visits the same nodes and returns the same
 * move and score with the incremental path as without it.
 */
import t from 'tap';
import { Random } from '../../../src/core/random.js';
import { NOT_TERMINAL } from '../../../src/search/score.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import {
  INDEX_BITS,
  INDEX_MASK,
  INSTANCE_COUNT,
  INSTANCE_PATTERN,
  PATTERN_LENGTHS,
  SQUARE_DIGITS,
  SQUARE_SLOT_START,
  packedIndices,
  patternIndices,
} from '../../../src/games/othello/patterns.js';
import { evaluatorFor } from '../../../src/games/othello/profiles.js';
import type { Evaluator, OthelloPosition } from '../../../src/games/othello/position.js';
import { legalMoves, startPosition } from './helpers.js';

const pattern = evaluatorFor('default');

/** The same evaluation without evaluateIndexed: the position then keeps no indices. */
const fromScratch: Evaluator = { evaluate: (pl, ph, ol, oh) => pattern.evaluate(pl, ph, ol, oh) };

function recomputed(pos: OthelloPosition): Int32Array {
  const out = new Int32Array(INSTANCE_COUNT);
  packedIndices(pos.bits[0], pos.bits[1], pos.bits[2], pos.bits[3], out, 0);
  return out;
}

function scratchValue(pos: OthelloPosition): number {
  const s = pos.side << 1;
  return pattern.evaluate(pos.bits[s], pos.bits[s + 1], pos.bits[2 - s], pos.bits[3 - s]);
}

t.test('the per-square tables: every instance square once, 4 to 8 instances a square, digits powers of 3', async (t) => {
  const squaresInInstances = INSTANCE_PATTERN.reduce((sum, p) => sum + PATTERN_LENGTHS[p], 0);
  t.equal(SQUARE_SLOT_START[64], squaresInInstances, `${squaresInInstances} (square, instance) pairs`);
  for (let sq = 0; sq < 64; sq++) {
    const n = SQUARE_SLOT_START[sq + 1] - SQUARE_SLOT_START[sq];
    if (n < 4 || n > 8) t.fail(`square ${sq}: ${n} instances`);
  }
  const powers = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];
  t.ok(SQUARE_DIGITS.every((d) => powers.includes(d)), 'every digit weight is a power of 3');
  t.equal(SQUARE_SLOT_START[10] - SQUARE_SLOT_START[9], 8, 'b2 (an X square): two edges, two lines, a diagonal, a corner, two 2x5 blocks');
});

t.test('incremental indices == recomputed indices, and the same evaluation, along random games and back', async (t) => {
  const rng = new Random(4040);
  const blackView = new Int32Array(INSTANCE_COUNT);
  const whiteView = new Int32Array(INSTANCE_COUNT);
  let checked = 0;
  let passes = 0;
  let bad = 0;
  for (let game = 0; game < 24; game++) {
    const pos = startPosition();
    const played: number[] = [];
    const check = (): void => {
      const kept = pos.patternIndexBlock();
      const fresh = recomputed(pos);
      for (let i = 0; i < INSTANCE_COUNT; i++) if (kept[i] !== fresh[i]) bad++;
      // Each side's view from the word: Black's in the low half, White's = 3 * occupancy - Black's.
      patternIndices(pos.bits[0], pos.bits[1], pos.bits[2], pos.bits[3], blackView);
      patternIndices(pos.bits[2], pos.bits[3], pos.bits[0], pos.bits[1], whiteView);
      for (let i = 0; i < INSTANCE_COUNT; i++) {
        if ((kept[i] & INDEX_MASK) !== blackView[i] || 3 * (kept[i] >>> INDEX_BITS) - (kept[i] & INDEX_MASK) !== whiteView[i]) bad++;
      }
      if (pos.terminal() === NOT_TERMINAL && pos.evaluate() !== scratchValue(pos)) bad++;
      checked++;
    };
    check();
    while (pos.terminal() === NOT_TERMINAL) {
      const moves = legalMoves(pos);
      const move = moves[rng.below(moves.length)];
      if (move === 64) passes++;
      pos.makeMove(move);
      played.push(move);
      check();
    }
    while (played.length > 0) {
      pos.unmakeMove(played.pop()!);
      check();
    }
  }
  t.equal(bad, 0, 'no index or value differs');
  t.ok(checked > 2500, `${checked} positions checked`);
  t.ok(passes > 0, `${passes} passes among them`);
});

t.test('switching to the pattern evaluation mid-game computes the indices, also below that ply', async (t) => {
  const rng = new Random(9);
  const pos = startPosition();
  pos.evaluator = evaluatorFor('classic');
  const played: number[] = [];
  for (let i = 0; i < 12; i++) {
    const moves = legalMoves(pos);
    played.push(moves[rng.below(moves.length)]);
    pos.makeMove(played[played.length - 1]);
  }
  pos.evaluator = pattern;
  t.same(pos.patternIndexBlock(), recomputed(pos));
  t.equal(pos.evaluate(), scratchValue(pos));
  while (played.length > 0) {
    pos.unmakeMove(played.pop()!);
    t.same(pos.patternIndexBlock(), recomputed(pos), `ply ${pos.ply}`);
  }
  t.equal(pos.evaluate(), scratchValue(pos), 'back at the start');
});

t.test('fixed-depth search: same nodes, move and score with and without the incremental path', async (t) => {
  const rng = new Random(2026);
  for (let k = 0; k < 4; k++) {
    const a = startPosition();
    for (let ply = 10 + rng.below(20); ply > 0 && a.terminal() === NOT_TERMINAL; ply--) {
      const moves = legalMoves(a);
      a.makeMove(moves[rng.below(moves.length)]);
    }
    const b = startPosition();
    b.setup(a.bits[0], a.bits[1], a.bits[2], a.bits[3], a.side);
    b.evaluator = fromScratch;
    const ra = new Searcher(new TranspositionTable(14)).search(a, { maxDepth: 6 });
    const rb = new Searcher(new TranspositionTable(14)).search(b, { maxDepth: 6 });
    t.same([ra.nodes, ra.move, ra.score], [rb.nodes, rb.move, rb.score], `position ${k}: ${ra.nodes} nodes`);
  }
});
