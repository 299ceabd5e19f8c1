/**
 * Othello / Reversi 8x8: the game definition (client face) and the engine face Kibitz registers.
 */
import { ok } from '../../core/result.js';
import type { EngineOptions, GameDefinition, GameEngine, SolveContext, SolveResult } from '../types.js';
import { PASS_MOVE } from './board.js';
import {
  SIDE_NAMES,
  START_STATE,
  decodeMove,
  encodeMove,
  encodeState,
  moveSchema,
  parseState,
  stateSchema,
} from './codec.js';
import { EVAL_UNITS_PER_DISC } from './eval-scale.js';
import { evaluatorFor } from './profiles.js';
import { OthelloPosition } from './position.js';
import { DEFAULT_PROBCUT } from './probcut.js';
import { solveEndgame } from './solver.js';

export { OthelloPosition } from './position.js';

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
  defaultProbCut: DEFAULT_PROBCUT,
  clientScore(internal: number): number {
    return Math.round(internal) / EVAL_UNITS_PER_DISC;
  },
  provenWinScore: 2,
  finalScore(pos: OthelloPosition): number {
    return pos.finalScore();
  },
};

export const definition: GameDefinition<OthelloPosition> = {
  id: 'othello',
  name: 'Othello (Reversi) 8x8',
  rules:
    'Black and White alternately place a disc on an empty square so that it brackets, in a straight line ' +
    '(horizontal, vertical or diagonal), one or more contiguous opponent discs with another disc of the mover; ' +
    'every bracketed disc is flipped. Black moves first from d5, e4 black and d4, e5 white. A side with no ' +
    'legal move must pass (its only legal move is "pass"); the game ends when neither side can move, and the ' +
    'side with more discs wins (the empty squares are counted for the winner in the final score).',
  scoreScale:
    'Disc differential for the side to move. Heuristic scores estimate the final disc difference (own minus ' +
    'opponent, in discs, e.g. +4.5). Exact (solved) answers carry the final disc differential with perfect ' +
    'play, empty squares going to the winner; a proven win without an exact count reports +2, the smallest margin.',
  stateSchema,
  moveSchema,
  sideNames: SIDE_NAMES,
  exampleState: START_STATE,
  exampleMove: { notation: 'd3', row: 2, col: 3 },
  engine,
  initialState() {
    return ok({ board: [...START_STATE.board], turn: START_STATE.turn });
  },
  decodeState(state: unknown) {
    const parsed = parseState(state);
    if (!parsed.ok) return parsed;
    const { bits, side } = parsed.value;
    const pos = new OthelloPosition(evaluatorFor(undefined));
    pos.setup(bits[0], bits[1], bits[2], bits[3], side);
    return ok(pos);
  },
  encodeState,
  decodeMove(_pos: OthelloPosition, move: unknown, field: string) {
    return decodeMove(move, field);
  },
  encodeMove(_pos: OthelloPosition, move: number) {
    return encodeMove(move);
  },
};

export { PASS_MOVE };
