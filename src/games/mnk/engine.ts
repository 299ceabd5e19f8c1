/**
 * The (M,N,K)-game's engine face: what a search thread needs (restore, snapshot, solver, score scale). It is kept
 * apart from the client face (index.ts: schemas and codec), so a worker thread does not load typebox.
 */
import type { EngineOptions, GameEngine } from '../types.js';
import { scaledClientScore } from '../../search/score.js';
import { MnkPosition } from './position.js';
import { profileNamed } from './profile.js';
import { solveMnk } from './solver.js';

/** Internal units per client point: a K-1 window (1000 internal) is 100 points. */
const CLIENT_DIVISOR = 10;
const PROVEN_WIN_CLIENT_SCORE = 100_000;
const SNAPSHOT_HEADER = 5;

export const engine: GameEngine<MnkPosition> = {
  id: 'mnk',
  restore(snapshot: Int32Array, options?: EngineOptions): MnkPosition {
    const [m, n, k, side, exactK] = snapshot;
    const cells = Uint8Array.from(snapshot.subarray(SNAPSHOT_HEADER, SNAPSHOT_HEADER + m * n));
    return new MnkPosition(m, n, k, cells, side, profileNamed(options?.profile), exactK === 1);
  },
  snapshot(pos: MnkPosition): Int32Array {
    const snap = new Int32Array(SNAPSHOT_HEADER + pos.cellCount);
    snap[0] = pos.m;
    snap[1] = pos.n;
    snap[2] = pos.k;
    snap[3] = pos.side;
    snap[4] = pos.exactK ? 1 : 0;
    snap.set(pos.cells, SNAPSHOT_HEADER);
    return snap;
  },
  solve: solveMnk,
  solveTimeShare: 0.5,
  clientScore: (internal: number): number => scaledClientScore(internal, CLIENT_DIVISOR),
  provenWinScore: PROVEN_WIN_CLIENT_SCORE,
};
