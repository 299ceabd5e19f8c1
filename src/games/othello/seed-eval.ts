/**
 * The 'seed' profile: the evaluation of the student minimax engine that is Kibitz's floor, one
 * positional weight table summed over own discs minus opponent discs. The seed's write-up only says
 * that corners carry the top weight, 4; this is the classic table with that shape.
 */
import { popcount } from './board.js';
import type { Evaluator } from './position.js';
import { EVAL_UNITS_PER_DISC } from './eval-scale.js';

export const SEED_WEIGHTS: readonly number[] = [
  4, -3, 2, 2, 2, 2, -3, 4,
  -3, -4, -1, -1, -1, -1, -4, -3,
  2, -1, 1, 0, 0, 1, -1, 2,
  2, -1, 0, 1, 1, 0, -1, 2,
  2, -1, 0, 1, 1, 0, -1, 2,
  2, -1, 1, 0, 0, 1, -1, 2,
  -3, -4, -1, -1, -1, -1, -4, -3,
  4, -3, 2, 2, 2, 2, -3, 4,
];

/** Squares grouped by weight: one popcount per group and half instead of a loop over 64 squares. */
function groupMasks(weights: readonly number[]): { values: Int32Array; lo: Int32Array; hi: Int32Array } {
  const distinct = [...new Set(weights)].filter((w) => w !== 0);
  const values = new Int32Array(distinct);
  const lo = new Int32Array(distinct.length);
  const hi = new Int32Array(distinct.length);
  weights.forEach((w, sq) => {
    const g = distinct.indexOf(w);
    if (g < 0) return;
    if (sq < 32) lo[g] |= 1 << sq;
    else hi[g] |= 1 << (sq - 32);
  });
  return { values, lo, hi };
}

export class SeedEvaluator implements Evaluator {
  private readonly values: Int32Array;
  private readonly lo: Int32Array;
  private readonly hi: Int32Array;

  constructor() {
    const groups = groupMasks(SEED_WEIGHTS);
    this.values = groups.values;
    this.lo = groups.lo;
    this.hi = groups.hi;
  }

  evaluate(pl: number, ph: number, ol: number, oh: number): number {
    let sum = 0;
    for (let g = 0; g < this.values.length; g++) {
      const ml = this.lo[g];
      const mh = this.hi[g];
      sum += this.values[g] * (popcount(pl & ml) + popcount(ph & mh) - popcount(ol & ml) - popcount(oh & mh));
    }
    // One table point is scaled to a quarter disc so clientScore stays in a sensible range.
    return (sum * EVAL_UNITS_PER_DISC) >> 2;
  }
}
