/**
 * Hadron (Mark Steere), as played in the University of Calabria AI tournament: place a piece of
 * your colour on an empty cell whose orthogonal neighbours hold as many White as Black pieces; the
 * player with no such cell on their turn loses. White moves first; no draws.
 */
import type { GameDefinition } from '../types.js';
import { engine, withEvaluator } from './engine.js';
import type { HadronPosition } from './position.js';
import {
  decodeMove,
  decodeState,
  encodeMove,
  encodeState,
  initialState,
  initialStateQuerySchema,
  moveSchema,
  stateSchema,
} from './codec.js';

export { engine, profileId, withEvaluator } from './engine.js';

export { HadronPosition } from './position.js';

const RULES =
  'Two players, White (W, first) and Black (B), take turns placing a piece of their colour on an empty ' +
  'cell whose orthogonal neighbours hold as many White as Black pieces (0-0, 1-1 or 2-2; off-board ' +
  'counts as nothing). There is no passing: the player to move with no such cell loses, so the last ' +
  'player to place wins; there are no draws. The tournament board is 9 x 9; any R x C board from 2 x 2 ' +
  "to 9 x 9 is accepted. States list the rows top to bottom as strings of 'W', 'B' and '.'; moves are " +
  '{row, col} (0-based) or the notation row letter + column number ("E5" = row 4, col 4).';

const SCORE_SCALE =
  'Heuristic advantage of the side to move, read from the regions\' game values summed as tempo (ups) ' +
  'and parity (stars): 100 per outcome class (+200 winning whoever moves next, +100 winning only when ' +
  'moving first, -100 / -200 the mirror cases) plus 6 per net tempo move (up to 4); about +-30000 when ' +
  'small regions make the result certain. Proven results are reported as +-100000 with the length in ' +
  'plies of a proven line.';

export const definition: GameDefinition<HadronPosition> = {
  id: 'hadron',
  name: 'Hadron',
  rules: RULES,
  scoreScale: SCORE_SCALE,
  stateSchema,
  moveSchema,
  initialStateQuerySchema,
  sideNames: ['W', 'B'],
  exampleState: {
    board: ['.........', '.........', '.........', '.........', '....W....', '.........', '.........', '.........', '.........'],
    turn: 'B',
  },
  exampleMove: { row: 0, col: 0, notation: 'A1' },
  engine,
  initialState,
  decodeState: (state) => {
    const decoded = decodeState(state);
    return decoded.ok ? { ok: true, value: withEvaluator(decoded.value) } : decoded;
  },
  encodeState,
  decodeMove,
  encodeMove,
};
