/**
 * Hadron's engine face: what a search thread needs (restore, snapshot, solver, score scale). It is kept
 * apart from the client face (index.ts: schemas and codec), so a worker thread does not load typebox.
 */
import type { EngineOptions, GameEngine } from '../types.js';
import { scaledClientScore } from '../../search/score.js';
import { HadronPosition, PROFILE_DEFAULT, PROFILE_SEED } from './position.js';
import { DefaultEvaluator } from './evaluation.js';
import { SeedEvaluator } from './seed-evaluation.js';
import { sharedSolver, solveHadron } from './solve.js';

const SNAPSHOT_HEADER = 2;
/** Internal units per client point. */
const CLIENT_DIVISOR = 10;
const PROVEN_WIN_CLIENT_SCORE = 100_000;

export function profileId(name: string | undefined): number {
  return name === 'seed' ? PROFILE_SEED : PROFILE_DEFAULT;
}

/** Gives a position the evaluator of its profile. */
export function withEvaluator(pos: HadronPosition): HadronPosition {
  pos.evaluator = pos.profile === PROFILE_SEED ? new SeedEvaluator(pos.seed) : new DefaultEvaluator(sharedSolver());
  return pos;
}

export const engine: GameEngine<HadronPosition> = {
  id: 'hadron',
  restore(snapshot: Int32Array, options?: EngineOptions): HadronPosition {
    const rows = snapshot[0];
    const cols = snapshot[1];
    const cells = snapshot.subarray(SNAPSHOT_HEADER, SNAPSHOT_HEADER + rows * cols);
    return withEvaluator(new HadronPosition(rows, cols, cells, profileId(options?.profile), options?.seed ?? 0));
  },
  snapshot(pos: HadronPosition): Int32Array {
    const snap = new Int32Array(SNAPSHOT_HEADER + pos.cellCount);
    snap[0] = pos.rows;
    snap[1] = pos.cols;
    for (let cell = 0; cell < pos.cellCount; cell++) snap[SNAPSHOT_HEADER + cell] = pos.cells[cell];
    return snap;
  },
  solve: solveHadron,
  solveTimeShare: 0.5,
  clientScore: (internal: number): number => scaledClientScore(internal, CLIENT_DIVISOR),
  provenWinScore: PROVEN_WIN_CLIENT_SCORE,
};
