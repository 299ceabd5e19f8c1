/**
 * Tablut's engine face: what a search thread needs (restore, snapshot, solver, score scale). It is kept
 * apart from the client face (index.ts: schemas and codec), so a worker thread does not load typebox.
 */
import type { EngineOptions, GameEngine } from '../types.js';
import { attachProfile } from './profiles.js';
import type { TablutPosition } from './position.js';
import { restorePosition, snapshotPosition } from './snapshot.js';
import { solveTactics } from './tactics.js';

/** Client scale: hundredths of a black pawn; a proven win is reported as this. */
const PROVEN_WIN_CLIENT_SCORE = 10_000;

export const engine: GameEngine<TablutPosition> = {
  id: 'tablut',
  restore(snapshot: Int32Array, options?: EngineOptions): TablutPosition {
    const pos = restorePosition(snapshot);
    attachProfile(pos, options?.profile);
    return pos;
  },
  snapshot: snapshotPosition,
  solve: solveTactics,
  solveTimeShare: 0.05,
  clientScore(internal: number): number {
    // Internal units already are hundredths of a black pawn; stay clear of the proven-win value.
    const limit = PROVEN_WIN_CLIENT_SCORE - 1;
    return Math.max(-limit, Math.min(limit, Math.round(internal)));
  },
  provenWinScore: PROVEN_WIN_CLIENT_SCORE,
};
