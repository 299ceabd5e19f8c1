/**
 * Engine profiles: what the arena pits against each other.
 *  - 'default': candidate cells next to stones (within two on the K = 5 pattern path), narrowed further by forced replies and threat
 *    zones (moves.ts); window weights that grow steeply with the stones a window lacks;
 *    side-to-move threat terms (evaluation.ts); the threat-space / exact solver (solver.ts).
 *  - 'window': 'default' without the K = 5 line-pattern fast path (the engine before it, for the arena);
 *  - 'seed': the seed engine's ideas only: candidates in the +-1 neighbourhood of stones, a plain
 *    threat-count evaluation (no side-to-move terms), no forced-move pruning, no solver.
 *    (A distance-2 neighbourhood was tried for the window engine and lost to +-1 in arena games: the
 *    wider branching cost more depth than the cells it added were worth. The pattern path cuts its
 *    lists by a policy below the root, and there it pays: docs/gomoku-strength.md, tenth round.)
 */

export interface MnkProfile {
  readonly name: 'default' | 'seed' | 'window';
  /** K = 5 only: the line-pattern fast path (patterns.ts) instead of the window evaluation and move lists. */
  readonly patterns: boolean;
  /** Candidate neighbourhood as (dr, dc) pairs around every stone. */
  readonly neighbourhood: readonly (readonly [number, number])[];
  /**
   * The same on the pattern path, where the move list is cut by the policy's hint: Rapfi plays a tenth of its quiet
   * moves two cells from every stone (tools/gomoku-policy.ts), which ring 1 never offers.
   */
  readonly patternNeighbourhood: readonly (readonly [number, number])[];
  /** Weight of a window with `missing` empty cells and no enemy stone (index = missing, 1..). */
  readonly weightByMissing: readonly number[];
  /** Counts threats from the side-to-move's point of view (who moves next matters). */
  readonly tempoAware: boolean;
  /** Runs the game's solver (immediate wins, threat-space search, exact small boards). */
  readonly useSolver: boolean;
  /** Search moves shrink to forced replies: the win, the blocks, the threat zone (moves.ts). */
  readonly forcedMoves: boolean;
}

const RING_1: [number, number][] = [];
for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) if (dr !== 0 || dc !== 0) RING_1.push([dr, dc]);
const RING_2: [number, number][] = [];
for (let dr = -2; dr <= 2; dr++) for (let dc = -2; dc <= 2; dc++) if (dr !== 0 || dc !== 0) RING_2.push([dr, dc]);

/**
 * Weights indexed by missing stones (0 = complete, unused). A K-1 window (one cell short) is worth
 * 1000: the client scale divides by 10, so such a "four" is about 100 points.
 */
const DEFAULT_WEIGHTS = [0, 1000, 140, 24, 6, 2, 1];
const SEED_WEIGHTS = [0, 1000, 100, 10, 1, 1, 1];

export const DEFAULT_PROFILE: MnkProfile = {
  name: 'default',
  neighbourhood: RING_1,
  patternNeighbourhood: RING_2,
  weightByMissing: DEFAULT_WEIGHTS,
  tempoAware: true,
  useSolver: true,
  forcedMoves: true,
  patterns: true,
};

/** The default engine before the pattern fast path (the arena's reference for K = 5 changes). */
export const WINDOW_PROFILE: MnkProfile = { ...DEFAULT_PROFILE, name: 'window', patterns: false };

export const SEED_PROFILE: MnkProfile = {
  name: 'seed',
  neighbourhood: RING_1,
  patternNeighbourhood: RING_1,
  weightByMissing: SEED_WEIGHTS,
  tempoAware: false,
  useSolver: false,
  forcedMoves: false,
  patterns: false,
};

export function profileNamed(name: string | undefined): MnkProfile {
  return name === 'seed' ? SEED_PROFILE : name === 'window' ? WINDOW_PROFILE : DEFAULT_PROFILE;
}

/** Weight per own-stone count (index = stones in the window, 0..k) for a k-window. */
export function weightsByCount(profile: MnkProfile, k: number): Int32Array {
  const table = new Int32Array(k + 1);
  const byMissing = profile.weightByMissing;
  for (let count = 1; count <= k; count++) {
    const missing = k - count;
    table[count] = missing === 0 ? byMissing[1] * 4 : byMissing[Math.min(missing, byMissing.length - 1)];
  }
  return table;
}
