/**
 * Othello / Reversi 8x8: the game definition (client face) and the engine face Kibitz registers.
 */
import { ok } from '../../core/result.js';
import type { GameDefinition } from '../types.js';
import { engine } from './engine.js';
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
import { evaluatorFor } from './profiles.js';
import { OthelloPosition } from './position.js';

export { engine };

export { OthelloPosition } from './position.js';

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
