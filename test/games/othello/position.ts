/**
 * Position invariants over seeded random playouts from the start: the incremental Zobrist hash
 * equals the one recomputed from scratch, make/unmake restores everything, the bitboard flip
 * function (solver path) agrees with the mailbox flips of makeMove (search path), and the two
 * mobility paths agree.
 */
import t from 'tap';
import { Random } from '../../../src/core/random.js';
import { NOT_TERMINAL } from '../../../src/search/score.js';
import { PASS_MOVE, mobility, mobilityHi } from '../../../src/games/othello/board.js';
import { flips, flipsHi, flipsHighSquare, flipsLowSquare } from '../../../src/games/othello/flips.js';
import { stableDiscs, stableHi } from '../../../src/games/othello/stability.js';
import type { OthelloPosition } from '../../../src/games/othello/position.js';
import { legalMoves, startPosition } from './helpers.js';

function fingerprint(pos: OthelloPosition): string {
  return JSON.stringify([Array.from(pos.cells), Array.from(pos.bits), pos.side, pos.hashLo, pos.hashHi, pos.empties, pos.ply]);
}

function bitsOf(squares: number[]): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const sq of squares) {
    if (sq < 32) lo |= 1 << sq;
    else hi |= 1 << (sq - 32);
  }
  return [lo, hi];
}

t.test('incremental hash == recomputed hash along random games', async (t) => {
  const rng = new Random(20240601);
  let checked = 0;
  for (let game = 0; game < 40; game++) {
    const pos = startPosition();
    while (pos.terminal() === NOT_TERMINAL) {
      const moves = legalMoves(pos);
      pos.makeMove(moves[rng.below(moves.length)]);
      const [lo, hi] = pos.computeHash();
      if (lo !== pos.hashLo || hi !== pos.hashHi) {
        t.fail(`hash mismatch in game ${game} at ply ${pos.ply}`);
        return;
      }
      checked++;
    }
  }
  t.ok(checked > 2000, `checked ${checked} positions`);
});

t.test('make/unmake restores cells, bitboards, side, hash, empties and moves', async (t) => {
  const rng = new Random(77);
  let checked = 0;
  for (let game = 0; game < 30; game++) {
    const pos = startPosition();
    const played: number[] = [];
    const prints: string[] = [];
    const moveLists: string[] = [];
    while (pos.terminal() === NOT_TERMINAL) {
      const moves = legalMoves(pos);
      prints.push(fingerprint(pos));
      moveLists.push(JSON.stringify(moves));
      const move = moves[rng.below(moves.length)];
      pos.makeMove(move);
      played.push(move);
    }
    while (played.length > 0) {
      pos.unmakeMove(played.pop()!);
      if (fingerprint(pos) !== prints.pop() || JSON.stringify(legalMoves(pos)) !== moveLists.pop()) {
        t.fail(`state not restored in game ${game}`);
        return;
      }
      checked++;
    }
    t.equal(pos.empties, 60);
  }
  t.ok(checked > 1500, `unmade ${checked} moves`);
});

t.test('bitboard flips (solver path) == mailbox flips (search path)', async (t) => {
  const rng = new Random(5);
  let checked = 0;
  for (let game = 0; game < 30; game++) {
    const pos = startPosition();
    while (pos.terminal() === NOT_TERMINAL) {
      const s = pos.side << 1;
      const [pl, ph, ol, oh] = [pos.bits[s], pos.bits[s + 1], pos.bits[2 - s], pos.bits[3 - s]];
      const legal = legalMoves(pos);
      // Every empty square: flips() is non-zero exactly on legal squares, with the same discs.
      for (let sq = 0; sq < 64; sq++) {
        const isEmpty = sq < 32 ? ((~(pl | ol) >>> sq) & 1) === 1 : ((~(ph | oh) >>> (sq - 32)) & 1) === 1;
        if (!isEmpty) continue;
        const fl = flips(sq, pl, ph, ol, oh);
        const fh = flipsHi;
        // The per-half functions perft and the solver may call directly.
        if ((sq < 32 ? flipsLowSquare(sq, pl, ph, ol, oh) : flipsHighSquare(sq, pl, ph, ol, oh)) !== fl || flipsHi !== fh) {
          t.fail(`flipsLowSquare/flipsHighSquare of ${sq} disagree with flips`);
          return;
        }
        const isLegal = legal.includes(sq);
        if (((fl | fh) !== 0) !== isLegal) {
          t.fail(`legality of ${sq} disagrees`);
          return;
        }
        if (isLegal) {
          pos.makeMove(sq);
          const [el, eh] = bitsOf(pos.lastFlipped());
          pos.unmakeMove(sq);
          if (el !== fl || eh !== fh) {
            t.fail(`flips of ${sq} disagree`);
            return;
          }
          checked++;
        }
      }
      const ml = mobility(pl, ph, ol, oh);
      const [gl, gh] = bitsOf(legal.filter((m) => m !== PASS_MOVE));
      if (ml !== gl || mobilityHi !== gh) {
        t.fail('mobility disagrees with generateMoves');
        return;
      }
      pos.makeMove(legal[rng.below(legal.length)]);
    }
  }
  t.ok(checked > 10000, `compared ${checked} moves`);
});

