/**
 * The seed's evaluation (Aenigma, 2022/23 tournament winner), as its README describes it:
 *   w1 * hSpecialMoves + w2 * hParity + Random(0, 1)
 * with (w1, w2) = (1, 0) while 10 or more moves are available, (0.5, 0.5) below that.
 *
 * A special move for X is a playable cell R next to an empty, unplayable cell P such that X at R
 * keeps P unplayable while the opponent at R would make P playable, P offering no further moves
 * once played. Like the seed, this is the weak form: only P's own neighbours are checked (P's
 * other neighbours must all be occupied), no chains of blocked cells.
 * hParity is +1 when the side to move has an odd number of available moves, else -1.
 */
import { Random } from '../../core/random.js';
import { EMPTY, NEIGHBOUR_SLOTS } from './geometry.js';
import type { HadronPosition, PositionEvaluator } from './position.js';

/** Internal units per heuristic point (the seed's scale is a few points). */
export const SEED_UNIT = 100;
const ENDGAME_MOVES = 10;

export class SeedEvaluator implements PositionEvaluator {
  private readonly rng: Random;

  constructor(seed: number) {
    this.rng = new Random(seed);
  }

  evaluate(pos: HadronPosition): number {
    const g = pos.geometry;
    const cells = pos.cells;
    const balance = pos.balance;
    // specials[0]: White's, specials[1]: Black's (counted per (R, P) pair).
    let whiteSpecials = 0;
    let blackSpecials = 0;
    for (let w = 0; w < 3; w++) {
      let bits = pos.playable[w];
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        const r = (w << 5) + 31 - Math.clz32(low);
        for (let k = 0; k < g.neighbourCount[r]; k++) {
          const p = g.neighbours[r * NEIGHBOUR_SLOTS + k];
          if (cells[p] !== EMPTY) continue;
          const b = balance[p];
          if (b !== 1 && b !== -1) continue;
          let closed = true;
          for (let j = 0; j < g.neighbourCount[p]; j++) {
            const q = g.neighbours[p * NEIGHBOUR_SLOTS + j];
            if (q !== r && cells[q] === EMPTY) {
              closed = false;
              break;
            }
          }
          if (!closed) continue;
          // b = +1: White at R makes it +2 (stays shut), Black at R opens it: White's special.
          if (b === 1) whiteSpecials++;
          else blackSpecials++;
        }
      }
    }
    const special = pos.side === 0 ? whiteSpecials - blackSpecials : blackSpecials - whiteSpecials;
    const parity = (pos.playableCount & 1) === 1 ? 1 : -1;
    const noise = this.rng.nextFloat();
    const value = pos.playableCount >= ENDGAME_MOVES ? special + noise : 0.5 * special + 0.5 * parity + noise;
    return Math.round(value * SEED_UNIT);
  }
}
