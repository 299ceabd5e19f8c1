/**
 * Client face of the (M,N,K)-game: TypeBox schemas and the JSON <-> engine codec. Input is
 * schema-checked by the HTTP layer first; everything the schema cannot express (row lengths equal
 * to n, cell characters, stone counts against the turn, winners) is checked here, and every error
 * names the offending field in Ajv's style.
 *
 * Notation: "row,col", 0-based, row 0 first (the top row of `board`), e.g. "7,7".
 */
import { Type } from '../../vendor/typebox.js';
import { type Result, err, ok } from '../../core/result.js';
import type { FieldError, MoveJson } from '../types.js';
import { EMPTY, MnkPosition } from './position.js';
import { DEFAULT_PROFILE } from './profile.js';
import { decodeGridMove } from '../grid-move.js';

export const MAX_SIDE = 100;
const STATE_FIELD = 'body/state';
const SIDE_CHARS = ['X', 'O'] as const;

const exampleBoard = ['...', '.X.', '...'];

export const stateSchema = Type.Object(
  {
    m: Type.Integer({ minimum: 1, maximum: MAX_SIDE, description: 'Rows of the board (M).', examples: [15] }),
    n: Type.Integer({ minimum: 1, maximum: MAX_SIDE, description: 'Columns of the board (N).', examples: [15] }),
    k: Type.Integer({
      minimum: 1,
      maximum: MAX_SIDE,
      description: 'Stones in a row needed to win (K); at most max(M, N). Longer lines win too.',
      examples: [5],
    }),
    board: Type.Array(
      Type.String({
        minLength: 1,
        maxLength: MAX_SIDE,
        description: "One row: N characters, 'X', 'O' or '.' (empty), column 0 first.",
        examples: ['..X..'],
      }),
      { minItems: 1, maxItems: MAX_SIDE, description: 'M rows, row 0 first.', examples: [exampleBoard] },
    ),
    turn: Type.Union([Type.Literal('X'), Type.Literal('O')], {
      description: 'Side to move. X moves first, so X and O have equally many stones when X is to move.',
      examples: ['O'],
    }),
    exactK: Type.Optional(
      Type.Boolean({
        description:
          'Only a line of exactly K stones wins; a longer line (an overline) does not (Gomocup\'s standard rule, K = 5). ' +
          'Default false: K or more wins (freestyle).',
        examples: [false],
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'An (M,N,K)-game position: board rows top to bottom, the side to move and the winning rule.',
    examples: [{ m: 3, n: 3, k: 3, board: exampleBoard, turn: 'O' }],
  },
);

export const moveSchema = Type.Object(
  {
    row: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SIDE - 1, description: 'Row, 0-based (row 0 = first board string).', examples: [7] })),
    col: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SIDE - 1, description: 'Column, 0-based.', examples: [7] })),
    notation: Type.Optional(
      Type.String({ minLength: 3, maxLength: 16, description: '"row,col", 0-based, e.g. "7,7".', examples: ['7,7'] }),
    ),
  },
  {
    additionalProperties: false,
    description: 'A stone placement: {row, col} (notation optional), or {notation} alone.',
    examples: [{ row: 7, col: 7, notation: '7,7' }, { notation: '1,2' }],
  },
);

export const initialStateQuerySchema = Type.Object(
  {
    m: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SIDE, description: 'Rows; default 15.', examples: [15] })),
    n: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SIDE, description: 'Columns; default m.', examples: [15] })),
    k: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_SIDE, description: 'Stones in a row to win; default min(5, max(m, n)).', examples: [5] }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Board shape of the new game: defaults give freestyle gomoku (15x15, K=5); m=3 alone gives tic-tac-toe.',
    examples: [{ m: 15, n: 15, k: 5 }, { m: 3 }],
  },
);

export interface MnkStateJson {
  m: number;
  n: number;
  k: number;
  board: string[];
  turn: 'X' | 'O';
  /** Present (true) only for the exactly-K rule. */
  exactK?: boolean;
}

const DEFAULT_SIDE = 15;
const DEFAULT_K = 5;

