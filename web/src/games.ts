/**
 * How each game's state is drawn and named. Only presentation lives here: which cell holds what,
 * the coordinates of a notation, the board's special squares. Legal moves, results and the next
 * position always come from the API.
 */
import type { MoveJson, Status } from './api.js';

export type State = Record<string, unknown>;

export interface Cell {
  row: number;
  col: number;
}

/** A piece as drawn: a colour and a shape. */
export type Piece = 'white' | 'black' | 'king' | 'x' | 'o' | null;

export interface GameView {
  readonly sides: readonly [string, string];
  sideName(side: string): string;
  size(state: State): { rows: number; cols: number };
  piece(state: State, cell: Cell): Piece;
  /** The piece a side places or moves (for previews). */
  sidePiece(side: string): Piece;
  cellName(state: State, cell: Cell): string;
  /** Where a move lands (and leaves from); null for a pass. */
  cells(move: MoveJson): { from?: Cell; to: Cell } | null;
  squareKind(state: State, cell: Cell): string;
  rowLabel(state: State, row: number): string;
  colLabel(state: State, col: number): string;
  /** Piece first, then destination (Tablut). */
  readonly twoStep: boolean;
  score?(state: State): string;
  overReason(state: State, status: Status): string;
  colours: { light: string; dark: string };
}

const letters = 'abcdefghijklmnopqrstuvwxyz';
const rowsOf = (state: State): string[] => state.board as string[];

function square(name: string): Cell {
  return { col: name.toLowerCase().charCodeAt(0) - 97, row: Number(name.slice(1)) - 1 };
}

function placed(move: MoveJson): { to: Cell } | null {
  return move.row === undefined || move.col === undefined ? null : { to: { row: move.row, col: move.col } };
}

function count(state: State, ch: string): number {
  let n = 0;
  for (const row of rowsOf(state)) for (const c of row) if (c === ch) n++;
  return n;
}

// Ashton Tablut board geometry (the API's rules text): throne e5, four camps, escapes on the edges.
const CAMPS = new Set(['a4', 'a5', 'a6', 'b5', 'i4', 'i5', 'i6', 'h5', 'd1', 'e1', 'f1', 'e2', 'd9', 'e9', 'f9', 'e8']);
const tablutName = (cell: Cell): string => letters[cell.col] + String(cell.row + 1);

const tablut: GameView = {
  sides: ['WHITE', 'BLACK'],
  sideName: (side) => (side === 'WHITE' ? 'White' : 'Black'),
  size: () => ({ rows: 9, cols: 9 }),
  piece(state, { row, col }) {
    const v = (state.board as string[][])[row][col];
    return v === 'WHITE' ? 'white' : v === 'BLACK' ? 'black' : v === 'KING' ? 'king' : null;
  },
  sidePiece: (side) => (side === 'WHITE' ? 'white' : 'black'),
  cellName: (_s, cell) => tablutName(cell),
  cells: (move) => (move.from && move.to ? { from: square(move.from), to: square(move.to) } : null),
  squareKind(_s, cell) {
    const name = tablutName(cell);
    if (name === 'e5') return 'throne';
    if (CAMPS.has(name)) return 'camp';
    return cell.row === 0 || cell.row === 8 || cell.col === 0 || cell.col === 8 ? 'escape' : '';
  },
  rowLabel: (_s, row) => String(row + 1),
  colLabel: (_s, col) => letters[col],
  twoStep: true,
  overReason(state, status) {
    if (status.status === 'draw') return 'a position was repeated';
    const board = state.board as string[][];
    let king: Cell | null = null;
    board.forEach((r, row) => r.forEach((v, col) => (v === 'KING' ? (king = { row, col }) : 0)));
    const k = king as Cell | null;
    if (status.winner === 'WHITE') {
      return k !== null && (k.row === 0 || k.row === 8 || k.col === 0 || k.col === 8) ? 'the king escaped' : 'Black has no legal move';
    }
    return k === null ? 'the king was captured' : 'White has no legal move';
  },
  colours: { light: '#efe2c4', dark: '#efe2c4' },
};

const othello: GameView = {
  sides: ['B', 'W'],
  sideName: (side) => (side === 'B' ? 'Black' : 'White'),
  size: (state) => ({ rows: rowsOf(state).length, cols: rowsOf(state)[0].length }),
  piece: (state, { row, col }) => ({ B: 'black', W: 'white' } as Record<string, Piece>)[rowsOf(state)[row][col]] ?? null,
  sidePiece: (side) => (side === 'B' ? 'black' : 'white'),
  cellName: (_s, { row, col }) => letters[col] + String(row + 1),
  cells: placed,
  squareKind: () => '',
  rowLabel: (_s, row) => String(row + 1),
  colLabel: (_s, col) => letters[col],
  twoStep: false,
  score: (state) => `Black ${count(state, 'B')} – White ${count(state, 'W')}`,
  overReason: (state) => `neither side can move; Black ${count(state, 'B')} – White ${count(state, 'W')} in discs`,
  colours: { light: '#2e7d4f', dark: '#2e7d4f' },
};

const hadron: GameView = {
  sides: ['W', 'B'],
  sideName: (side) => (side === 'W' ? 'White' : 'Black'),
  size: (state) => ({ rows: rowsOf(state).length, cols: rowsOf(state)[0].length }),
  piece: (state, { row, col }) => ({ B: 'black', W: 'white' } as Record<string, Piece>)[rowsOf(state)[row][col]] ?? null,
  sidePiece: (side) => (side === 'B' ? 'black' : 'white'),
  cellName: (_s, { row, col }) => letters[row].toUpperCase() + String(col + 1),
  cells: placed,
  squareKind: () => '',
  rowLabel: (_s, row) => letters[row].toUpperCase(),
  colLabel: (_s, col) => String(col + 1),
  twoStep: false,
  overReason: (state) => `${hadron.sideName(String(state.turn))} has no cell to place on`,
  colours: { light: '#efe3c8', dark: '#efe3c8' },
};

const mnk: GameView = {
  sides: ['X', 'O'],
  sideName: (side) => side,
  size: (state) => ({ rows: Number(state.m), cols: Number(state.n) }),
  piece: (state, { row, col }) => ({ X: 'x', O: 'o' } as Record<string, Piece>)[rowsOf(state)[row][col]] ?? null,
  sidePiece: (side) => (side === 'X' ? 'x' : 'o'),
  cellName: (_s, { row, col }) => `${row},${col}`,
  cells: placed,
  squareKind: () => '',
  rowLabel: (_s, row) => String(row),
  colLabel: (_s, col) => String(col),
  twoStep: false,
  overReason: (state, status) =>
    status.status === 'draw'
      ? 'the board is full and nobody has a line'
      : `${status.winner} has ${state.exactK === true ? 'exactly ' : ''}${String(state.k)} in a row`,
  colours: { light: '#fbfaf5', dark: '#fbfaf5' },
};

export const VIEWS: Record<string, GameView> = { tablut, othello, hadron, mnk };
