/**
 * The (M,N,K)-game: tic-tac-toe to gomoku to 100x100 boards. Freestyle rules: a line of K or more
 * wins, a full board without one is a draw, X moves first. With `exactK` (Gomocup's standard rule)
 * only a line of exactly K wins.
 */
import type { GameDefinition } from '../types.js';
import { engine } from './engine.js';
import type { MnkPosition } from './position.js';
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

export { engine };

export { MnkPosition } from './position.js';

const RULES =
  'Two players, X (first) and O, take turns placing a stone on an empty cell of an M x N board ' +
  '(1 <= M, N <= 100). The first to get K or more of their stones in an unbroken line (row, column ' +
  'or diagonal) wins; a full board without such a line is a draw (1 <= K <= max(M, N)). ' +
  'With exactK: true only a line of exactly K wins and an overline does not (Gomocup\'s standard rule). ' +
  'Tic-tac-toe is 3,3,3; freestyle gomoku is 15,15,5. States list the M rows top to bottom as ' +
  "strings of N characters 'X', 'O' or '.'; moves are {row, col} (0-based) or the notation \"row,col\".";

const SCORE_SCALE =
  'Heuristic advantage of the side to move in line points: a K-cell window holding K-1 of its ' +
  'stones and no enemy stone (a "four" in gomoku) is worth 100, K-2 stones about 14; scores near ' +
  '+-30000 mean a win or loss is expected within two plies. Proven results are reported as ' +
  '+-100000 with the distance in plies.';

export const definition: GameDefinition<MnkPosition> = {
  id: 'mnk',
  name: '(M,N,K)-game',
  rules: RULES,
  scoreScale: SCORE_SCALE,
  stateSchema,
  moveSchema,
  initialStateQuerySchema,
  sideNames: ['X', 'O'],
  exampleState: { m: 3, n: 3, k: 3, board: ['...', '.X.', '...'], turn: 'O' },
  exampleMove: { row: 0, col: 0, notation: '0,0' },
  engine,
  initialState,
  decodeState: (state) => decodeState(state),
  encodeState,
  decodeMove,
  encodeMove,
};