export function initialState(query: Record<string, unknown>): Result<MnkStateJson, FieldError> {
  const m = typeof query.m === 'number' ? query.m : DEFAULT_SIDE;
  const n = typeof query.n === 'number' ? query.n : m;
  const k = typeof query.k === 'number' ? query.k : Math.min(DEFAULT_K, Math.max(m, n));
  for (const [name, value] of [['m', m], ['n', n], ['k', k]] as const) {
    if (!Number.isInteger(value) || value < 1 || value > MAX_SIDE) {
      return err({ kind: 'params', field: `querystring/${name}`, message: `${name} must be an integer from 1 to ${MAX_SIDE}` });
    }
  }
  if (k > Math.max(m, n)) {
    return err({ kind: 'params', field: 'querystring/k', message: `k = ${k} exceeds max(m, n) = ${Math.max(m, n)}: no line could ever win` });
  }
  return ok({ m, n, k, board: Array.from({ length: m }, () => '.'.repeat(n)), turn: 'X' });
}

function positionError(field: string, message: string): Result<never, FieldError> {
  return err({ kind: 'position', field, message });
}

export function decodeState(state: unknown): Result<MnkPosition, FieldError> {
  if (typeof state !== 'object' || state === null) return positionError(STATE_FIELD, 'state must be an object');
  const s = state as Partial<MnkStateJson>;
  for (const name of ['m', 'n', 'k'] as const) {
    const v = s[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_SIDE) {
      return positionError(`${STATE_FIELD}/${name}`, `${name} must be an integer from 1 to ${MAX_SIDE}`);
    }
  }
  const m = s.m!;
  const n = s.n!;
  const k = s.k!;
  if (k > Math.max(m, n)) return positionError(`${STATE_FIELD}/k`, `k = ${k} exceeds max(m, n) = ${Math.max(m, n)}`);
  if (s.turn !== 'X' && s.turn !== 'O') return positionError(`${STATE_FIELD}/turn`, "turn must be 'X' or 'O'");
  if (s.exactK !== undefined && typeof s.exactK !== 'boolean') return positionError(`${STATE_FIELD}/exactK`, 'exactK must be true or false');
  const exactK = s.exactK === true;
  const rows = s.board;
  if (!Array.isArray(rows)) return positionError(`${STATE_FIELD}/board`, 'board must be an array of row strings');
  if (rows.length !== m) return positionError(`${STATE_FIELD}/board`, `board has ${rows.length} rows but m = ${m}`);

  const cells = new Uint8Array(m * n);
  const stones = [0, 0];
  for (let r = 0; r < m; r++) {
    const row: unknown = rows[r];
    const field = `${STATE_FIELD}/board/${r}`;
    if (typeof row !== 'string') return positionError(field, `row ${r} must be a string`);
    if (row.length !== n) return positionError(field, `row ${r} has ${row.length} characters but n = ${n}`);
    for (let c = 0; c < n; c++) {
      const ch = row[c];
      const v = ch === '.' ? EMPTY : ch === 'X' ? 1 : ch === 'O' ? 2 : -1;
      if (v < 0) return positionError(field, `row ${r}, column ${c}: '${ch}' is not 'X', 'O' or '.'`);
      cells[r * n + c] = v;
      if (v !== EMPTY) stones[v - 1]++;
    }
  }

  const side = s.turn === 'X' ? 0 : 1;
  const [xs, os] = stones;
  const expectedX = side === 0 ? os : os + 1;
  if (xs !== expectedX) {
    const other = side === 0 ? xs === os + 1 : xs === os;
    const counts = `X has ${xs} stones and O has ${os}`;
    return other
      ? positionError(`${STATE_FIELD}/turn`, `${counts}, so it is ${side === 0 ? 'O' : 'X'}'s turn, not ${s.turn}'s`)
      : positionError(`${STATE_FIELD}/board`, `${counts}: X moves first, so X must have as many stones as O or one more`);
  }

  const pos = new MnkPosition(m, n, k, cells, side, DEFAULT_PROFILE, exactK);
  const winnerError = checkWinners(pos, side);
  if (winnerError !== null) return positionError(winnerError.field, winnerError.message);
  return ok(pos);
}

