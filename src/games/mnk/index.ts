/**
 * The (M,N,K)-game: tic-tac-toe to gomoku to 100x100 boards. Freestyle rules: a line of K or more
 * wins, a full board without one is a draw, X moves first. With `exactK` (Gomocup's standard rule)
 * only a line of exactly K wins.
 */
import type { EngineOptions, GameDefinition, GameEngine } from '../types.js';
import { scaledClientScore } from '../../search/score.js';
import { MnkPosition } from './position.js';
import { profileNamed } from './profile.js';
import { solveMnk } from './solver.js';
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

export { MnkPosition } from './position.js';

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
