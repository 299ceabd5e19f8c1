/**
 * Othello's engine face: what a search thread needs (restore, snapshot, solver, score scale). It is kept
 * apart from the client face (index.ts: schemas and codec), so a worker thread does not load typebox.
 */
import type { EngineOptions, GameEngine, SolveContext, SolveResult } from '../types.js';
import { EVAL_UNITS_PER_DISC } from './eval-scale.js';
import { evaluatorFor } from './profiles.js';
import { OthelloPosition } from './position.js';
import { DEFAULT_PROBCUT } from './probcut.js';
import { solveEndgame, solveExactly } from './solver.js';

const SNAPSHOT_LENGTH = 5;

function restore(snapshot: Int32Array, options?: EngineOptions): OthelloPosition {
  const pos = new OthelloPosition(evaluatorFor(options?.profile));
  pos.setup(snapshot[0], snapshot[1], snapshot[2], snapshot[3], snapshot[4]);
  if (options?.probCut !== undefined) pos.probCutConfidence = options.probCut;
  return pos;
}

function snapshot(pos: OthelloPosition): Int32Array {
  const out = new Int32Array(SNAPSHOT_LENGTH);
  out.set(pos.bits, 0);
  out[4] = pos.side;
  return out;
}

export const engine: GameEngine<OthelloPosition> = {
  id: 'othello',
  restore,
  snapshot,
  prepare(): void {
    evaluatorFor(undefined);
  },
  solve(pos: OthelloPosition, ctx: SolveContext): SolveResult | null {
    return solveEndgame(pos, ctx);
  },
  solveTimeShare: 0.6,
  solveWithin(pos: OthelloPosition, empties: number, ctx: SolveContext): SolveResult | null {
    return pos.empties <= empties ? solveExactly(pos, ctx) : null;
  },
  defaultProbCut: DEFAULT_PROBCUT,
  clientScore(internal: number): number {
    return Math.round(internal) / EVAL_UNITS_PER_DISC;
  },
  provenWinScore: 2,
  finalScore(pos: OthelloPosition): number {
    return pos.finalScore();
  },
};