/** At most one winner, the side that moved last, and all its K-lines through one (last) stone. */
function checkWinners(pos: MnkPosition, side: number): { field: string; message: string } | null {
  const mover = SIDE_CHARS[side];
  const last = SIDE_CHARS[1 - side];
  const k = pos.exactK ? `exactly ${pos.k}` : `${pos.k}`;
  if (pos.hasCompleteLine(side)) {
    return pos.hasCompleteLine(1 - side)
      ? { field: `${STATE_FIELD}/board`, message: `both X and O have ${k} in a row: the game ended at the first one` }
      : { field: `${STATE_FIELD}/turn`, message: `${mover} is to move but already has ${k} in a row: the game ended at ${mover}'s last move` };
  }
  // Every winning line must contain the last move: a line finished earlier would have ended the game.
  const lines = pos.completeLines(1 - side);
  if (lines.length === 0) return null;
  const hits = new Int32Array(pos.cellCount);
  for (const line of lines) for (const cell of line) hits[cell]++;
  for (let cell = 0; cell < pos.cellCount; cell++) if (hits[cell] === lines.length) return null;
  return {
    field: `${STATE_FIELD}/board`,
    message: `${last}'s lines of ${k} share no stone: they cannot all have been completed by ${last}'s last move`,
  };
}

export function encodeState(pos: MnkPosition): MnkStateJson {
  const board: string[] = [];
  for (let r = 0; r < pos.m; r++) {
    let row = '';
    for (let c = 0; c < pos.n; c++) {
      const v = pos.cells[r * pos.n + c];
      row += v === EMPTY ? '.' : SIDE_CHARS[v - 1];
    }
    board.push(row);
  }
  const state: MnkStateJson = { m: pos.m, n: pos.n, k: pos.k, board, turn: SIDE_CHARS[pos.side] };
  if (pos.exactK) state.exactK = true;
  return state;
}

export function notationOf(pos: MnkPosition, move: number): string {
  return `${Math.floor(move / pos.n)},${move % pos.n}`;
}

export function encodeMove(pos: MnkPosition, move: number): MoveJson {
  const row = Math.floor(move / pos.n);
  const col = move % pos.n;
  return { row, col, notation: `${row},${col}` };
}

const NOTATION = /^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*$/;

export function decodeMove(pos: MnkPosition, move: unknown, field: string): Result<number, FieldError> {
  return decodeGridMove(move, field, {
    notationHint: '"row,col"',
    cell: (row, col, cellField) => checkCell(pos, row, col, cellField, false),
    notation: (text, notationField) => parseNotation(pos, text, notationField),
  });
}

function parseNotation(pos: MnkPosition, text: string, field: string): Result<number, FieldError> {
  const match = NOTATION.exec(text);
  if (match === null) return err({ kind: 'notation', field, message: `"${text}" is not "row,col" (0-based numbers, e.g. "7,7")` });
  return checkCell(pos, Number(match[1]), Number(match[2]), field, true);
}

function checkCell(pos: MnkPosition, row: unknown, col: unknown, field: string, inNotation = false): Result<number, FieldError> {
  const kind = inNotation ? 'notation' : 'move';
  const rowField = inNotation ? field : `${field}/row`;
  const colField = inNotation ? field : `${field}/col`;
  if (typeof row !== 'number' || !Number.isInteger(row) || row < 0 || row >= pos.m) {
    return err({ kind, field: rowField, message: `row ${String(row)} is outside the board (0..${pos.m - 1})` });
  }
  if (typeof col !== 'number' || !Number.isInteger(col) || col < 0 || col >= pos.n) {
    return err({ kind, field: colField, message: `col ${String(col)} is outside the board (0..${pos.n - 1})` });
  }
  const cell = row * pos.n + col;
  const v = pos.cells[cell];
  if (v !== EMPTY) return err({ kind: 'move', field, message: `cell ${row},${col} is already taken by ${SIDE_CHARS[v - 1]}` });
  return ok(cell);
}