t.test('stable discs are never flipped later in the game', async (t) => {
  const rng = new Random(99);
  let stableSeen = 0;
  for (let game = 0; game < 60; game++) {
    const pos = startPosition();
    const history: { black: [number, number]; white: [number, number] }[] = [];
    while (pos.terminal() === NOT_TERMINAL) {
      const b = pos.bits;
      const black: [number, number] = [stableDiscs(b[0], b[1], b[2], b[3]), stableHi];
      const white: [number, number] = [stableDiscs(b[2], b[3], b[0], b[1]), stableHi];
      history.push({ black, white });
      const moves = legalMoves(pos);
      pos.makeMove(moves[rng.below(moves.length)]);
    }
    const b = pos.bits;
    for (const h of history) {
      // A disc stable for a colour at any time is still that colour at the end.
      if ((h.black[0] & ~b[0]) !== 0 || (h.black[1] & ~b[1]) !== 0 || (h.white[0] & ~b[2]) !== 0 || (h.white[1] & ~b[3]) !== 0) {
        t.fail(`a stable disc was flipped in game ${game}`);
        return;
      }
      stableSeen += countBits(h.black[0]) + countBits(h.black[1]) + countBits(h.white[0]) + countBits(h.white[1]);
    }
  }
  t.ok(stableSeen > 10000, `${stableSeen} stable disc observations`);
});

function countBits(x: number): number {
  let n = 0;
  for (; x !== 0; x &= x - 1) n++;
  return n;
}

t.test('corners with full edges are stable; a lone centre disc is not', async (t) => {
  // a1 black corner: stable. d4 black surrounded by empties: not stable.
  const [pl, ph] = bitsOf([0, 27]);
  const [ol, oh] = bitsOf([28]);
  const lo = stableDiscs(pl, ph, ol, oh);
  t.equal(lo, 1, 'only a1');
  t.equal(stableHi, 0);
});

t.test('stable discs: every disc whose four lines are full is stable (one empty square, random colours)', async (t) => {
  const rng = new Random(4242);
  for (let empty = 0; empty < 64; empty++) {
    const er = empty >> 3;
    const ec = empty & 7;
    for (let round = 0; round < 4; round++) {
      const b = [0, 0, 0, 0];
      for (let sq = 0; sq < 64; sq++) {
        if (sq === empty) continue;
        const side = rng.below(2) * 2;
        b[side + (sq >> 5)] |= 1 << (sq & 31);
      }
      for (const side of [0, 2]) {
        const lo = stableDiscs(b[side], b[side + 1], b[2 - side], b[3 - side]);
        const stable = [lo, stableHi];
        for (let sq = 0; sq < 64; sq++) {
          const r = sq >> 3;
          const c = sq & 7;
          const own = (b[side + (sq >> 5)] >>> (sq & 31)) & 1;
          const onEmptyLine = r === er || c === ec || r - c === er - ec || r + c === er + ec;
          if (own === 1 && !onEmptyLine && ((stable[sq >> 5] >>> (sq & 31)) & 1) === 0) {
            t.fail(`square ${sq} lies on four full lines (empty ${empty}) but is not stable`);
            return;
          }
        }
      }
    }
  }
  t.pass('all discs on full lines found stable');
});
