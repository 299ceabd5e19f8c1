/**
 * Weights of the hand-set 'classic' evaluation, per game phase (a band of EMPTIES_PER_PHASE empty
 * squares): hand-set anchors interpolated across phases.
 */

export const FEATURE_COUNT = 10;
export const EMPTIES_PER_PHASE = 5;
export const PHASES = 13;

export function phaseOf(empties: number): number {
  const phase = (empties / EMPTIES_PER_PHASE) | 0;
  return phase >= PHASES ? PHASES - 1 : phase;
}

/**
 * Hand-set anchors (centi-discs) at 0, 20, 40 and 60 empties, in feature order: mobility,
 * potential mobility, frontier, corners, X squares, C squares, stable, discs, parity, bias.
 */
const ANCHORS: readonly (readonly number[])[] = [
  [20, 5, 0, 200, -50, -20, 100, 100, 100, 0],
  [60, 20, -15, 500, -200, -60, 120, 20, 60, 0],
  [80, 30, -25, 600, -300, -100, 100, 0, 20, 0],
  [80, 30, -25, 600, -300, -100, 100, -5, 0, 0],
];

function interpolatedLinear(): Float64Array {
  const w = new Float64Array(PHASES * FEATURE_COUNT);
  for (let phase = 0; phase < PHASES; phase++) {
    const empties = Math.min(60, phase * EMPTIES_PER_PHASE + (EMPTIES_PER_PHASE - 1) / 2);
    const at = empties / 20;
    const i = Math.min(2, Math.floor(at));
    const t = at - i;
    for (let k = 0; k < FEATURE_COUNT; k++) {
      w[phase * FEATURE_COUNT + k] = ANCHORS[i][k] * (1 - t) + ANCHORS[i + 1][k] * t;
    }
  }
  return w;
}

export const CLASSIC_WEIGHTS = interpolatedLinear();
