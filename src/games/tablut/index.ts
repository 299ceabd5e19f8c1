/**
 * Tablut (Ashton rules as the Tablut Challenge server enforces them): the engine face and the
 * client face of Kibitz's contract.
 */
import { ok } from '../../core/result.js';
import type { GameDefinition } from '../types.js';
import { engine } from './engine.js';
import { decodeMove, decodeState, encodeMove, encodeState } from './codec.js';
import { attachProfile } from './profiles.js';
import { TablutPosition } from './position.js';
import { INITIAL_STATE_JSON, SIDE_NAMES, historyItemSchema, moveSchema, stateSchema } from './schemas.js';

export { engine };

export const definition: GameDefinition<TablutPosition> = {
  id: 'tablut',
  name: 'Tablut (Ashton rules, Tablut Challenge)',
  rules:
    'Ashton Tablut on 9x9 exactly as the Tablut Challenge server plays it. WHITE (8 pawns and the king on the throne e5) ' +
    'moves first; BLACK has 16 pawns on the four camps. Every piece moves like a rook over empty squares; nobody enters ' +
    'or crosses the throne once the king has left it, and only a black pawn still inside its camp may move within camps. ' +
    'Pawns are captured by custodial capture by the side that moves (the empty throne and the camps are hostile, except ' +
    'that the four camp centres do not help White). The king is captured by 4 blacks on the throne, by 3 next to it, ' +
    'and elsewhere by 2 (a camp counts as one). WHITE wins when the king reaches any edge square, BLACK by capturing ' +
    'the king; the first repetition of a position since the last capture is a draw; a side without a legal move loses.',
  scoreScale:
    'Hundredths of a black pawn from the side to move\'s point of view (a white pawn is worth about two; king safety and ' +
    'escape chances are expressed in the same unit); |score| < 10000, and 10000 means a proven win.',
  stateSchema,
  moveSchema,
  historyItemSchema,
  sideNames: SIDE_NAMES,
  exampleState: INITIAL_STATE_JSON,
  exampleMove: { from: 'e3', to: 'c3', turn: 'WHITE', notation: 'e3-c3' },
  engine,
  initialState() {
    return ok(structuredClone(INITIAL_STATE_JSON));
  },
  decodeState(state, history) {
    const decoded = decodeState(state, history);
    if (decoded.ok) attachProfile(decoded.value, undefined);
    return decoded;
  },
  encodeState,
  decodeMove,
  encodeMove,
};
